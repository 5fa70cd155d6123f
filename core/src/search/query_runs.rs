//! A query's tokens grouped as BM25 ranks them: each run of one token
//! repeated in a row is one pass over its postings, its contribution added
//! once per occurrence by [`add_repeated`](super::repeated_add), so that
//! `2 2 2 …` ten thousand times costs one pass, not ten thousand.
//!
//! The references add per occurrence in query order, and a document's sum
//! depends on that order, so only consecutive repeats are grouped:
//! `a b a` stays three passes. Where the query comes from outside (a
//! link, a model's reply), [`cap_runs`] bounds the passes.

/// Most runs a query from outside is ranked on: each is a pass over a
/// term's postings. A 3,000-word question has fewer; a link repeating two
/// words alternately would otherwise make 10,000.
pub const QUERY_RUNS_MAX: usize = 1_000;

/// Cuts `tokens` to their first [`QUERY_RUNS_MAX`] runs; whether it cut.
pub fn cap_runs(tokens: &mut Vec<String>) -> bool {
    let keep = runs_prefix(tokens, QUERY_RUNS_MAX);
    let cut = keep < tokens.len();
    tokens.truncate(keep);
    cut
}

/// `items` with each run of equal ones as one item and its count, in
/// order.
pub(crate) fn runs<T: PartialEq>(items: impl IntoIterator<Item = T>, out: &mut Vec<(T, u64)>) {
    for item in items {
        match out.last_mut() {
            Some((last, count)) if *last == item => *count += 1,
            _ => out.push((item, 1)),
        }
    }
}

/// How many of `tokens`, from the first, make at most `max_runs` runs:
/// the query to rank when ranking must cost at most `max_runs` passes
/// (fewer than `tokens.len()` means the query was cut).
fn runs_prefix<S: AsRef<str>>(tokens: &[S], max_runs: usize) -> usize {
    let mut n_runs = 0;
    for (i, token) in tokens.iter().enumerate() {
        if i == 0 || tokens[i - 1].as_ref() != token.as_ref() {
            if n_runs == max_runs {
                return i;
            }
            n_runs += 1;
        }
    }
    tokens.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consecutive_repeats_make_one_run() {
        let mut counts = Vec::new();
        runs(["a", "a", "b", "a", "a", "a"], &mut counts);
        assert_eq!(counts, [("a", 2), ("b", 1), ("a", 3)]);
    }

    #[test]
    fn the_prefix_ends_before_the_run_past_the_cap() {
        let tokens = ["a", "a", "b", "a", "a", "a"];
        assert_eq!(runs_prefix(&tokens, 0), 0);
        assert_eq!(runs_prefix(&tokens, 1), 2);
        assert_eq!(runs_prefix(&tokens, 2), 3);
        assert_eq!(runs_prefix(&tokens, 3), 6);
        assert_eq!(runs_prefix(&tokens, 9), 6);
        assert_eq!(runs_prefix(&vec!["2"; 10_000], 1), 10_000);
    }

    #[test]
    fn alternating_words_are_cut_to_the_most_runs() {
        let mut tokens: Vec<String> = (0..10_000).map(|i| (i % 2).to_string()).collect();
        assert!(cap_runs(&mut tokens));
        assert_eq!(tokens.len(), QUERY_RUNS_MAX);
        let mut repeated = vec!["2".to_owned(); 10_000];
        assert!(!cap_runs(&mut repeated));
        assert_eq!(repeated.len(), 10_000);
    }
}
