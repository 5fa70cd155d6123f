//! A coarse quantiser over the stored vectors (IVF): k-means lists, so a
//! query scores only the vectors of the lists nearest to it.
//!
//! [`Ivf::build`] runs k-means (Euclidean: each vector to its nearest
//! centroid, each centroid the mean of its vectors) natively over the
//! vectors as stored (`scale · codes`), seeded and in a fixed order, so
//! the same vectors and seed give the same lists. A query probes the lists
//! whose centroids have the largest dot product with it: a centroid is the
//! mean of its members, so its dot product is their mean score. Euclidean
//! k-means, not spherical: e5 vectors share a large common component, and
//! distances ignore it where normalised centroids would mostly measure it
//! (docs/benchmarks/scale.md, "Dense at scale", has the measurements). The centroids
//! are kept as int8 codes with a scale, like the vectors, and scored with
//! the same integer dot product ([`QueryCodes`]): which lists a query
//! probes is the same natively and in wasm.
//!
//! [`DenseIndex::search_ivf`] scores the centroids, takes the `probes`
//! best (ties by list number), scores every vector of those lists exactly
//! as [`DenseIndex::search`] does, and ranks each document by its best
//! probed vector. A document whose best vector lies in a list not probed
//! scores lower than under brute force (its best probed vector) or is
//! missing; with every list probed the ranking is brute force's, to the
//! bit.

use super::{quantize, DenseError, DenseIndex, QueryCodes};
use crate::hits::{sort_hits, top_k_into, Hit};

/// Lloyd iterations: the lists barely move after a few, and the query
/// rescores exactly whatever the lists are.
const ITERATIONS: usize = 8;
/// Training vectors per list at most: k-means on a sample of this size
/// finds the same structure at a fraction of the cost; every vector is
/// then assigned.
const SAMPLE_PER_LIST: usize = 64;

/// The lists as stored; [`Ivf::from_parts`] checks them.
#[derive(Debug, Clone, PartialEq)]
pub struct IvfParts {
    /// `lists × dim` int8 codes of the centroids.
    pub centroid_codes: Vec<i8>,
    /// One scale per centroid.
    pub centroid_scales: Vec<f32>,
    /// List `l`'s members are `members[offsets[l]..offsets[l + 1]]`.
    pub offsets: Vec<u32>,
    /// Vector numbers, ascending within each list; every vector in exactly
    /// one list.
    pub members: Vec<u32>,
}

/// Inverted lists over a [`DenseIndex`]'s vectors; see the module docs.
#[derive(Debug, Clone, PartialEq)]
pub struct Ivf {
    dim: usize,
    parts: IvfParts,
}

impl Ivf {
    /// The number of lists when nobody chose: about √(vectors), the usual
    /// balance between scoring centroids and scoring list members.
    pub fn default_lists(n_vectors: usize) -> usize {
        ((n_vectors as f64).sqrt().round() as usize).max(1)
    }

    /// Clusters `index`'s vectors into `lists` lists (at most one per
    /// distinct vector), seeded by `seed`.
    pub fn build(index: &DenseIndex, lists: usize, seed: u64) -> Result<Ivf, DenseError> {
        let n = index.n_vectors();
        let dim = index.dim();
        if lists == 0 || n == 0 {
            return Err(DenseError::BadLists(format!(
                "cannot make {lists} lists over {n} vectors"
            )));
        }
        let vectors: Vec<f32> = (0..n).flat_map(|v| dequantised(index, v)).collect();
        let mut rng = SplitMix(seed);
        // Distinct vectors only: k-means trained on copies would spend its
        // lists where the copies pile up, and two copies starting two
        // centroids would leave one list empty for good.
        let order: Vec<usize> = index
            .equal_vectors(rng.shuffled(n).into_iter().map(|v| v as u32))
            .into_iter()
            .map(|group| group[0] as usize)
            .collect();
        let lists = lists.min(order.len());
        let mut sample: Vec<usize> = order[..order.len().min(lists * SAMPLE_PER_LIST)].to_vec();
        sample.sort_unstable();
        let row = |v: usize| &vectors[v * dim..(v + 1) * dim];
        // The first `lists` of the shuffle, distinct vectors, start the
        // centroids.
        let mut centroids: Vec<f32> = order[..lists]
            .iter()
            .flat_map(|&v| row(v))
            .copied()
            .collect();
        for _ in 0..ITERATIONS {
            let mut sums = vec![0f64; lists * dim];
            let mut counts = vec![0usize; lists];
            for &v in &sample {
                let l = nearest(&centroids, dim, row(v));
                counts[l] += 1;
                for (s, &x) in sums[l * dim..(l + 1) * dim].iter_mut().zip(row(v)) {
                    *s += f64::from(x);
                }
            }
            for l in 0..lists {
                // An empty list keeps its centroid.
                if counts[l] > 0 {
                    let sum = &sums[l * dim..(l + 1) * dim];
                    for (c, s) in centroids[l * dim..(l + 1) * dim].iter_mut().zip(sum) {
                        *c = (s / counts[l] as f64) as f32;
                    }
                }
            }
        }
        let mut by_list: Vec<Vec<u32>> = vec![Vec::new(); lists];
        for v in 0..n {
            by_list[nearest(&centroids, dim, row(v))].push(v as u32);
        }
        let mut centroid_codes = Vec::with_capacity(lists * dim);
        let centroid_scales: Vec<f32> = centroids
            .chunks_exact(dim)
            .map(|c| quantize::int8(c, &mut centroid_codes))
            .collect();
        let mut ivf = Ivf {
            dim,
            parts: IvfParts {
                centroid_codes,
                centroid_scales,
                offsets: Vec::new(),
                members: Vec::new(),
            },
        };
        ivf.parts.offsets.push(0);
        for list in by_list {
            ivf.parts.members.extend(list);
            ivf.parts.offsets.push(ivf.parts.members.len() as u32);
        }
        Ok(ivf)
    }

    /// Rebuilds lists from stored parts over `index`'s vectors, checking
    /// every length, that codes are in −127..=127 and scales finite and
    /// non-negative, that offsets rise from 0 to the number of vectors,
    /// and that every vector is in exactly one list, ascending within it.
    pub fn from_parts(index: &DenseIndex, parts: IvfParts) -> Result<Ivf, DenseError> {
        Self::check(index.dim(), index.n_vectors(), &parts)?;
        Ok(Ivf {
            dim: index.dim(),
            parts,
        })
    }

    /// The checks of [`Self::from_parts`], for lists over `n_vectors`
    /// vectors of `dim` values.
    pub fn check(dim: usize, n_vectors: usize, parts: &IvfParts) -> Result<(), DenseError> {
        let bad = |m: String| Err(DenseError::BadLists(m));
        let lists = parts.centroid_scales.len();
        if lists == 0 {
            return bad("no lists".into());
        }
        if Some(parts.centroid_codes.len()) != lists.checked_mul(dim) {
            return bad(format!(
                "{} centroid codes for {lists} lists of {dim} values",
                parts.centroid_codes.len()
            ));
        }
        if parts.centroid_codes.contains(&i8::MIN) {
            return bad("a centroid code of -128".into());
        }
        if let Some(l) = parts
            .centroid_scales
            .iter()
            .position(|s| !s.is_finite() || *s < 0.0)
        {
            return bad(format!(
                "centroid {l} has a scale that is negative or not finite"
            ));
        }
        let o = &parts.offsets;
        if o.len() != lists + 1
            || o[0] != 0
            || o.windows(2).any(|w| w[0] > w[1])
            || o[lists] as usize != parts.members.len()
            || parts.members.len() != n_vectors
        {
            return bad(format!(
                "offsets must rise from 0 to the {n_vectors} vectors over {lists} lists"
            ));
        }
        let mut seen = vec![false; n_vectors];
        for l in 0..lists {
            let list = &parts.members[o[l] as usize..o[l + 1] as usize];
            if list.windows(2).any(|w| w[0] >= w[1]) {
                return bad(format!("list {l} is not ascending"));
            }
            for &v in list {
                match seen.get_mut(v as usize) {
                    Some(s @ false) => *s = true,
                    _ => return bad(format!("vector {v} is out of range or in two lists")),
                }
            }
        }
        Ok(())
    }

    /// The stored form.
    pub fn parts(&self) -> &IvfParts {
        &self.parts
    }

    /// How many lists.
    pub fn n_lists(&self) -> usize {
        self.parts.centroid_scales.len()
    }

    /// List `l`'s vector numbers, ascending (empty out of range).
    pub fn list(&self, l: usize) -> &[u32] {
        match (self.parts.offsets.get(l), self.parts.offsets.get(l + 1)) {
            (Some(&a), Some(&b)) => &self.parts.members[a as usize..b as usize],
            _ => &[],
        }
    }

    /// The `probes` lists whose centroids score best for `query` (a
    /// checked query of the index's dimension), best first, ties by list
    /// number; every list when `probes` is 0 or at least the number of
    /// lists.
    pub fn probed(&self, query: &QueryCodes, probes: usize) -> Vec<usize> {
        probed_lists(
            &self.parts.centroid_codes,
            &self.parts.centroid_scales,
            self.dim,
            query,
            probes,
        )
    }
}

/// [`Ivf::probed`] over centroids as stored (also a fragmented pool's).
pub fn probed_lists(
    codes: &[i8],
    scales: &[f32],
    dim: usize,
    query: &QueryCodes,
    probes: usize,
) -> Vec<usize> {
    let lists = scales.len();
    let probes = if probes == 0 {
        lists
    } else {
        probes.min(lists)
    };
    let scores: Vec<f64> = codes
        .chunks_exact(dim)
        .zip(scales)
        .map(|(c, &s)| query.score(c, s))
        .collect();
    let mut best = Vec::with_capacity(probes);
    top_k_into(&scores, probes, false, &mut best);
    best.into_iter().map(|h| h.doc as usize).collect()
}

/// The best `k` of `(document, score)` pairs, each document scoring as its
/// best pair, ties by document.
pub fn best_per_doc(mut scored: Vec<(u32, f64)>, k: usize) -> Vec<Hit> {
    scored.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)));
    scored.dedup_by_key(|p| p.0);
    let mut hits: Vec<Hit> = scored
        .into_iter()
        .map(|(doc, score)| Hit { doc, score })
        .collect();
    sort_hits(&mut hits, k);
    hits
}

impl DenseIndex {
    /// The best `k` documents among those with a vector in the `probes`
    /// lists of `ivf` nearest the query (0: all lists), each scoring as
    /// its best probed vector; see the module docs.
    pub fn search_ivf(
        &self,
        ivf: &Ivf,
        query: &[f32],
        k: usize,
        probes: usize,
    ) -> Result<Vec<Hit>, DenseError> {
        self.check_query(query)?;
        if ivf.dim != self.dim || ivf.parts.members.len() != self.n_vectors() {
            return Err(DenseError::BadLists(
                "the lists were made for other vectors".into(),
            ));
        }
        let codes = QueryCodes::new(query);
        let mut scored = Vec::new();
        for l in ivf.probed(&codes, probes) {
            for &v in ivf.list(l) {
                let v = v as usize;
                scored.push((self.doc_of(v) as u32, self.score_vector(&codes, v)));
            }
        }
        Ok(best_per_doc(scored, k))
    }
}

/// Vector `v` as stored, `scale · codes`.
fn dequantised(index: &DenseIndex, v: usize) -> Vec<f32> {
    index.vector(v).unwrap_or_default()
}

/// The centroid nearest to `x` in Euclidean distance, the first of
/// equals: the largest `x · c − |c|² / 2`. Eight f32 lanes in a fixed
/// order: fast, and the same on every run.
fn nearest(centroids: &[f32], dim: usize, x: &[f32]) -> usize {
    let mut best = (0, f32::NEG_INFINITY);
    for (l, c) in centroids.chunks_exact(dim).enumerate() {
        let half_norm = c.iter().map(|a| a * a).sum::<f32>() / 2.0;
        let mut lanes = [0f32; 8];
        let whole = dim / 8 * 8;
        for (a, b) in c[..whole].chunks_exact(8).zip(x[..whole].chunks_exact(8)) {
            for i in 0..8 {
                lanes[i] += a[i] * b[i];
            }
        }
        let tail: f32 = c[whole..].iter().zip(&x[whole..]).map(|(a, b)| a * b).sum();
        let dot = lanes.iter().sum::<f32>() + tail - half_norm;
        if dot > best.1 {
            best = (l, dot);
        }
    }
    best.0
}

/// splitmix64: a small, well-mixed generator, enough for choosing samples.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// `0..n` in a seeded random order (Fisher–Yates).
    fn shuffled(&mut self, n: usize) -> Vec<usize> {
        let mut order: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        order
    }
}
