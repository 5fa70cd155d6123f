//! BEIR-layout directories: `corpus.jsonl` (`_id`, `title`, `text`),
//! `queries.jsonl` (`_id`, `text`) and `qrels/test.tsv`
//! (`query-id corpus-id score`, with a header).

use std::path::Path;

use anyhow::Result;

use super::dataset::{Article, Dataset, Judgment, Query};
use super::jsonl::records;
use super::qrels::read_qrels;
use super::text_file::read_required;

/// Reads a BEIR directory. Titles are prepended to the indexed text (as BEIR's
/// own BM25 baseline does); queries and qrels are optional.
pub fn read_beir(dir: &Path) -> Result<Dataset> {
    let corpus = read_required(&dir.join("corpus.jsonl"), "BEIR corpus")?;
    let mut articles = Vec::new();
    for rec in records(&corpus)? {
        let title = rec.opt_string("title")?.unwrap_or_default();
        let body = rec.string("text")?;
        let text = if title.is_empty() {
            body
        } else {
            format!("{title}\n{body}")
        };
        articles.push(Article {
            id: rec.string("_id")?,
            title,
            text,
            ..Article::default()
        });
    }
    let queries = match dir.join("queries.jsonl") {
        p if p.exists() => read_beir_queries(&p)?,
        _ => Vec::new(),
    };
    let qrels_path = dir.join("qrels").join("test.tsv");
    let judgments: Vec<Judgment> = if qrels_path.exists() {
        read_qrels(&qrels_path)?
    } else {
        Vec::new()
    };
    Ok(Dataset {
        dataset: "beir".into(),
        articles,
        queries,
        judgments,
        ..Dataset::default()
    })
}

/// Reads a BEIR `queries.jsonl` (`_id`, `text`).
pub fn read_beir_queries(path: &Path) -> Result<Vec<Query>> {
    let file = read_required(path, "queries")?;
    records(&file)?
        .iter()
        .map(|rec| {
            Ok(Query {
                id: rec.string("_id")?,
                text: rec.string("text")?,
                area: None,
            })
        })
        .collect()
}
