//! How far a query's postings are from the least that exact BM25 can
//! fetch. For each term of each query: its postings fragment's bytes as
//! stored and as brotli (quality 11) serves them (with any other terms
//! the fragment holds); the term's own values as the fragment lays them
//! out (`(gap, tf)` varint pairs, then a varint length per posting) and
//! as three separate varint streams, each brotli-compressed; and the
//! order-0 entropy of each value (the document gap, the term frequency,
//! the document's length), each coded on its own with its own histogram.
//! If brotli is already near that entropy, no other coding of the same
//! values will shrink a frequent term's fragment much; only fetching
//! fewer values would.
//!
//! ```sh
//! cargo run --release -p nomos-index-builder --example postings_entropy -- DIR QUERY...
//! ```
//!
//! One line of JSON per term; entropies in bytes.

use std::collections::{BTreeSet, HashMap};
use std::error::Error;
use std::io::Write;
use std::path::Path;

use nomos_core::blob::Field;
use nomos_core::fragments::Meta;
use nomos_core::index::varint;
use serde_json::json;

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, queries @ ..] = args.as_slice() else {
        return Err("usage: postings_entropy DIR QUERY...".into());
    };
    let dir = Path::new(dir);
    let meta = Meta::load(&std::fs::read(dir.join("meta"))?)?;
    for query in queries {
        let tokens = meta.analyzer().tokens(query);
        let distinct: BTreeSet<&str> = tokens.iter().map(String::as_str).collect();
        for n in meta.needed(Field::Text, &tokens)? {
            let listed = &meta.fragments()[n];
            let bytes = std::fs::read(dir.join(&listed.file))?;
            let fragment = meta.open(n, &bytes)?;
            for &term in &distinct {
                let Some((df, postings, lens)) = fragment.postings(term) else {
                    continue;
                };
                let (mut gaps, mut tfs) = (Vec::new(), Vec::new());
                let mut last = None;
                for p in postings {
                    gaps.push(last.map_or(p.doc, |l| p.doc - l));
                    tfs.push(p.tf);
                    last = Some(p.doc);
                }
                let pairs: Vec<u32> = gaps.iter().zip(&tfs).flat_map(|(&g, &t)| [g, t]).collect();
                let laid_out = [varints(&pairs), varints(lens)].concat();
                let streams = brotli_len(&varints(&gaps))?
                    + brotli_len(&varints(&tfs))?
                    + brotli_len(&varints(lens))?;
                let (g, t, l) = (entropy(&gaps), entropy(&tfs), entropy(lens));
                println!(
                    "{}",
                    json!({
                        "query": query, "term": term, "df": df,
                        "fragment": listed.file, "bytes": bytes.len(),
                        "brotli": brotli_len(&bytes)?,
                        "term_brotli": {"as_laid_out": brotli_len(&laid_out)?,
                                        "three_streams": streams},
                        "entropy": {"gaps": g.round(), "tfs": t.round(),
                                    "lens": l.round(), "total": (g + t + l).round()},
                    })
                );
            }
        }
    }
    Ok(())
}

/// The order-0 entropy of `values` in bytes: what the best code of each
/// value on its own, given their histogram, would take for all of them.
fn entropy(values: &[u32]) -> f64 {
    let mut counts: HashMap<u32, u64> = HashMap::new();
    for &v in values {
        *counts.entry(v).or_default() += 1;
    }
    let n = values.len() as f64;
    let bits: f64 = counts
        .values()
        .map(|&c| {
            let p = c as f64 / n;
            -(c as f64) * p.log2()
        })
        .sum();
    bits / 8.0
}

/// LEB128 varints, as the fragments store postings and lengths.
fn varints(values: &[u32]) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() * 2);
    for &v in values {
        varint::encode(v, &mut out);
    }
    out
}

/// The bytes brotli at quality 11 makes of `data`, as `nomos plan` counts.
fn brotli_len(data: &[u8]) -> std::io::Result<usize> {
    let mut out = Vec::new();
    {
        let mut enc = brotli::CompressorWriter::new(&mut out, 1 << 16, 11, 22);
        enc.write_all(data)?;
    }
    Ok(out.len())
}
