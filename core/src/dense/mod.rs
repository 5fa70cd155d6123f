//! Dense retrieval over document embeddings, stored compactly enough for a
//! browser heap and scored exhaustively.
//!
//! Each document vector is kept as
//! - **int8 codes with one f32 scale**: `x ≈ scale · c`, `scale = max|x| / 127`,
//!   `c = round(x / scale)`. A scale per vector costs 4 bytes against 384 of
//!   codes and keeps each vector's full int8 range. Scores are
//!   `scale · Σ q_i c_i`, the query quantised far more finely than the
//!   documents (i16 codes, see `score::QueryCodes`), so the error is
//!   essentially the documents' rounding;
//! - **1-bit codes** for a cheap first pass: bit `i` is set when
//!   `x_i > mean_i`, `mean` being the corpus mean document vector. e5
//!   vectors are strongly anisotropic (every vector shares a large common
//!   component; cosines bunch up between 0.7 and 0.9), so signs of the raw
//!   components would be nearly the same for every document; centring first
//!   makes the bits informative. A query's bits use the same mean.
//!
//! A document may have several vectors (one per window of a long article,
//! see [`crate::embed::Pooling`]): it then scores as its best vector
//! (MaxP). [`Passages`] maps each document to its run of vectors and says
//! where in the document's text each vector's window begins, so that the
//! best window can be shown; without it there is one vector per document.
//!
//! [`DenseIndex::search`] ranks by brute-force int8 scores;
//! [`DenseIndex::search_binary`] takes the `candidates` documents nearest in
//! Hamming distance and rescores only those. Both rank by score descending,
//! ties in corpus order, like every ranking in [`crate::hits`].
//!
//! Everything is deterministic and identical natively and in wasm: the dot
//! product is computed exactly in integers, and the few float operations
//! around it (the query's power-of-two scaling, the document's scale) are
//! single IEEE operations in a fixed order.

mod error;
mod ivf;
mod quantize;
mod score;

pub use error::DenseError;
pub use ivf::{best_per_doc, probed_lists, Ivf, IvfParts};
pub use score::QueryCodes;

#[cfg(test)]
mod tests;

/// The raw arrays a [`DenseIndex`] is made of, as a blob stores them.
/// [`DenseIndex::from_parts`] checks them before trusting them.
#[derive(Debug, Clone, PartialEq)]
pub struct DenseParts {
    /// Values per vector.
    pub dim: u32,
    /// `n_docs × dim` int8 codes, document after document.
    pub codes: Vec<i8>,
    /// One scale per document.
    pub scales: Vec<f32>,
    /// `n_docs × ceil(dim / 64)` words of sign bits, document after document;
    /// bit `i % 64` of word `i / 64` is component `i`.
    pub bits: Vec<u64>,
    /// The corpus mean document vector (`dim` values) the bits are relative to.
    pub mean: Vec<f32>,
    /// Several vectors per document; `None`: one each.
    pub passages: Option<Passages>,
}

/// Which vectors belong to which document, when documents have several.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Passages {
    /// Document `d`'s vectors are `offsets[d]..offsets[d + 1]`: `n_docs + 1`
    /// offsets from 0 to the number of vectors, each document with at least
    /// one vector.
    pub offsets: Vec<u32>,
    /// Per vector, the byte in its document's text where its window begins
    /// (0 for each document's first; rising within a document). Shown as
    /// the passage a document matched by; not used in scoring.
    pub starts: Vec<u32>,
}

/// Quantised document vectors; see the module docs.
#[derive(Debug, Clone, PartialEq)]
pub struct DenseIndex {
    dim: usize,
    words: usize,
    codes: Vec<i8>,
    scales: Vec<f32>,
    bits: Vec<u64>,
    mean: Vec<f32>,
    /// Per-document runs of vectors; `None`: one vector per document.
    passages: Option<Passages>,
}

impl DenseIndex {
    /// Quantises `vectors` (`n × dim` values, document after document, in
    /// corpus order). They should be L2-normalised embeddings; any finite
    /// values are accepted.
    pub fn build(vectors: &[f32], dim: usize) -> Result<Self, DenseError> {
        Self::build_passages(vectors, dim, None)
    }

    /// Like [`Self::build`], with several vectors per document when
    /// `passages` says which are whose.
    pub fn build_passages(
        vectors: &[f32],
        dim: usize,
        passages: Option<Passages>,
    ) -> Result<Self, DenseError> {
        if dim == 0 {
            return Err(DenseError::ZeroDimension);
        }
        if !vectors.len().is_multiple_of(dim) {
            return Err(DenseError::LengthMismatch {
                what: "vectors",
                expected: vectors.len() / dim * dim + dim,
                found: vectors.len(),
            });
        }
        if let Some(at) = vectors.iter().position(|x| !x.is_finite()) {
            return Err(DenseError::NonFinite { what: "vector", at });
        }
        let n = vectors.len() / dim;
        u32::try_from(n).map_err(|_| DenseError::TooLarge { what: "documents" })?;
        u32::try_from(dim).map_err(|_| DenseError::TooLarge { what: "dimensions" })?;
        let mean = quantize::mean(vectors, dim);
        let words = dim.div_ceil(64);
        let mut codes = Vec::with_capacity(vectors.len());
        let mut scales = Vec::with_capacity(n);
        let mut bits = Vec::with_capacity(n * words);
        for v in vectors.chunks_exact(dim) {
            scales.push(quantize::int8(v, &mut codes));
            quantize::sign_bits(v, &mean, &mut bits);
        }
        let passages = check_passages(passages, n)?;
        Ok(DenseIndex {
            dim,
            words,
            codes,
            scales,
            bits,
            mean,
            passages,
        })
    }

    /// Rebuilds an index from stored parts, checking every length, that
    /// scales and the mean are finite and scales non-negative, that codes
    /// are in −127..=127, that no bit is set beyond `dim`, and that
    /// `passages` give every document a run of at least one vector.
    pub fn from_parts(parts: DenseParts) -> Result<Self, DenseError> {
        let DenseParts {
            dim,
            codes,
            scales,
            bits,
            mean,
            passages,
        } = parts;
        let dim = dim as usize;
        if dim == 0 {
            return Err(DenseError::ZeroDimension);
        }
        let n = scales.len();
        let words = dim.div_ceil(64);
        let expect = |what, expected: Option<usize>, found| match expected {
            Some(e) if e == found => Ok(()),
            _ => Err(DenseError::LengthMismatch {
                what,
                expected: expected.unwrap_or(usize::MAX),
                found,
            }),
        };
        expect("codes", n.checked_mul(dim), codes.len())?;
        expect("bits", n.checked_mul(words), bits.len())?;
        expect("mean", Some(dim), mean.len())?;
        if let Some(at) = mean.iter().position(|x| !x.is_finite()) {
            return Err(DenseError::NonFinite { what: "mean", at });
        }
        for (doc, &s) in scales.iter().enumerate() {
            if !s.is_finite() {
                return Err(DenseError::NonFinite {
                    what: "scale",
                    at: doc,
                });
            }
            if s < 0.0 {
                return Err(DenseError::NegativeScale { doc });
            }
        }
        if let Some(at) = codes.iter().position(|&c| c == i8::MIN) {
            return Err(DenseError::CodeOutOfRange { doc: at / dim });
        }
        let used = dim - (words - 1) * 64;
        if used < 64 {
            let stray = !0u64 << used;
            if let Some(doc) = bits
                .chunks_exact(words)
                .position(|w| w[words - 1] & stray != 0)
            {
                return Err(DenseError::StrayBits { doc });
            }
        }
        let passages = check_passages(passages, n)?;
        Ok(DenseIndex {
            dim,
            words,
            codes,
            scales,
            bits,
            mean,
            passages,
        })
    }

    /// Takes the index apart into its stored form.
    pub fn into_parts(self) -> DenseParts {
        DenseParts {
            dim: self.dim as u32,
            codes: self.codes,
            scales: self.scales,
            bits: self.bits,
            mean: self.mean,
            passages: self.passages,
        }
    }

    /// Documents with vectors.
    pub fn n_docs(&self) -> usize {
        match &self.passages {
            Some(p) => p.offsets.len() - 1,
            None => self.scales.len(),
        }
    }

    /// Stored vectors: [`Self::n_docs`], or more when documents have
    /// several.
    pub fn n_vectors(&self) -> usize {
        self.scales.len()
    }

    /// Document `doc`'s vectors (indexes into the codes and scales); empty
    /// out of range.
    pub fn doc_vectors(&self, doc: usize) -> std::ops::Range<usize> {
        match self.passages.as_ref().map(|p| &p.offsets) {
            Some(offsets) if doc + 1 < offsets.len() => {
                offsets[doc] as usize..offsets[doc + 1] as usize
            }
            Some(_) => 0..0,
            None if doc < self.scales.len() => doc..doc + 1,
            None => 0..0,
        }
    }

    /// The vectors' runs per document, when documents have several.
    pub fn passages(&self) -> Option<&Passages> {
        self.passages.as_ref()
    }

    /// Where in its document's text vector `vector`'s window begins (0
    /// with one vector per document).
    pub fn passage_start(&self, vector: usize) -> usize {
        self.passages
            .as_ref()
            .and_then(|p| p.starts.get(vector))
            .map_or(0, |&s| s as usize)
    }

    /// The document vector `vector` belongs to.
    pub fn doc_of(&self, vector: usize) -> usize {
        match &self.passages {
            Some(p) => p.offsets.partition_point(|&o| o as usize <= vector) - 1,
            None => vector,
        }
    }

    /// Values per vector.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The int8 codes, vector after vector.
    pub fn codes(&self) -> &[i8] {
        &self.codes
    }

    /// One scale per vector.
    pub fn scales(&self) -> &[f32] {
        &self.scales
    }

    /// The sign bits, vector after vector.
    pub fn bits(&self) -> &[u64] {
        &self.bits
    }

    /// The corpus mean the bits are relative to.
    pub fn mean(&self) -> &[f32] {
        &self.mean
    }

    /// Vector `vector` as stored: `scale · codes` (`None` out of range).
    pub fn vector(&self, vector: usize) -> Option<Vec<f32>> {
        let scale = *self.scales.get(vector)?;
        let codes = self.vector_codes(vector);
        Some(codes.iter().map(|&c| scale * f32::from(c)).collect())
    }

    /// Checks a query embedding: `dim` finite values.
    pub fn check_query(&self, query: &[f32]) -> Result<(), DenseError> {
        if query.len() != self.dim {
            return Err(DenseError::LengthMismatch {
                what: "query embedding",
                expected: self.dim,
                found: query.len(),
            });
        }
        match query.iter().position(|x| !x.is_finite()) {
            Some(at) => Err(DenseError::NonFinite { what: "query", at }),
            None => Ok(()),
        }
    }

    /// Vector `vector`'s int8 codes (`vector` in range).
    pub fn vector_codes(&self, vector: usize) -> &[i8] {
        &self.codes[vector * self.dim..(vector + 1) * self.dim]
    }

    /// `vectors` grouped by equal vectors (codes and scale), each group
    /// in the order given, groups in the order of their first vector.
    /// Documents that repeat each other's text (Danish law keeps every
    /// consolidation of an act) share vectors.
    pub fn equal_vectors(&self, vectors: impl IntoIterator<Item = u32>) -> Vec<Vec<u32>> {
        let mut group_of = std::collections::HashMap::new();
        let mut groups: Vec<Vec<u32>> = Vec::new();
        for v in vectors {
            let key = (
                self.vector_codes(v as usize),
                self.scales[v as usize].to_bits(),
            );
            let g = *group_of.entry(key).or_insert_with(|| {
                groups.push(Vec::new());
                groups.len() - 1
            });
            groups[g].push(v);
        }
        groups
    }

    fn vector_bits(&self, vector: usize) -> &[u64] {
        &self.bits[vector * self.words..(vector + 1) * self.words]
    }
}

/// Checks `passages` over `n` vectors: offsets from 0 to `n`, rising
/// strictly; one start per vector, 0 for each document's first and rising
/// within a document.
fn check_passages(passages: Option<Passages>, n: usize) -> Result<Option<Passages>, DenseError> {
    let Some(p) = passages else {
        return Ok(None);
    };
    let bad = |doc| Err(DenseError::BadPassages { doc });
    let ends_right =
        p.offsets.first() == Some(&0) && p.offsets.last().map(|&e| e as usize) == Some(n);
    if !ends_right || p.offsets.len() < 2 || p.starts.len() != n {
        return bad(0);
    }
    for (doc, run) in p.offsets.windows(2).enumerate() {
        // A run past `n` is refused here, before it is sliced: the last
        // offset alone does not bound the ones before it.
        if run[0] >= run[1] || run[1] as usize > n {
            return bad(doc);
        }
        let starts = &p.starts[run[0] as usize..run[1] as usize];
        if starts[0] != 0 || starts.windows(2).any(|w| w[0] >= w[1]) {
            return bad(doc);
        }
    }
    Ok(Some(p))
}
