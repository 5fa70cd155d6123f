//! `nomos chunks`: a source's articles as CRAwLeR-DK's `chunks.jsonl`
//! (`chunk`, `chunk_id`, `chunk_idx`, `implicit_context_chunks`,
//! `explicit_context_chunks`; the reference BENCHMARKS.md, "CRAwLeR-DK"; and,
//! where the chunk uses terms its document defines, `definition_context_chunks`), so a
//! CRAwLeR-format directory can be made from the Danish acts, whose reader
//! already chunks and resolves references as CRAwLeR does. With `--law`,
//! context lists keep only the chunks written, so the file stands alone.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::Write;

use anyhow::{Context, Result};
use serde_json::json;

use super::build::read_pool;
use crate::cli::ChunksArgs;
use crate::error::bad_input;
use crate::sources::crawler::DEFINITION_CONTEXT;
use crate::sources::dataset::Article;

pub fn run(args: &ChunksArgs) -> Result<()> {
    let (pool, _) = read_pool(
        args.source.format,
        &args.source.src,
        args.source.analyzer.as_deref(),
    )?;
    let wanted = |id: &str| args.law.is_empty() || args.law.iter().any(|l| l == law_of(id));
    let out = rows(&pool.articles, wanted)?;
    if out.is_empty() {
        return Err(bad_input(format!(
            "{}: no chunk of the laws asked for ({})",
            args.source.src.display(),
            args.law.join(", ")
        )));
    }
    let mut file =
        fs::File::create(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    file.write_all(&out)
        .with_context(|| format!("writing {}", args.out.display()))?;
    Ok(())
}

/// The rows of the `articles` whose ids are `wanted`; context lists keep
/// only those.
pub(super) fn rows(articles: &[Article], wanted: impl Fn(&str) -> bool) -> Result<Vec<u8>> {
    let kept: HashSet<&str> = articles
        .iter()
        .map(|a| a.id.as_str())
        .filter(|id| wanted(id))
        .collect();
    let written = |refs: &[String]| -> Vec<String> {
        refs.iter()
            .filter(|r| kept.contains(r.as_str()))
            .cloned()
            .collect()
    };
    let mut out = Vec::new();
    let mut per_law: HashMap<&str, usize> = HashMap::new();
    for a in articles {
        let law = law_of(&a.id);
        // Positions count every chunk of the law, kept or not, as CRAwLeR's
        // `chunk_idx` does.
        let idx = per_law.entry(law).or_insert(0);
        let chunk_idx = *idx;
        *idx += 1;
        if !wanted(&a.id) {
            continue;
        }
        let mut row = json!({
            "chunk": a.text,
            "chunk_id": a.id,
            "chunk_idx": chunk_idx,
            "implicit_context_chunks": written(&a.implicit_refs),
            "explicit_context_chunks": written(&a.explicit_refs),
        });
        let defining = written(&a.definition_refs);
        if !defining.is_empty() {
            row[DEFINITION_CONTEXT] = json!(defining);
        }
        serde_json::to_writer(&mut out, &row)?;
        out.push(b'\n');
    }
    Ok(out)
}

/// The law of a chunk id: up to its first `_`, as CRAwLeR's `doc_id`.
fn law_of(chunk_id: &str) -> &str {
    chunk_id.split('_').next().unwrap_or(chunk_id)
}
