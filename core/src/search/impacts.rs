//! Each posting's BM25 contribution, computed once per parameter setting,
//! so that a query adds precomputed numbers instead of decoding varints and
//! dividing per posting.
//!
//! A contribution depends only on the term (its idf), the document (its
//! length norm) and the term frequency, never on the query, and both
//! references compute it before adding it to the running score:
//! rank_bm25 adds `idf * (tf * (k1 + 1) / (tf + norm))` in float64, bm25s
//! adds the float32 value it stored at indexing. Computing the same
//! expression here, once, gives the same bits as computing it per query,
//! so the sums (still taken per query, in query order) are unchanged.
//!
//! The cost is memory: 12 bytes a posting for okapi (document id and
//! float64), 8 for lucene (document id and float32, what bm25s keeps),
//! beside the index's ~2 varint bytes, which stay for explanations and the
//! blob. The demo's Danish acts (277k postings, lucene) take 2.2 MB more:
//! the page's WebAssembly memory after loading them and one search went
//! from 7.2 to 10.2 MB. In exchange a query there runs about 1.2× faster,
//! and the selection work it then exposes was cut further (docs/benchmarks/).

use crate::index::InvertedIndex;

/// Per-posting contributions for every term, in the index's postings
/// order: term `t`'s are `docs[starts[t]..starts[t + 1]]` with the values
/// at the same positions.
#[derive(Debug, Clone, Default)]
pub(super) struct Impacts<V> {
    starts: Vec<usize>,
    docs: Vec<u32>,
    values: Vec<V>,
}

impl<V: Copy> Impacts<V> {
    /// Evaluates `contribution(term, doc, tf)` for every posting.
    pub fn new(index: &InvertedIndex, contribution: impl Fn(u32, u32, u32) -> V) -> Self {
        let n_postings: usize = index.doc_freqs().iter().map(|&df| df as usize).sum();
        let mut impacts = Impacts {
            starts: Vec::with_capacity(index.n_terms() + 1),
            docs: Vec::with_capacity(n_postings),
            values: Vec::with_capacity(n_postings),
        };
        impacts.starts.push(0);
        for term in 0..index.n_terms() as u32 {
            for p in index.postings(term) {
                impacts.docs.push(p.doc);
                impacts.values.push(contribution(term, p.doc, p.tf));
            }
            impacts.starts.push(impacts.docs.len());
        }
        impacts
    }

    /// Term `term`'s documents and contributions, in document order.
    #[inline]
    pub fn of(&self, term: u32) -> (&[u32], &[V]) {
        let t = term as usize;
        let range = self.starts[t]..self.starts[t + 1];
        (&self.docs[range.clone()], &self.values[range])
    }
}
