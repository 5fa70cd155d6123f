//! What an LLM method's run will cost, said before it runs: a link can
//! preset a run (method, parameters, how many queries), and the calls and
//! tokens it makes are paid at the user's endpoint. Calls are exact (a
//! retry after a reply that is not JSON aside); prompt tokens are
//! estimated from the prompts' UTF-8 bytes at the rate measured for their
//! language ([`bytes_per_token`]); reply tokens are the most the run's
//! `max_tokens` allows.

use super::ask::Settings;
use super::prompts::Prompts;
use crate::methods::Method;

/// UTF-8 bytes a prompt token holds on average, in hundredths, for a
/// prompt set's language (its version's `LANG/` prefix). Measured with
/// Qwen2.5's tokenizer (llama.cpp `/tokenize`, 40 texts each): 2.13 for
/// the Greek codes and 2.88 for the Danish acts. The other set's English
/// instructions are about four bytes a token, and STARD's Chinese 5.08;
/// four is kept for both. An estimate, not a bound: the context fit
/// ([`super::fit`]) assumes the densest text instead.
pub fn bytes_per_token(prompts: &Prompts) -> u64 {
    match prompts.version.split('/').next() {
        Some("el") => 213,
        Some("da") => 288,
        _ => 400,
    }
}

/// A run's cost before it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Estimate {
    /// Chat completions, retries aside.
    pub calls: u64,
    /// Prompt tokens, estimated.
    pub prompt_tokens: u64,
    /// Reply tokens at most (`calls` × the reply limit), when there is one.
    pub completion_tokens: Option<u64>,
}

impl Estimate {
    /// Both runs' cost together (A and B of a comparison).
    pub fn plus(self, other: Estimate) -> Estimate {
        Estimate {
            calls: self.calls + other.calls,
            prompt_tokens: self.prompt_tokens + other.prompt_tokens,
            completion_tokens: self
                .completion_tokens
                .zip(other.completion_tokens)
                .map(|(a, b)| a + b),
        }
    }
}

/// What ranking `queries` queries of `query_bytes` bytes in all with
/// `method` costs, `article_bytes` being an article's mean size (what an
/// observer reads of each candidate when `chars` is 0); `None` for a
/// method that asks no LLM.
pub fn estimate(
    method: &Method,
    prompts: &Prompts,
    settings: &Settings,
    queries: usize,
    query_bytes: u64,
    article_bytes: u64,
) -> Option<Estimate> {
    // Each call's system message and template; every template shows the
    // query once.
    let call = |system: &str, template: &str| (system.len() + template.len()) as u64;
    let sparse = call(prompts.system, prompts.sparse);
    let dense = call(prompts.system, prompts.dense);
    // Per query: calls, and the bytes of their prompts besides the query.
    let (calls, bytes) = match *method {
        Method::ReformSparse => (1, sparse),
        Method::ReformDense => (1, dense),
        Method::ReformHybrid { .. } => (2, sparse + dense),
        Method::ReactBm25 {
            rounds,
            candidates,
            chars,
        } => {
            let rounds = rounds as u64;
            // A shown candidate's text: `chars` characters of at most 4
            // bytes, or all of it.
            let shown = match chars {
                0 => article_bytes,
                n => article_bytes.min(4 * n as u64),
            };
            let observer = call(prompts.system, prompts.observer) + candidates as u64 * shown;
            let first = call(prompts.planner_system, prompts.planner_first);
            let next = call(prompts.planner_system, prompts.planner_next);
            (
                2 * rounds,
                first + rounds.saturating_sub(1) * next + rounds * observer,
            )
        }
        _ => return None,
    };
    let total = calls * queries as u64;
    let prompt_bytes = bytes * queries as u64 + calls * query_bytes;
    Some(Estimate {
        calls: total,
        prompt_tokens: (prompt_bytes * 100).div_ceil(bytes_per_token(prompts)),
        completion_tokens: settings.max_tokens.map(|m| total * u64::from(m)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::prompts::{GREEK, OTHER};

    fn react(rounds: usize, candidates: usize, chars: usize) -> Method {
        Method::ReactBm25 {
            rounds,
            candidates,
            chars,
        }
    }

    #[test]
    fn react_costs_two_calls_a_round_and_its_candidates_text() {
        let settings = Settings::default();
        // Five queries of 100 bytes each, articles of 5,000 bytes.
        let e = estimate(&react(3, 10, 300), &OTHER, &settings, 5, 500, 5_000).unwrap();
        assert_eq!(e.calls, 5 * 3 * 2);
        assert_eq!(e.completion_tokens, Some(30 * 1024));
        let templates = |s: &str, t: &str| (s.len() + t.len() + 100) as u64;
        let per_query = templates(OTHER.planner_system, OTHER.planner_first)
            + 2 * templates(OTHER.planner_system, OTHER.planner_next)
            + 3 * (templates(OTHER.system, OTHER.observer) + 10 * 1_200);
        assert_eq!(e.prompt_tokens, (5 * per_query).div_ceil(4));
        // Whole articles (chars 0) cost their size; short ones theirs.
        let whole = estimate(&react(3, 10, 0), &OTHER, &settings, 5, 500, 5_000).unwrap();
        let short = estimate(&react(3, 10, 300), &OTHER, &settings, 5, 500, 500).unwrap();
        assert!(whole.prompt_tokens > e.prompt_tokens);
        assert!(short.prompt_tokens < e.prompt_tokens);
    }

    #[test]
    fn greek_prompts_cost_about_twice_the_tokens_of_the_same_bytes_in_english() {
        let settings = Settings::default();
        let method = react(3, 10, 0);
        let greek = estimate(&method, &GREEK, &settings, 5, 500, 5_000).unwrap();
        let other = estimate(&method, &OTHER, &settings, 5, 500, 5_000).unwrap();
        // The candidates' 150,000 bytes dominate both prompts.
        let ratio = greek.prompt_tokens as f64 / other.prompt_tokens as f64;
        assert!((1.7..2.0).contains(&ratio), "{ratio}");
        assert_eq!(greek.calls, other.calls);
    }

    #[test]
    fn reformulations_cost_one_call_each_and_plain_methods_none() {
        let settings = Settings {
            max_tokens: None,
            ..Settings::default()
        };
        let sparse = estimate(&Method::ReformSparse, &OTHER, &settings, 7, 280, 0).unwrap();
        assert_eq!(sparse.calls, 7);
        let template = (OTHER.system.len() + OTHER.sparse.len()) as u64;
        assert_eq!(sparse.prompt_tokens, (7 * template + 280).div_ceil(4));
        assert_eq!(sparse.completion_tokens, None);
        let hybrid = Method::by_name("reform-hybrid").unwrap();
        assert_eq!(
            estimate(&hybrid, &OTHER, &settings, 7, 40, 0)
                .unwrap()
                .calls,
            14
        );
        for name in Method::NAMES {
            let plain = Method::by_name(name).unwrap();
            assert_eq!(
                estimate(&plain, &OTHER, &settings, 7, 40, 0),
                None,
                "{name}"
            );
        }
    }
}
