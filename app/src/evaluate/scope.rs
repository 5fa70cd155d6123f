//! Which queries a job ranks. All of the benchmark's, as `nomos eval`
//! does, unless the job or the result it is compared with uses an LLM
//! method: then the first N (the user's limit), because a small model
//! takes minutes per query. A comparison only means something on the
//! same queries, so when B is run alone against an A that ranked another
//! number of queries, A is ranked again with B.

use crate::eval_config::{Config, Slot};

/// The job to run, and how many of the first queries it ranks.
/// `current` is A's result, if there is one: its configuration and how
/// many queries it ranked.
pub fn plan(
    mut targets: Vec<(Slot, Config)>,
    current: Option<(Config, usize)>,
    limit: usize,
    total: usize,
) -> (Vec<(Slot, Config)>, usize) {
    let has_a = targets.iter().any(|(slot, _)| *slot == Slot::Current);
    let llm = targets.iter().any(|(_, c)| c.method.needs_llm())
        || (!has_a && current.is_some_and(|(a, _)| a.method.needs_llm()));
    let n = match llm {
        true => limit.clamp(1, total.max(1)).min(total),
        false => total,
    };
    if let (false, Some((a, ranked))) = (has_a, current) {
        if ranked != n {
            targets.insert(0, (Slot::Current, a));
        }
    }
    (targets, n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nomos_core::search::Bm25Params;

    fn config(method: &str) -> Config {
        Config {
            method: method.parse().unwrap(),
            params: Bm25Params::default(),
            field: nomos_core::blob::Field::Text,
        }
    }

    #[test]
    fn llm_jobs_rank_the_first_n_and_comparisons_share_their_queries() {
        let (react, bm25) = (config("react-bm25"), config("bm25"));
        let a = |c: Config| vec![(Slot::Current, c)];
        let b = |c: Config| vec![(Slot::Compared, c)];
        assert_eq!(plan(a(bm25), None, 10, 1543), (a(bm25), 1543));
        assert_eq!(plan(a(react), None, 10, 1543), (a(react), 10));
        assert_eq!(plan(a(react), None, 5000, 1543).1, 1543);
        // B = BM25 against A = ReAct on 10: B follows A's 10.
        assert_eq!(plan(b(bm25), Some((react, 10)), 10, 1543), (b(bm25), 10));
        // B = ReAct against A = BM25 on all: A is ranked again on 10.
        let (job, n) = plan(b(react), Some((bm25, 1543)), 10, 1543);
        assert_eq!(
            (job, n),
            (vec![(Slot::Current, bm25), (Slot::Compared, react)], 10)
        );
        // Plain methods against plain results: all, nothing re-ranked.
        assert_eq!(plan(b(bm25), Some((bm25, 1543)), 10, 1543), (b(bm25), 1543));
        // The limit changed since A ranked: A is ranked again.
        assert_eq!(plan(b(bm25), Some((react, 10)), 20, 1543).0.len(), 2);
    }
}
