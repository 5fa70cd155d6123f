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
mod quantize;
mod score;

pub use error::DenseError;

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
}

impl DenseIndex {
    /// Quantises `vectors` (`n × dim` values, document after document, in
    /// corpus order). They should be L2-normalised embeddings; any finite
    /// values are accepted.
    pub fn build(vectors: &[f32], dim: usize) -> Result<Self, DenseError> {
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
        Ok(DenseIndex {
            dim,
            words,
            codes,
            scales,
            bits,
            mean,
        })
    }

    /// Rebuilds an index from stored parts, checking every length, that
    /// scales and the mean are finite and scales non-negative, that codes
    /// are in −127..=127, and that no bit is set beyond `dim`.
    pub fn from_parts(parts: DenseParts) -> Result<Self, DenseError> {
        let DenseParts {
            dim,
            codes,
            scales,
            bits,
            mean,
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
        Ok(DenseIndex {
            dim,
            words,
            codes,
            scales,
            bits,
            mean,
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
        }
    }

    /// Documents with a vector.
    pub fn n_docs(&self) -> usize {
        self.scales.len()
    }

    /// Values per vector.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The int8 codes, document after document.
    pub fn codes(&self) -> &[i8] {
        &self.codes
    }

    /// One scale per document.
    pub fn scales(&self) -> &[f32] {
        &self.scales
    }

    /// The sign bits, document after document.
    pub fn bits(&self) -> &[u64] {
        &self.bits
    }

    /// The corpus mean the bits are relative to.
    pub fn mean(&self) -> &[f32] {
        &self.mean
    }

    /// Document `doc`'s vector as stored: `scale · codes` (`None` out of range).
    pub fn vector(&self, doc: usize) -> Option<Vec<f32>> {
        let scale = *self.scales.get(doc)?;
        let codes = self.doc_codes(doc);
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

    fn doc_codes(&self, doc: usize) -> &[i8] {
        &self.codes[doc * self.dim..(doc + 1) * self.dim]
    }

    fn doc_bits(&self, doc: usize) -> &[u64] {
        &self.bits[doc * self.words..(doc + 1) * self.words]
    }
}
