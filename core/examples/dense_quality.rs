//! What quantising document vectors costs: top-k overlap of the int8 and
//! the binary-first-pass (+ int8 rescoring) rankings with exact f32 cosine
//! ranking, and how long each takes per query (brute force, one thread).
//!
//! ```sh
//! nomos build --format stard data/stard -o /tmp/stard.blob \
//!     --embed models/e5-small --vectors-out /tmp/stard.f32
//! nomos model embed --model models/e5-small < queries.txt > /tmp/stard.q.jsonl
//! cargo run --release -p nomos-core --example dense_quality -- /tmp/stard.f32 /tmp/stard.q.jsonl
//! ```
//!
//! Prints a Markdown table: per method the mean overlap |top-k ∩ exact
//! top-k| / k (k = 100 by default, `--k N`) and the median time per query.

use std::time::Instant;

use nomos_core::dense::DenseIndex;
use nomos_core::hits::{top_k_into, Hit};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (paths, k) = match args.as_slice() {
        [docs, queries] => ([docs, queries], 100),
        [docs, queries, flag, k] if flag == "--k" => ([docs, queries], k.parse()?),
        _ => return Err("usage: dense_quality DOCS.f32 QUERIES.jsonl [--k N]".into()),
    };
    let queries: Vec<Vec<f32>> = std::fs::read_to_string(paths[1])?
        .lines()
        .map(serde_json::from_str)
        .collect::<Result<_, _>>()?;
    let dim = queries.first().ok_or("no queries")?.len();
    let bytes = std::fs::read(paths[0])?;
    if dim == 0 || bytes.len() % (4 * dim) != 0 {
        return Err(format!("{} is not n × {dim} f32 values", paths[0]).into());
    }
    let docs: Vec<f32> = bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    let n = docs.len() / dim;
    let k = k.min(n);
    let index = DenseIndex::build(&docs, dim)?;

    let exact = |q: &[f32]| {
        let scores: Vec<f64> = docs
            .chunks_exact(dim)
            .map(|d| {
                d.iter()
                    .zip(q)
                    .map(|(&x, &y)| f64::from(x) * f64::from(y))
                    .sum()
            })
            .collect();
        let mut hits = Vec::new();
        top_k_into(&scores, k, false, &mut hits);
        hits
    };
    let truth: Vec<Vec<Hit>> = queries.iter().map(|q| exact(q)).collect();

    println!(
        "{n} documents × {dim}, {} queries, k = {k}\n",
        queries.len()
    );
    println!("| ranking | overlap@{k} with f32, mean / min | time per query, median |");
    println!("|---|---:|---:|");
    report("f32 exact (f64 sums)", &queries, &truth, k, |q| {
        Ok::<_, nomos_core::dense::DenseError>(exact(q))
    })?;
    report("int8 brute force", &queries, &truth, k, |q| {
        index.search(q, k)
    })?;
    for factor in [1, 2, 5, 10, 20] {
        let candidates = k * factor;
        if candidates > n && factor > 1 {
            break;
        }
        let name = format!("binary, {candidates} candidates, int8 rescored");
        report(&name, &queries, &truth, k, |q| {
            index.search_binary(q, k, candidates)
        })?;
    }
    Ok(())
}

/// One table row: overlap with `truth` and the median time of `rank`.
fn report<E: std::error::Error + 'static>(
    name: &str,
    queries: &[Vec<f32>],
    truth: &[Vec<Hit>],
    k: usize,
    rank: impl Fn(&[f32]) -> Result<Vec<Hit>, E>,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut overlaps = Vec::with_capacity(queries.len());
    let mut times = Vec::with_capacity(queries.len());
    for (q, want) in queries.iter().zip(truth) {
        let started = Instant::now();
        let got = rank(q)?;
        times.push(started.elapsed().as_secs_f64() * 1e3);
        let shared = got
            .iter()
            .filter(|h| want.iter().any(|w| w.doc == h.doc))
            .count();
        overlaps.push(shared as f64 / k as f64);
    }
    times.sort_by(f64::total_cmp);
    let mean = overlaps.iter().sum::<f64>() / overlaps.len() as f64;
    let min = overlaps.iter().copied().fold(f64::INFINITY, f64::min);
    println!(
        "| {name} | {mean:.4} / {min:.2} | {:.2} ms |",
        times[times.len() / 2]
    );
    Ok(())
}
