//! Sparse pseudo-relevance feedback: which terms of the top documents to add
//! to a query. Needs each document's terms, which the inverted index only
//! has term by term: [`ForwardIndex`] turns it around once.

use std::collections::{HashMap, HashSet};

use crate::index::InvertedIndex;

/// Per-document `(term, tf)` lists, derived from an inverted index's
/// postings (terms of a document in increasing term id order). Costs 8
/// bytes per posting plus 4 per document; built on first use of PRF rather
/// than stored in the blob, which would cost about as much again on the
/// wire for data the postings already hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForwardIndex {
    /// Document `d`'s entries are `offsets[d]..offsets[d + 1]`.
    offsets: Vec<u32>,
    terms: Vec<u32>,
    tfs: Vec<u32>,
}

impl ForwardIndex {
    /// One pass over the postings to count, one to fill.
    pub fn build(index: &InvertedIndex) -> Self {
        let n_terms = index.n_terms() as u32;
        let mut counts = vec![0u32; index.n_docs() + 1];
        for term in 0..n_terms {
            index
                .postings(term)
                .for_each(|p| counts[p.doc as usize + 1] += 1);
        }
        // Prefix sums; fits: the index checked postings fit in u32 bytes.
        for d in 1..counts.len() {
            counts[d] += counts[d - 1];
        }
        let offsets = counts;
        let total = *offsets.last().unwrap_or(&0) as usize;
        let mut next: Vec<u32> = offsets.clone();
        let (mut terms, mut tfs) = (vec![0u32; total], vec![0u32; total]);
        for term in 0..n_terms {
            index.postings(term).for_each(|p| {
                let at = &mut next[p.doc as usize];
                terms[*at as usize] = term;
                tfs[*at as usize] = p.tf;
                *at += 1;
            });
        }
        ForwardIndex {
            offsets,
            terms,
            tfs,
        }
    }

    /// Document `doc`'s `(term id, tf)` pairs (empty out of range).
    pub fn doc_terms(&self, doc: usize) -> impl Iterator<Item = (u32, u32)> + '_ {
        let range = match (self.offsets.get(doc), self.offsets.get(doc + 1)) {
            (Some(&s), Some(&e)) => s as usize..e as usize,
            _ => 0..0,
        };
        self.terms[range.clone()]
            .iter()
            .copied()
            .zip(self.tfs[range].iter().copied())
    }

    /// Heap bytes held by the arrays.
    pub fn heap_bytes(&self) -> usize {
        4 * (self.offsets.len() + self.terms.len() + self.tfs.len())
    }
}

/// The `n` best expansion terms from the `feedback` documents, best first.
///
/// A term's weight is its TF-IDF over the feedback set:
/// `w(t) = (Σ_{d ∈ feedback} tf(t, d)) · ln(N / df(t))`, with `tf` the raw
/// count in the document, `df` the number of documents in the corpus
/// containing `t` and `N` the corpus size. Terms in `exclude` (the query's
/// own) and terms with `w ≤ 0` (in every document) are never chosen. Ties
/// go to the smaller term id (first seen in the corpus). Feedback documents
/// out of range are ignored. `exclude` is hashed once: a pasted query can
/// have thousands of terms, and the feedback documents as many.
pub fn expansion_terms(
    index: &InvertedIndex,
    forward: &ForwardIndex,
    feedback: &[u32],
    n: usize,
    exclude: &[u32],
) -> Vec<u32> {
    let exclude: HashSet<u32> = exclude.iter().copied().collect();
    let mut summed: HashMap<u32, u64> = HashMap::new();
    for &doc in feedback {
        for (term, tf) in forward.doc_terms(doc as usize) {
            *summed.entry(term).or_insert(0) += u64::from(tf);
        }
    }
    let n_docs = index.n_docs() as f64;
    let mut weighted: Vec<(f64, u32)> = summed
        .into_iter()
        .filter(|(term, _)| !exclude.contains(term))
        .map(|(term, tf)| {
            let df = f64::from(index.doc_freqs()[term as usize]);
            (tf as f64 * (n_docs / df).ln(), term)
        })
        .filter(|&(w, _)| w > 0.0)
        .collect();
    weighted.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    weighted.into_iter().take(n).map(|(_, t)| t).collect()
}
