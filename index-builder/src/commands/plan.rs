//! `nomos plan DIR QUERY...`: what a query over a fragmented pool fetches
//! and how long ranking it natively takes: the meta, the postings
//! fragments of its tokens, and the directory pages and documents
//! fragments of its top 10,
//! in bytes as stored and as a host would serve them (brotli, quality 11),
//! and the time to read, check and rank them (the meta loaded once,
//! beforehand). `fragment --plan` prints the same counts for a cut it just
//! made. Feeds bench/growth.py.

use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use nomos_core::blob::Field;
use nomos_core::fragments::{DocFragment, DocsPage, FragmentRef, Meta};
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
    /// Its tokens' postings fragments, its top 10's directory pages and
    /// documents fragments.
    pub postings: Vec<FragmentRef>,
    pub pages: Vec<FragmentRef>,
    pub docs: Vec<FragmentRef>,
    pub hits: usize,
    /// Reading, checking and ranking, and reading and opening the shown
    /// documents' fragments.
    pub seconds: f64,
}

/// Plans and runs `query` over the fragments in `dir`.
pub(super) fn plan_query(dir: &Path, meta: &Meta, query: &str) -> Result<Plan> {
    let started = Instant::now();
    let read = |f: &FragmentRef| -> Result<Vec<u8>> {
        std::fs::read(dir.join(&f.file)).with_context(|| format!("cannot read {}", f.file))
    };
    let listed = |numbers: &[usize]| -> Vec<FragmentRef> {
        numbers
            .iter()
            .map(|&n| meta.fragments()[n].clone())
            .collect()
    };
    let tokens = meta.analyzer().tokens(query);
    let postings = meta.needed(Field::Text, &tokens)?;
    let mut opened = Vec::with_capacity(postings.len());
    for &n in &postings {
        opened.push(meta.open(n, &read(&meta.fragments()[n])?)?);
    }
    let given: Vec<_> = opened.iter().collect();
    let hits = meta.rank(Field::Text, meta.bm25_params(), &tokens, &given, SHOWN)?;
    let shown: Vec<u32> = hits.iter().map(|h| h.doc).collect();
    let (pages, docs) = shown_docs(dir, meta, &shown)?;
    for (fragment, _) in &docs {
        for &doc in &shown {
            if fragment.docs().contains(&doc) {
                std::hint::black_box(fragment.title(doc));
            }
        }
    }
    Ok(Plan {
        tokens: tokens.len(),
        postings: listed(&postings),
        pages,
        docs: docs.into_iter().map(|(_, listed)| listed).collect(),
        hits: hits.len(),
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// A checked documents fragment and its entry in its directory page.
pub(super) type ShownDocs = (DocFragment, FragmentRef);

/// Reads from `dir` and checks what showing `shown` needs: the directory
/// pages listing their documents fragments, then those fragments (each
/// with its entry in its page).
pub(super) fn shown_docs(
    dir: &Path,
    meta: &Meta,
    shown: &[u32],
) -> Result<(Vec<FragmentRef>, Vec<ShownDocs>)> {
    let read = |f: &FragmentRef| -> Result<Vec<u8>> {
        std::fs::read(dir.join(&f.file)).with_context(|| format!("cannot read {}", f.file))
    };
    let mut listed = Vec::new();
    let mut pages = Vec::new();
    for n in meta.needed_pages(shown)? {
        let page = &meta.fragments()[n];
        pages.push(meta.open_page(n, &read(page)?)?);
        listed.push(page.clone());
    }
    let given: Vec<&DocsPage> = pages.iter().collect();
    let mut docs = Vec::new();
    for n in meta.needed_docs(&given, shown)? {
        let page = pages.iter().find(|p| p.fragment(n).is_some());
        let page = page.context("no directory page lists a needed documents fragment")?;
        let entry = page.fragment(n).context("no such documents fragment")?;
        docs.push((meta.open_docs(page, n, &read(entry)?)?, entry.clone()));
    }
    Ok((listed, docs))
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
    let mut brotli: HashMap<String, u64> = HashMap::new();
    let mut served = |f: &FragmentRef| -> Result<u64> {
        if let Some(&len) = brotli.get(&f.file) {
            return Ok(len);
        }
        let bytes = std::fs::read(args.dir.join(&f.file))?;
        let len = brotli_len(&bytes)? as u64;
        brotli.insert(f.file.clone(), len);
        Ok(len)
    };
    let meta_brotli = brotli_len(&meta_bytes)? as u64;
    println!(
        "{}",
        json!({
            "meta": { "bytes": meta_bytes.len(), "brotli": meta_brotli, "load_ms": load_seconds * 1e3 },
            "fragments": meta.n_fragments(),
            "fragment_bytes": meta.fragment_bytes(),
            "docs": meta.n_docs(),
        })
    );
    for query in &queries {
        let plan = plan_query(&args.dir, &meta, query)?;
        let size = |files: &[FragmentRef]| -> u64 { files.iter().map(|f| f.len).sum() };
        let mut compressed =
            |files: &[FragmentRef]| -> Result<u64> { files.iter().map(&mut served).sum() };
        let postings_brotli = compressed(&plan.postings)?;
        let pages_brotli = compressed(&plan.pages)?;
        let docs_brotli = compressed(&plan.docs)?;
        println!(
            "{}",
            json!({
                "query": query,
                "tokens": plan.tokens,
                "hits": plan.hits,
                "postings": plan.postings.len(),
                "pages": plan.pages.len(),
                "docs": plan.docs.len(),
                "bytes": {
                    "meta": meta_bytes.len(),
                    "postings": size(&plan.postings),
                    "pages": size(&plan.pages),
                    "docs": size(&plan.docs),
                    "total": meta_bytes.len() as u64
                        + size(&plan.postings)
                        + size(&plan.pages)
                        + size(&plan.docs),
                },
                "brotli": {
                    "meta": meta_brotli,
                    "postings": postings_brotli,
                    "pages": pages_brotli,
                    "docs": docs_brotli,
                    "total": meta_brotli + postings_brotli + pages_brotli + docs_brotli,
                },
                "ms": plan.seconds * 1e3,
            })
        );
    }
    Ok(())
}
