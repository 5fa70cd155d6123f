//! Native BM25 query throughput, the Rust half of
//! `bench/bm25_vs_reference.py`.
//!
//! The script tokenises a corpus and its queries once (with `nomos analyze`)
//! and writes them to a token file, so that this bench, rank_bm25 and bm25s
//! all see identical tokens. Here we build the index, warm up, then time
//! top-100 retrieval ([`Bm25Scorer::search_into`]: scoring the query's
//! postings, then selecting among the documents they touched) for all
//! queries under both variants, several times, and print one JSON line on
//! stdout: median queries per second, build times, and the top-10 ids of the
//! first few queries for the script's sanity check against the references.
//!
//! Run it through the script (see README.md), or directly:
//! `cargo bench -p nomos-core --bench bm25 -- <token file> [--reps=N] [--build-reps=N] [--check=N]`
//! (or set `NOMOS_BENCH_TOKENS`). Without a token file it only says how to
//! run, and exits successfully, so `cargo test --all-targets` is unaffected.
//!
//! Token file: a line `nomos-bm25-tokens v1`, a line `<n_docs> <n_queries>`,
//! then one line per document and one per query, tokens separated by single
//! spaces (an empty line is an empty token list).

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use nomos_core::hits::{top_k_into, Hit};
use nomos_core::index::InvertedIndex;
use nomos_core::search::{Accumulator, Bm25Params, Bm25Scorer, Bm25Variant};
use serde_json::json;

/// Hits retrieved per query, as in the references' runs.
const K: usize = 100;
/// Ids reported per checked query.
const CHECK_TOP: usize = 10;
const HEADER: &str = "nomos-bm25-tokens v1";

struct Options {
    tokens: Option<String>,
    /// Timed passes over all queries (after one warm-up pass).
    reps: usize,
    /// Timed index builds (median reported).
    build_reps: usize,
    /// Number of leading queries whose top-10 ids are reported.
    check: usize,
}

fn main() -> ExitCode {
    let options = match parse_args() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("bm25 bench: {message}");
            return ExitCode::FAILURE;
        }
    };
    let Some(path) = options.tokens.clone() else {
        eprintln!(
            "bm25 bench: no token file given, nothing to measure.\n\
             Run the side-by-side comparison with the reference venv:\n  \
             .venv-ref/bin/python bench/bm25_vs_reference.py\n\
             or give a token file it wrote (its --tokens-out PATH):\n  \
             cargo bench -p nomos-core --bench bm25 -- <token file>"
        );
        return ExitCode::SUCCESS;
    };
    match run(&path, &options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("bm25 bench: {path}: {message}");
            ExitCode::FAILURE
        }
    }
}

fn parse_args() -> Result<Options, String> {
    let mut options = Options {
        tokens: std::env::var("NOMOS_BENCH_TOKENS").ok(),
        reps: 15,
        build_reps: 5,
        check: 50,
    };
    let number = |value: &str, name: &str| {
        value
            .parse::<usize>()
            .map_err(|_| format!("{name} expects a number, got {value:?}"))
    };
    for arg in std::env::args().skip(1) {
        if let Some(v) = arg.strip_prefix("--reps=") {
            options.reps = number(v, "--reps")?.max(1);
        } else if let Some(v) = arg.strip_prefix("--build-reps=") {
            options.build_reps = number(v, "--build-reps")?.max(1);
        } else if let Some(v) = arg.strip_prefix("--check=") {
            options.check = number(v, "--check")?;
        } else if arg == "--bench" {
            // Added by `cargo bench` to every bench binary.
        } else if arg.starts_with("--") {
            return Err(format!("unknown option {arg}"));
        } else {
            options.tokens = Some(arg);
        }
    }
    Ok(options)
}

fn run(path: &str, options: &Options) -> Result<(), String> {
    let Options {
        reps,
        build_reps,
        check,
        ..
    } = *options;
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let (docs, queries) = parse_tokens(&text)?;

    let index = InvertedIndex::build(&docs).map_err(|e| e.to_string())?;
    let n_tokens: usize = docs.iter().map(Vec::len).sum();
    let mut report = json!({
        "system": "nomos",
        "docs": index.n_docs(),
        "tokens": n_tokens,
        "vocabulary": index.n_terms(),
        "queries": queries.len(),
        "query_tokens": queries.iter().map(Vec::len).sum::<usize>(),
        "k": K,
        "reps": reps,
        "variants": {},
    });
    // Documents each query scores (a property of the queries, the same for
    // both variants): what selection looks at.
    let mut touched = 0usize;

    for variant in [Bm25Variant::Okapi, Bm25Variant::Lucene] {
        let params = Bm25Params::new(variant);
        // Build = index the token lists + precompute the scorer's tables,
        // which is what the references do in their constructors.
        let build_s = median(&timed(build_reps, || {
            let index = InvertedIndex::build(&docs).expect("indexed once already");
            black_box(Bm25Scorer::new(index, params).expect("default parameters"));
        }));
        let scorer = Bm25Scorer::new(index.clone(), params).map_err(|e| e.to_string())?;

        let mut scores = Accumulator::new();
        let mut hits: Vec<Hit> = Vec::new();
        let mut pass = || {
            for query in &queries {
                scorer.search_into(query, K, false, &mut scores, &mut hits);
                black_box(&hits);
            }
        };
        pass(); // warm-up: caches, allocator, branch predictors
        let seconds = median(&timed(reps, pass));
        // The previous path, for comparison: every document's score, then
        // selection over all of them.
        let mut dense = Vec::new();
        let dense_seconds = median(&timed(reps, || {
            for query in &queries {
                scorer.score_into(query, &mut dense);
                top_k_into(&dense, K, false, &mut hits);
                black_box(&hits);
            }
        }));
        touched = queries
            .iter()
            .map(|q| scorer.scores(q).iter().filter(|&&s| s != 0.0).count())
            .sum();

        let top10: Vec<Vec<u32>> = queries
            .iter()
            .take(check)
            .map(|q| {
                scorer
                    .search(q, CHECK_TOP, false)
                    .iter()
                    .map(|h| h.doc)
                    .collect()
            })
            .collect();
        let qps = queries.len() as f64 / seconds;
        eprintln!(
            "nomos {variant}: {qps:.0} queries/s (median of {reps} passes over {} queries), build {:.1} ms",
            queries.len(),
            build_s * 1e3
        );
        report["variants"][variant.name()] = json!({
            "qps": qps,
            "all_docs_qps": queries.len() as f64 / dense_seconds,
            "seconds_per_pass": seconds,
            "build_seconds": build_s,
            "top10": top10,
        });
    }
    report["touched_per_query"] = json!(touched as f64 / queries.len().max(1) as f64);
    println!("{report}");
    Ok(())
}

type Tokens<'a> = Vec<Vec<&'a str>>;

fn parse_tokens(text: &str) -> Result<(Tokens<'_>, Tokens<'_>), String> {
    let mut lines = text.lines();
    if lines.next() != Some(HEADER) {
        return Err(format!("not a token file (first line must be {HEADER:?})"));
    }
    let counts = lines.next().unwrap_or_default();
    let (n_docs, n_queries) = counts
        .split_once(' ')
        .and_then(|(d, q)| Some((d.parse::<usize>().ok()?, q.parse::<usize>().ok()?)))
        .ok_or_else(|| format!("bad counts line {counts:?}"))?;
    let docs = take_lines(&mut lines, n_docs, "document")?;
    let queries = take_lines(&mut lines, n_queries, "query")?;
    Ok((docs, queries))
}

/// The next `n` lines as token lists.
fn take_lines<'a>(
    lines: &mut std::str::Lines<'a>,
    n: usize,
    what: &str,
) -> Result<Tokens<'a>, String> {
    let list: Tokens<'a> = lines
        .take(n)
        .map(|line| line.split(' ').filter(|t| !t.is_empty()).collect())
        .collect();
    if list.len() == n {
        Ok(list)
    } else {
        Err(format!("expected {n} {what} lines, found {}", list.len()))
    }
}

/// Wall-clock seconds of `reps` runs of `f`.
fn timed(reps: usize, mut f: impl FnMut()) -> Vec<f64> {
    (0..reps)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64()
        })
        .collect()
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[sorted.len() / 2]
}
