//! `nomos augment --context`: the augmented field built without an LLM, at
//! index time (issue #37). Each chunk's context is what a reader of the
//! stykke would look up: its heading (the act's name, § and stykke) and the
//! act's title, the definitions of the terms it uses (the terms its own
//! document defines elsewhere, found as [`crate::terms`] finds them) and,
//! with `--cited`, the text of the stykker it cites (the resolved citation
//! graph). Written as `augment` writes LLM contexts (context, blank line,
//! text), so `build --augmented`, a CRAwLeR-DK directory's
//! `augmented_chunks.jsonl`, `eval --field augmented` and the app rank it
//! as they rank those.

use std::collections::HashMap;
use std::fs;

use anyhow::{Context, Result};
use nomos_core::llm::augment::augmented_text;
use serde_json::json;

use super::build;
use crate::cli::AugmentArgs;
use crate::definition_uses::definitions_used;
use crate::error::bad_input;
use crate::sources::dataset::Dataset;

/// `nomos augment --context`.
pub fn run(args: &AugmentArgs) -> Result<()> {
    if args.llm.llm_url.is_some() || args.llm.replay.is_some() {
        return Err(bad_input(
            "--context builds contexts without an LLM: drop --llm-url and --replay",
        ));
    }
    let source = &args.source;
    let (pool, _) = build::read_pool(source.format, &source.src, source.analyzer.as_deref())?;
    let texts = augmented(&pool, args.cited);
    let mut out = Vec::new();
    for (a, text) in pool.articles.iter().zip(&texts) {
        serde_json::to_writer(&mut out, &json!({"chunk_id": a.id, "chunk": text}))?;
        out.push(b'\n');
    }
    fs::write(&args.out, &out).with_context(|| format!("cannot write {}", args.out.display()))?;
    let plain: usize = pool.articles.iter().map(|a| a.text.len()).sum();
    let total: usize = texts.iter().map(String::len).sum();
    eprintln!(
        "{}: {} chunks; {} definitions; the text grew {:.1}% ({} to {} bytes)",
        args.out.display(),
        texts.len(),
        pool.definitions.len(),
        100.0 * (total as f64 / plain.max(1) as f64 - 1.0),
        plain,
        total
    );
    Ok(())
}

/// Every article's augmented text: its context, a blank line, its text.
pub fn augmented(pool: &Dataset, cited: bool) -> Vec<String> {
    let used = definitions_used(pool);
    let titles: HashMap<&str, &str> = pool
        .sources
        .iter()
        .map(|s| (s.source.as_str(), s.info.title.as_str()))
        .collect();
    let by_id: HashMap<&str, &str> = pool
        .articles
        .iter()
        .map(|a| (a.id.as_str(), a.text.as_str()))
        .collect();
    pool.articles
        .iter()
        .zip(&used)
        .map(|(a, used)| {
            let mut lines: Vec<&str> = vec![a.title.as_str()];
            lines.extend(titles.get(a.source.as_str()).filter(|t| **t != a.title));
            let defined: Vec<String> = used
                .iter()
                .map(|&d| &pool.definitions[d])
                .map(|def| format!("{}: {}", def.term, def.definition))
                .collect();
            lines.extend(defined.iter().map(String::as_str));
            if cited {
                lines.extend(a.explicit_refs.iter().filter_map(|r| by_id.get(r.as_str())));
            }
            lines.retain(|l| !l.trim().is_empty());
            augmented_text(&lines.join("\n"), &a.text)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sources::dataset::{Article, Definition};

    fn article(id: &str, title: &str, text: &str, cites: &[&str]) -> Article {
        Article {
            id: id.into(),
            title: title.into(),
            text: text.into(),
            source: id.split('_').next().unwrap().into(),
            explicit_refs: cites.iter().map(|c| (*c).to_owned()).collect(),
            ..Article::default()
        }
    }

    fn pool() -> Dataset {
        Dataset {
            articles: vec![
                article(
                    "X_§1_stk1",
                    "X § 1",
                    "Skyldnerens gæld betales, jf. § 2.",
                    &["X_§2_stk1"],
                ),
                article(
                    "X_§2_stk1",
                    "X § 2",
                    "Ved skyldneren forstås den person.",
                    &[],
                ),
                article("Y_§1_stk1", "Y § 1", "Skyldneren betaler.", &[]),
            ],
            definitions: vec![Definition {
                source: "X".into(),
                term: "skyldneren".into(),
                definition: "den person, der har fået ydelsen".into(),
                defined_in: vec!["X_§2_stk1".into()],
            }],
            ..Dataset::default()
        }
    }

    #[test]
    fn a_chunk_gets_its_heading_and_the_definitions_of_its_own_documents_terms() {
        let texts = augmented(&pool(), false);
        assert_eq!(
            texts[0],
            "X § 1\nskyldneren: den person, der har fået ydelsen\n\nSkyldnerens gæld betales, jf. § 2."
        );
        // The defining stykke, and another document's use, get no definition.
        assert_eq!(texts[1], "X § 2\n\nVed skyldneren forstås den person.");
        assert_eq!(texts[2], "Y § 1\n\nSkyldneren betaler.");
    }

    #[test]
    fn cited_adds_the_text_of_the_cited_stykker() {
        let texts = augmented(&pool(), true);
        assert!(texts[0].starts_with(
            "X § 1\nskyldneren: den person, der har fået ydelsen\nVed skyldneren forstås den person.\n\n"
        ));
    }
}
