//! Cost of `nomos compare`'s statistics at the size: 10,000
//! permutations × 9 measures × 1,543 queries (STARD). Prints the best of
//! five runs; the values are synthetic, the cost does not depend on them.

use std::time::Instant;

use nomos_core::eval::significance::{compare, Settings};
use nomos_core::eval::{reported, Evaluation, QueryEvaluation};

const QUERIES: usize = 1_543;

fn evaluation(shift: f64) -> Evaluation {
    let measures = reported();
    let queries: Vec<QueryEvaluation> = (0..QUERIES)
        .map(|q| QueryEvaluation {
            query_id: format!("q{q}"),
            values: (0..measures.len())
                .map(|m| (((q * 31 + m * 7) % 101) as f64 / 100.0 + shift).min(1.0))
                .collect(),
        })
        .collect();
    let means = (0..measures.len())
        .map(|m| queries.iter().map(|q| q.values[m]).sum::<f64>() / QUERIES as f64)
        .collect();
    Evaluation {
        measures,
        queries,
        means,
    }
}

fn main() {
    let (a, b) = (evaluation(0.0), evaluation(0.01));
    let measures = reported();
    let best = (0..5)
        .map(|_| {
            let start = Instant::now();
            let c = compare(&a, &b, &measures, Settings::default()).expect("comparable");
            assert_eq!(c.measures.len(), 9);
            start.elapsed().as_secs_f64() * 1e3
        })
        .fold(f64::INFINITY, f64::min);
    println!("compare: 10000 permutations x 9 measures x {QUERIES} queries: {best:.1} ms");
}
