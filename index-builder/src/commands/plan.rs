//! `nomos plan DIR QUERY...`: what a query over a fragmented pool fetches
//! and how long ranking it natively takes: the meta, the postings
//! fragments of its tokens, and the documents fragments of its top 10,
//! in bytes as stored and as a host would serve them (brotli, quality 11),
//! and the time to read, check and rank them (the meta loaded once,
//! beforehand). `fragment --plan` prints the same counts for a cut it just
//! made. Feeds bench/growth.py.

use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use nomos_core::blob::Field;
use nomos_core::fragments::Meta;
use serde_json::json;

use super::info::brotli_len;
use crate::cli::PlanArgs;

/// The meta file's name in a fragments directory.
pub(super) const META_FILE: &str = "meta";
/// Results shown, whose documents fragments a query fetches.
const SHOWN: usize = 10;

/// What one query fetched.
pub(super) struct Plan {
    pub tokens: usize,
    /// Fragment numbers: its tokens' postings, its top 10's documents.
    pub postings: Vec<usize>,
    pub docs: Vec<usize>,
    pub hits: usize,
    /// Reading, checking and ranking, and reading and opening the shown
    /// documents' fragments.
    pub seconds: f64,
}

/// Plans and runs `query` over the fragments in `dir`.
pub(super) fn plan_query(dir: &Path, meta: &Meta, query: &str) -> Result<Plan> {
    let started = Instant::now();
    let read = |n: usize| -> Result<Vec<u8>> {
        let file = &meta.fragments()[n].file;
        std::fs::read(dir.join(file)).with_context(|| format!("cannot read {file}"))
    };
    let tokens = meta.analyzer().tokens(query);
    let postings = meta.needed(Field::Text, &tokens)?;
    let mut opened = Vec::with_capacity(postings.len());
    for &n in &postings {
        opened.push(meta.open(n, &read(n)?)?);
    }
    let given: Vec<_> = opened.iter().collect();
    let hits = meta.rank(Field::Text, meta.bm25_params(), &tokens, &given, SHOWN)?;
    let shown: Vec<u32> = hits.iter().map(|h| h.doc).collect();
    let docs = meta.needed_docs(&shown)?;
    for &n in &docs {
        let fragment = meta.open_docs(n, &read(n)?)?;
        for &doc in &shown {
            if fragment.docs().contains(&doc) {
                std::hint::black_box(fragment.title(doc));
            }
        }
    }
    Ok(Plan {
        tokens: tokens.len(),
        postings,
        docs,
        hits: hits.len(),
        seconds: started.elapsed().as_secs_f64(),
    })
}

pub fn run(args: &PlanArgs) -> Result<()> {
    let meta_bytes = std::fs::read(args.dir.join(META_FILE))
        .with_context(|| format!("cannot read {}", args.dir.join(META_FILE).display()))?;
    let loading = Instant::now();
    let meta = Meta::load(&meta_bytes)?;
    let load_seconds = loading.elapsed().as_secs_f64();
    let mut queries = args.queries.clone();
    if let Some(file) = &args.query_file {
        let text = std::fs::read_to_string(file)
            .with_context(|| format!("cannot read {}", file.display()))?;
        queries.extend(
            text.lines()
                .filter(|l| !l.trim().is_empty())
                .map(str::to_owned),
        );
    }
    let mut brotli: HashMap<usize, u64> = HashMap::new();
    let mut served = |n: usize| -> Result<u64> {
        if let Some(&len) = brotli.get(&n) {
            return Ok(len);
        }
        let bytes = std::fs::read(args.dir.join(&meta.fragments()[n].file))?;
        let len = brotli_len(&bytes)? as u64;
        brotli.insert(n, len);
        Ok(len)
    };
    let meta_brotli = brotli_len(&meta_bytes)? as u64;
    println!(
        "{}",
        json!({
            "meta": { "bytes": meta_bytes.len(), "brotli": meta_brotli, "load_ms": load_seconds * 1e3 },
            "fragments": meta.fragments().len(),
            "fragment_bytes": meta.fragments().iter().map(|f| f.len).sum::<u64>(),
            "docs": meta.n_docs(),
        })
    );
    for query in &queries {
        let plan = plan_query(&args.dir, &meta, query)?;
        let size =
            |numbers: &[usize]| -> u64 { numbers.iter().map(|&n| meta.fragments()[n].len).sum() };
        let mut compressed =
            |numbers: &[usize]| -> Result<u64> { numbers.iter().map(|&n| served(n)).sum() };
        let (postings_brotli, docs_brotli) = (compressed(&plan.postings)?, compressed(&plan.docs)?);
        println!(
            "{}",
            json!({
                "query": query,
                "tokens": plan.tokens,
                "hits": plan.hits,
                "postings": plan.postings.len(),
                "docs": plan.docs.len(),
                "bytes": {
                    "meta": meta_bytes.len(),
                    "postings": size(&plan.postings),
                    "docs": size(&plan.docs),
                    "total": meta_bytes.len() as u64 + size(&plan.postings) + size(&plan.docs),
                },
                "brotli": {
                    "meta": meta_brotli,
                    "postings": postings_brotli,
                    "docs": docs_brotli,
                    "total": meta_brotli + postings_brotli + docs_brotli,
                },
                "ms": plan.seconds * 1e3,
            })
        );
    }
    Ok(())
}
