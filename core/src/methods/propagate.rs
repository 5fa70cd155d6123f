//! Score propagation along the pool's graph (issue #37): a stykke rises
//! with the provisions it cites or whose defined terms it uses, which is
//! where a query built from its context points. With BM25's score `s`,
//!
//! `s'(d) = s(d) + share · max(0, max_{n ∈ N(d)} s(n))`
//!
//! where `N(d)` is what `d` points to (`out`), what points to `d` (`in`),
//! or both. The edges are the blob's citations and its definition edges
//! ([`Graph`]); the reverse lists are derived once at load rather than
//! stored, which would grow the blob for data the forward lists hold. A
//! query costs its BM25 ranking plus one pass over the edges of the
//! documents it scored.

use crate::hits::{top_k_into, top_k_positive_among, Hit};

/// Which neighbours' scores a document gains from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// What it cites (and the stykker defining the terms it uses).
    Out,
    /// What cites it (and the stykker using the terms it defines).
    In,
    /// Both.
    Both,
}

impl Direction {
    /// Every direction, in the order a picker lists them.
    pub const ALL: [Direction; 3] = [Direction::Out, Direction::In, Direction::Both];

    /// The name in a method string (`dir=out`).
    pub fn name(self) -> &'static str {
        match self {
            Direction::Out => "out",
            Direction::In => "in",
            Direction::Both => "both",
        }
    }

    /// The direction called `name`.
    pub fn by_name(name: &str) -> Option<Direction> {
        Direction::ALL.into_iter().find(|d| d.name() == name)
    }
}

/// A pool's edges both ways, in CSR form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Graph {
    out: Adjacency,
    inc: Adjacency,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Adjacency {
    /// Document `d`'s neighbours are `targets[offsets[d]..offsets[d + 1]]`.
    offsets: Vec<u32>,
    targets: Vec<u32>,
}

impl Adjacency {
    fn of(&self, doc: usize) -> &[u32] {
        &self.targets[self.offsets[doc] as usize..self.offsets[doc + 1] as usize]
    }
}

impl Graph {
    /// The graph whose document `d` points to `out(d)`, over `n_docs`
    /// documents; `None` when there is no edge, or a target or the edge
    /// count is out of range (a blob's lists were checked at load).
    pub fn new(n_docs: usize, out: impl Fn(usize) -> Vec<u32>) -> Option<Graph> {
        let mut offsets = vec![0u32];
        let mut targets = Vec::new();
        let mut counts = vec![0u32; n_docs + 1];
        for d in 0..n_docs {
            let mut list = out(d);
            list.sort_unstable();
            list.dedup();
            for &t in &list {
                *counts
                    .get_mut(t as usize + 1)
                    .filter(|_| (t as usize) < n_docs)? += 1;
            }
            targets.extend(list);
            offsets.push(u32::try_from(targets.len()).ok()?);
        }
        if targets.is_empty() {
            return None;
        }
        for d in 1..counts.len() {
            counts[d] += counts[d - 1];
        }
        let mut next = counts.clone();
        let mut reverse = vec![0u32; targets.len()];
        for d in 0..n_docs {
            for &t in &targets[offsets[d] as usize..offsets[d + 1] as usize] {
                reverse[next[t as usize] as usize] = d as u32;
                next[t as usize] += 1;
            }
        }
        Some(Graph {
            out: Adjacency { offsets, targets },
            inc: Adjacency {
                offsets: counts,
                targets: reverse,
            },
        })
    }

    /// How many documents the graph covers.
    pub fn n_docs(&self) -> usize {
        self.out.offsets.len() - 1
    }

    /// How many edges.
    pub fn n_edges(&self) -> usize {
        self.out.targets.len()
    }

    /// What document `doc` points to (`dir=out`'s neighbours), ascending;
    /// empty out of range.
    pub fn points_to(&self, doc: usize) -> &[u32] {
        match doc < self.n_docs() {
            true => self.out.of(doc),
            false => &[],
        }
    }

    /// Heap bytes of both directions' lists.
    pub fn heap_bytes(&self) -> usize {
        4 * (self.out.offsets.len()
            + self.out.targets.len()
            + self.inc.offsets.len()
            + self.inc.targets.len())
    }
}

/// The best `k` documents by the propagated scores of `scores` (BM25's,
/// by document id, as many as the graph has documents), ties in corpus
/// order. `scored` lists the documents with a score where the caller knows
/// them (others score 0): selection then looks only at them and at the
/// documents they lift, as BM25's does (see
/// [`crate::search::Accumulator`]); `None` reads every score.
pub(crate) fn rank(
    graph: &Graph,
    dir: Direction,
    share: f64,
    scores: &[f64],
    scored: Option<&[u32]>,
    k: usize,
    positive_only: bool,
) -> Vec<Hit> {
    // The best positive neighbour score of each document reached (0: none).
    let mut best = vec![0.0f64; scores.len()];
    let mut reached: Vec<u32> = Vec::new();
    let mut push = |from: usize, lists: &Adjacency| {
        let s = scores[from];
        for &d in lists.of(from) {
            let b = &mut best[d as usize];
            if *b == 0.0 {
                reached.push(d);
            }
            *b = b.max(s);
        }
    };
    let mut lift = |n: usize| {
        if scores[n] <= 0.0 {
            return;
        }
        // `d` gains from the `n` it points to: push along the edges into `n`.
        if matches!(dir, Direction::Out | Direction::Both) {
            push(n, &graph.inc);
        }
        if matches!(dir, Direction::In | Direction::Both) {
            push(n, &graph.out);
        }
    };
    match scored {
        Some(docs) => docs.iter().for_each(|&n| lift(n as usize)),
        None => (0..scores.len()).for_each(&mut lift),
    }
    let mut total = scores.to_vec();
    for &d in &reached {
        let d = d as usize;
        total[d] = scores[d] + share * best[d];
    }
    let mut hits = Vec::new();
    match scored {
        Some(docs) => {
            let mut candidates: Vec<u32> = docs.iter().copied().chain(reached).collect();
            candidates.sort_unstable();
            candidates.dedup();
            top_k_positive_among(&candidates, &total, k, &mut hits);
            if !positive_only && hits.len() < k.min(total.len()) {
                top_k_into(&total, k, false, &mut hits);
            }
        }
        None => top_k_into(&total, k, positive_only, &mut hits),
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 0 → 1, 0 → 2, 3 → 1 (`a → b`: `a` cites `b`); 4 has no edge.
    fn graph() -> Graph {
        let out = [vec![2, 1, 2], vec![], vec![], vec![1], vec![]];
        Graph::new(5, |d| out[d].clone()).unwrap()
    }

    fn ranked(dir: Direction, share: f64, scores: &[f64]) -> Vec<(u32, f64)> {
        let all = rank(&graph(), dir, share, scores, None, 10, true);
        let listed: Vec<u32> = (0..scores.len() as u32)
            .filter(|&d| scores[d as usize] != 0.0)
            .collect();
        let some = rank(&graph(), dir, share, scores, Some(&listed), 10, true);
        assert_eq!(all, some, "the listed documents are those scored");
        all.iter().map(|h| (h.doc, h.score)).collect()
    }

    #[test]
    fn reverse_lists_are_derived_and_repeats_dropped() {
        let g = graph();
        assert_eq!((g.n_docs(), g.n_edges()), (5, 3));
        assert_eq!(g.out.of(0), [1, 2]);
        assert_eq!(g.inc.of(1), [0, 3]);
        assert_eq!(g.inc.of(2), [0]);
        assert!(g.inc.of(0).is_empty());
        assert_eq!(g.heap_bytes(), 4 * (6 + 3 + 6 + 3));
        assert!(Graph::new(3, |_| vec![]).is_none(), "no edge, no graph");
        assert!(Graph::new(2, |_| vec![2]).is_none(), "target out of range");
    }

    #[test]
    fn out_adds_the_best_cited_score() {
        // BM25: doc 1 = 2, doc 2 = 4, doc 4 = 1.
        let s = [0.0, 2.0, 4.0, 0.0, 1.0];
        // 0 cites 1 and 2: 0 + 0.5 · max(2, 4) = 2; 3 cites 1: 0.5 · 2 = 1.
        // 1, 2, 4 cite nothing.
        assert_eq!(
            ranked(Direction::Out, 0.5, &s),
            [(2, 4.0), (0, 2.0), (1, 2.0), (3, 1.0), (4, 1.0)]
        );
    }

    #[test]
    fn in_adds_the_best_citing_score() {
        // Doc 0 = 3, doc 3 = 5, doc 2 = 1.
        let s = [3.0, 0.0, 1.0, 5.0, 0.0];
        // 1 is cited by 0 and 3: 0 + 0.2 · 5 = 1; 2 by 0: 1 + 0.2 · 3 = 1.6.
        let got = ranked(Direction::In, 0.2, &s);
        assert_eq!(got.iter().map(|h| h.0).collect::<Vec<_>>(), [3, 0, 2, 1]);
        assert_eq!(got[2].1, 1.0 + 0.2 * 3.0);
        assert_eq!(got[3].1, 0.2 * 5.0);
    }

    #[test]
    fn both_takes_the_best_of_either_side_once() {
        let s = [3.0, 0.0, 1.0, 5.0, 0.0];
        // 0: cites 1 (0), 2 (1), cited by none → 3 + 1 = 4; 1: cited by 0
        // and 3 → 5; 2: cited by 0 → 1 + 3 = 4; 3: cites 1 (0) → 5.
        assert_eq!(
            ranked(Direction::Both, 1.0, &s),
            [(1, 5.0), (3, 5.0), (0, 4.0), (2, 4.0)]
        );
        // Share 0 is BM25.
        assert_eq!(
            ranked(Direction::Both, 0.0, &s),
            [(3, 5.0), (0, 3.0), (2, 1.0)]
        );
    }
}
