//! Fusing rankings: reciprocal rank fusion and min-max score fusion.
//! Each input list is a ranking, best first; the output holds every
//! document of any list, in ranking order (score descending, ties by
//! document id). Per-document sums run over the lists in the order given.

use std::collections::HashMap;

use super::spec::Method;
use crate::hits::{sort_hits, Hit};

/// A hybrid method's last step: fuses its BM25 ranking and its dense
/// ranking (each the top `depth` of its list, see [`Method::hybrid`]) as
/// the method says and keeps the best `k`; `None` for a method that is
/// not a fusion of the two. One place, so a blob and a fragmented pool
/// fuse alike.
pub fn fuse_hybrid(
    method: &Method,
    lexical: &[Hit],
    semantic: &[Hit],
    k: usize,
) -> Option<Vec<Hit>> {
    let mut fused = match *method {
        Method::Rrf { k: rrf_k, .. } => rrf(&[lexical, semantic], rrf_k),
        Method::Weighted { w, .. } => weighted_fusion(&[(lexical, 1.0 - w), (semantic, w)]),
        _ => return None,
    };
    fused.truncate(k);
    Some(fused)
}

/// Reciprocal rank fusion (Cormack et al., 2009):
/// `score(d) = Σ_lists 1 / (k + rank(d))`, ranks counted from 1; a list
/// that lacks `d` adds nothing.
pub fn rrf(lists: &[&[Hit]], k: f64) -> Vec<Hit> {
    fuse(lists.iter().map(|list| {
        list.iter()
            .zip(1u32..)
            .map(|(hit, rank)| (hit.doc, 1.0 / (k + f64::from(rank))))
    }))
}

/// Weighted score fusion: `score(d) = Σ_lists weight · norm(d)`, where
/// `norm` is min-max normalisation within the list,
/// `(s − min) / (max − min)`, so each list's best document gets 1 and its
/// last 0 (every document gets 1 when all scores are equal). A list that
/// lacks `d` adds nothing, the same as its last document.
pub fn weighted_fusion(lists: &[(&[Hit], f64)]) -> Vec<Hit> {
    fuse(lists.iter().map(|&(list, weight)| {
        let min = list.iter().map(|h| h.score).fold(f64::INFINITY, f64::min);
        let max = list
            .iter()
            .map(|h| h.score)
            .fold(f64::NEG_INFINITY, f64::max);
        let span = max - min;
        list.iter().map(move |h| {
            let norm = if span > 0.0 {
                (h.score - min) / span
            } else {
                1.0
            };
            (h.doc, weight * norm)
        })
    }))
}

fn fuse<L, I>(lists: L) -> Vec<Hit>
where
    L: Iterator<Item = I>,
    I: Iterator<Item = (u32, f64)>,
{
    let mut scores: HashMap<u32, f64> = HashMap::new();
    for list in lists {
        for (doc, contribution) in list {
            *scores.entry(doc).or_insert(0.0) += contribution;
        }
    }
    let mut hits: Vec<Hit> = scores
        .into_iter()
        .map(|(doc, score)| Hit { doc, score })
        .collect();
    let n = hits.len();
    sort_hits(&mut hits, n);
    hits
}
