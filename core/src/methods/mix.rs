//! Vector mixing (issue #37): a stykke's vector moved toward what it
//! refers to, so a query phrased in its context's words finds it densely.
//! Each of document `d`'s stored vectors `v` becomes
//!
//! `v' = normalise(v + share · c(d))`
//!
//! where `c(d)` is the mean, over the documents `d` points to in the
//! pool's graph (what it cites, and the stykker defining the terms it
//! uses), of each one's stored vector (the mean of its vectors, when it
//! has several). A document pointing nowhere keeps its vectors.
//!
//! The mixed vectors are a second vector field derived at load from the
//! stored int8 vectors and the graph, as the reverse citation lists are:
//! storing them would double the blob's vector bytes (measured in
//! docs/benchmarks/cross-references.md) for values the blob already
//! determines. They are made for one `share` at a time and kept until
//! another is asked for, so a query costs what `dense` costs.

use std::sync::{Arc, Mutex};

use super::propagate::Graph;
use crate::dense::{DenseError, DenseIndex};

/// The mixed vectors of `index` along `graph`'s out-edges, weighted
/// `share` (finite, ≥ 0); computed in f64, quantised as stored vectors
/// are. `graph` must cover `index`'s documents.
pub fn mix(index: &DenseIndex, graph: &Graph, share: f64) -> Result<DenseIndex, DenseError> {
    let dim = index.dim();
    let n_docs = index.n_docs();
    let stored = |v: usize| {
        let scale = f64::from(index.scales()[v]);
        index
            .vector_codes(v)
            .iter()
            .map(move |&c| scale * f64::from(c))
    };
    let mut mixed = Vec::with_capacity(index.n_vectors() * dim);
    let mut context = vec![0f64; dim];
    for doc in 0..n_docs {
        let cited = graph.points_to(doc);
        context.fill(0.0);
        // The mean over what `doc` cites of each one's mean vector, read
        // from the codes as needed rather than kept for every document.
        for &n in cited {
            let vectors = index.doc_vectors(n as usize);
            let weight = 1.0 / (vectors.len().max(1) * cited.len()) as f64;
            for v in vectors {
                for (c, x) in context.iter_mut().zip(stored(v)) {
                    *c += weight * x;
                }
            }
        }
        for v in index.doc_vectors(doc) {
            let moved: Vec<f64> = match cited.is_empty() {
                true => stored(v).collect(),
                false => stored(v)
                    .zip(&context)
                    .map(|(x, c)| x + share * c)
                    .collect(),
            };
            let norm = moved.iter().map(|x| x * x).sum::<f64>().sqrt();
            let norm = if norm > 0.0 && !cited.is_empty() {
                norm
            } else {
                1.0
            };
            mixed.extend(moved.iter().map(|&x| (x / norm) as f32));
        }
    }
    DenseIndex::build_passages(&mixed, dim, index.passages().cloned())
}

/// The mixed vectors for the last `share` asked for.
#[derive(Debug, Default)]
pub struct MixCache(Mutex<Option<(u64, Arc<DenseIndex>)>>);

impl MixCache {
    /// The mixed vectors of `index` along `graph` for `share`: the cached
    /// ones when `share` is the last one's, else made anew (replacing them).
    pub fn get(
        &self,
        index: &DenseIndex,
        graph: &Graph,
        share: f64,
    ) -> Result<Arc<DenseIndex>, DenseError> {
        let mut cached = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((bits, mixed)) = cached.as_ref() {
            if *bits == share.to_bits() {
                return Ok(mixed.clone());
            }
        }
        let mixed = Arc::new(mix(index, graph, share)?);
        *cached = Some((share.to_bits(), mixed.clone()));
        Ok(mixed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 0 → 1, 0 → 2, 3 → 1 (`a → b`: `a` cites `b`); 4 has no edge.
    fn graph() -> Graph {
        let out = [vec![1, 2], vec![], vec![], vec![1], vec![]];
        Graph::new(5, |d| out[d].clone()).unwrap()
    }

    fn unit(v: &[f64]) -> Vec<f64> {
        let n = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        v.iter().map(|x| x / n).collect()
    }

    fn index() -> DenseIndex {
        let docs: [[f32; 3]; 5] = [
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 1.0],
            [0.6, 0.8, 0.0],
            [0.0, 0.6, 0.8],
        ];
        DenseIndex::build(docs.as_flattened(), 3).unwrap()
    }

    #[test]
    fn a_document_moves_toward_the_mean_of_what_it_cites() {
        let index = index();
        let mixed = mix(&index, &graph(), 0.5).unwrap();
        let as_stored = |i: &DenseIndex, v: usize| -> Vec<f64> {
            i.vector(v).unwrap().iter().map(|&x| f64::from(x)).collect()
        };
        // Document 0 cites 1 and 2: v + 0.5 · (e1 + e2) / 2.
        let expected = unit(&[1.0, 0.25, 0.25]);
        for (got, want) in as_stored(&mixed, 0).iter().zip(&expected) {
            assert!((got - want).abs() < 0.01, "{got} against {want}");
        }
        // Document 3 cites 1 only: (0.6, 0.8 + 0.5, 0).
        let expected = unit(&[0.6, 1.3, 0.0]);
        for (got, want) in as_stored(&mixed, 3).iter().zip(&expected) {
            assert!((got - want).abs() < 0.01, "{got} against {want}");
        }
        // Those citing nothing keep their codes and scales.
        for doc in [1, 2, 4] {
            assert_eq!(mixed.vector_codes(doc), index.vector_codes(doc));
            assert_eq!(mixed.scales()[doc], index.scales()[doc]);
        }
    }

    #[test]
    fn share_zero_leaves_every_vector_as_it_was_and_the_cache_follows_the_share() {
        let index = index();
        let mixed = mix(&index, &graph(), 0.0).unwrap();
        assert_eq!(mixed.codes(), index.codes());
        let cache = MixCache::default();
        let a = cache.get(&index, &graph(), 2.0).unwrap();
        assert!(Arc::ptr_eq(&a, &cache.get(&index, &graph(), 2.0).unwrap()));
        let b = cache.get(&index, &graph(), 0.0).unwrap();
        assert!(!Arc::ptr_eq(&a, &b));
        assert_eq!(b.codes(), index.codes());
        // Along e2 + e3, document 0, citing both, rises from last (cosine 0)
        // to second (0.816, behind document 4's 0.99).
        let q = unit(&[0.0, 1.0, 1.0]);
        let q: Vec<f32> = q.iter().map(|&x| x as f32).collect();
        let plain: Vec<u32> = index.search(&q, 5).unwrap().iter().map(|h| h.doc).collect();
        let moved: Vec<u32> = a.search(&q, 5).unwrap().iter().map(|h| h.doc).collect();
        assert_eq!(plain[4], 0);
        assert_eq!(moved[..2], [4, 0]);
    }
}
