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

use crate::hits::{sort_hits, top_k_into, top_k_positive_among, Hit};

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
/// them (others score 0); `None` reads every score.
///
/// Only what can reach the top is computed. Documents are visited in
/// descending BM25 order (the best `2k`, then the best `4k`, …, selected
/// as BM25 selects its top); each, and each document it lifts, gets its exact
/// propagated score from its own neighbours. A document not visited yet
/// scores at most `s + share·s` for the next BM25 score `s` (its own score
/// and its best neighbour's are both at most `s`, or it would have been
/// visited), so the walk stops once that falls below the k-th best found.
/// IEEE rounding is monotone, so the bound holds for the computed scores.
/// Where fewer than `k` documents score above 0 and zeros are wanted
/// (`positive_only` off), every document's score is computed.
pub(crate) fn rank(
    graph: &Graph,
    dir: Direction,
    share: f64,
    scores: &[f64],
    scored: Option<&[u32]>,
    k: usize,
    positive_only: bool,
) -> Vec<Hit> {
    let mut walk = Walk {
        graph,
        dir,
        share,
        scores,
        seen: vec![0u64; scores.len().div_ceil(64)],
        found: Vec::new(),
    };
    // The best `take` BM25 scores, best first, `take` doubling until the
    // walk stops or they run out.
    let (mut top, mut done, mut take) = (Vec::new(), 0, k.max(1).saturating_mul(2));
    'walk: loop {
        match scored {
            Some(docs) => top_k_positive_among(docs, scores, take, &mut top),
            None => top_k_into(scores, take, true, &mut top),
        }
        // The k-th best found so far: a bound that only rises as the walk
        // goes on, so a stale one stops the walk later, never wrongly.
        let kth = match walk.found.len() >= k && k > 0 {
            true => {
                let mut best = walk.found.clone();
                sort_hits(&mut best, k);
                Some(best[k - 1].score)
            }
            false => None,
        };
        for next in &top[done..] {
            if kth.is_some_and(|t| next.score + share * next.score < t) {
                break 'walk;
            }
            walk.visit(next.doc);
            for &d in lifted_by(graph, dir, next.doc) {
                walk.visit(d);
            }
        }
        if top.len() < take {
            break;
        }
        done = top.len();
        take = take.saturating_mul(2);
    }
    let mut hits = walk.found;
    if !positive_only && hits.len() < k.min(scores.len()) {
        let total: Vec<f64> = (0..scores.len())
            .map(|doc| propagated(graph, dir, share, scores, doc))
            .collect();
        top_k_into(&total, k, false, &mut hits);
        return hits;
    }
    sort_hits(&mut hits, k);
    hits
}

/// Document `doc`'s propagated score: its own plus `share` times its best
/// positive neighbour's, where it has one.
fn propagated(graph: &Graph, dir: Direction, share: f64, scores: &[f64], doc: usize) -> f64 {
    let (out, inc) = (graph.out.of(doc), graph.inc.of(doc));
    let neighbours: &[&[u32]] = match dir {
        Direction::Out => &[out],
        Direction::In => &[inc],
        Direction::Both => &[out, inc],
    };
    let best = neighbours
        .iter()
        .flat_map(|list| list.iter())
        .map(|&n| scores[n as usize])
        .filter(|&s| s > 0.0)
        .reduce(f64::max);
    match best {
        Some(best) => scores[doc] + share * best,
        None => scores[doc],
    }
}

/// The state of [`rank`]'s walk down the BM25 scores.
struct Walk<'a> {
    graph: &'a Graph,
    dir: Direction,
    share: f64,
    scores: &'a [f64],
    /// One bit a document: its propagated score is computed.
    seen: Vec<u64>,
    /// The documents visited whose propagated score is above 0.
    found: Vec<Hit>,
}

impl Walk<'_> {
    /// Computes `doc`'s propagated score, once.
    fn visit(&mut self, doc: u32) {
        let (word, bit) = (doc as usize / 64, 1u64 << (doc % 64));
        if self.seen[word] & bit != 0 {
            return;
        }
        self.seen[word] |= bit;
        let score = propagated(self.graph, self.dir, self.share, self.scores, doc as usize);
        if score > 0.0 {
            self.found.push(Hit { doc, score });
        }
    }
}

/// The documents whose neighbours include `n`: those `n`'s score can lift.
fn lifted_by(graph: &Graph, dir: Direction, n: u32) -> impl Iterator<Item = &u32> {
    let (out, inc) = (graph.out.of(n as usize), graph.inc.of(n as usize));
    let (first, second): (&[u32], &[u32]) = match dir {
        Direction::Out => (inc, &[]),
        Direction::In => (out, &[]),
        Direction::Both => (inc, out),
    };
    first.iter().chain(second)
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

    /// The walk that stops early ranks as scoring every document does, on
    /// random graphs and scores with ties, for every direction, share and
    /// depth.
    #[test]
    fn the_pruned_walk_ranks_as_scoring_every_document() {
        let mut state = 7u64;
        let mut next = |n: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % n
        };
        for round in 0..300 {
            let n = 1 + next(60) as usize;
            let edges: Vec<(u32, u32)> = (0..next(4 * n as u64 + 1))
                .map(|_| (next(n as u64) as u32, next(n as u64) as u32))
                .collect();
            let Some(graph) = Graph::new(n, |d| {
                edges
                    .iter()
                    .filter(|e| e.0 as usize == d)
                    .map(|e| e.1)
                    .collect()
            }) else {
                continue;
            };
            // Few distinct values, so ties are common; some negative.
            let scores: Vec<f64> = (0..n)
                .map(|_| match next(3) {
                    0 => 0.0,
                    _ => next(8) as f64 * 0.5 - 0.5,
                })
                .collect();
            let scored: Vec<u32> = (0..n as u32)
                .filter(|&d| scores[d as usize] != 0.0)
                .collect();
            for dir in Direction::ALL {
                for share in [0.0, 0.3, 1.0, 2.5] {
                    let best = |d: usize| {
                        edges
                            .iter()
                            .filter_map(|&(a, b)| match dir {
                                Direction::Out if a as usize == d => Some(b),
                                Direction::In if b as usize == d => Some(a),
                                Direction::Both if a as usize == d => Some(b),
                                Direction::Both if b as usize == d => Some(a),
                                _ => None,
                            })
                            .map(|m| scores[m as usize])
                            .filter(|&s| s > 0.0)
                            .reduce(f64::max)
                    };
                    let total: Vec<f64> = (0..n)
                        .map(|d| best(d).map_or(scores[d], |b| scores[d] + share * b))
                        .collect();
                    for k in [1, 3, 10, 100] {
                        for positive_only in [true, false] {
                            let mut expected = Vec::new();
                            top_k_into(&total, k, positive_only, &mut expected);
                            for listed in [None, Some(&scored[..])] {
                                let got =
                                    rank(&graph, dir, share, &scores, listed, k, positive_only);
                                assert_eq!(got, expected, "round {round} {dir:?} {share} {k}");
                            }
                        }
                    }
                }
            }
        }
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
