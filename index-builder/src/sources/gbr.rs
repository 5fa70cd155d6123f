//! GreekBarRetrieval as published on Hugging Face (`AUEB-NLP/greek-bar-bench`,
//! revision `v2.0`, the reference BENCHMARKS.md §1.2): subsets `corpus` (`id`, `text`),
//! `queries` (`id`, `text`) and `qrels` (`query-id`, `corpus-id`, `score`),
//! each as Parquet, JSONL, CSV or TSV in any layout [`layout`] finds.
//!
//! Article ids are `PREFIX::ARTICLE`, split on the first `::` only (prefixes
//! may contain `/`, as in `KDD/sias`); the prefix is the article's `source`
//! and gives its areas ([`areas`]). Query ids are `{area}_{date}_q{n}`; the
//! area tag becomes `Query::area`. An article's `area` holds the same tags,
//! comma-joined when its source serves several exams (`Syntagma` →
//! `astiko,dimosio,poiniko`). Row order is the hub's.

mod areas;
mod layout;

use std::collections::HashSet;
use std::path::Path;

use anyhow::Result;

use super::dataset::{Article, Dataset, Judgment, Query, SourceInfo, SourceInput};
use super::tabular::{read_table, Row, Table};
use crate::error::bad_input;

/// The Greek names of the paper's prefixes the corpus uses (`AK` →
/// `Αστικός Κώδικας`, alias `ΑΚ`), from the citation parser's table of
/// codes, so the facet shows them and citations find them.
fn code_names(articles: &[Article]) -> Vec<SourceInput> {
    nomos_core::cite::GBR_CODES
        .iter()
        .filter(|(latin, _, _)| articles.iter().any(|a| a.source == *latin))
        .map(|&(latin, abbr, name)| SourceInput {
            source: latin.into(),
            info: SourceInfo {
                name: name.into(),
                aliases: vec![abbr.into()],
                ..SourceInfo::default()
            },
        })
        .collect()
}

/// Reads a downloaded GBR repo. `corpus` is required; `queries` and `qrels`
/// may be absent (an index can be built without them).
pub fn read_gbr(dir: &Path) -> Result<Dataset> {
    let mut pool = Dataset {
        dataset: "gbr".into(),
        ..Dataset::default()
    };
    let corpus = read_subset(dir, "corpus")?.ok_or_else(|| {
        bad_input(format!(
            "{}: no GBR `corpus` subset (looked for corpus/, corpus/test/, data/corpus/, \
             data/corpus[-*].EXT and corpus[-*].EXT with EXT parquet, jsonl, csv or tsv)",
            dir.display()
        ))
    })?;
    let mut unlisted_prefixes: Vec<String> = Vec::new();
    for row in rows(&corpus) {
        let article = article(row)?;
        let prefix = match article.source.as_str() {
            "" => "(ids without `::`)",
            p => p,
        };
        if article.area.is_none() && !unlisted_prefixes.iter().any(|u| u == prefix) {
            unlisted_prefixes.push(prefix.to_string());
        }
        pool.articles.push(article);
    }
    ensure_unique(&corpus, "id", pool.articles.iter().map(|a| a.id.as_str()))?;
    pool.sources = code_names(&pool.articles);
    if !unlisted_prefixes.is_empty() {
        pool.notes.push(format!(
            "GBR article prefixes not in the paper's Table 7, so without a legal area: {}",
            unlisted_prefixes.join(", ")
        ));
    }

    let queries = read_subset(dir, "queries")?.unwrap_or_default();
    for row in rows(&queries) {
        let id = row.string("id")?;
        pool.queries.push(Query {
            area: areas::query_area(&id),
            text: row.string("text")?,
            id,
        });
    }
    ensure_unique(&queries, "id", pool.queries.iter().map(|q| q.id.as_str()))?;

    let qrels = read_subset(dir, "qrels")?.unwrap_or_default();
    for row in rows(&qrels) {
        let score = row.int("score")?;
        pool.judgments.push(Judgment {
            query_id: row.string("query-id")?,
            doc_id: row.string("corpus-id")?,
            relevance: i32::try_from(score)
                .map_err(|_| row.error(format!("score {score} is out of range")))?,
        });
    }
    note_dangling(&mut pool);

    pool.files = [corpus, queries, qrels]
        .into_iter()
        .flatten()
        .map(|t| t.file)
        .collect();
    Ok(pool)
}

/// One corpus row as an article: `source` is the id's prefix; an id without
/// `::` is kept whole with an empty source (and no area) rather than refused,
/// since ids are opaque to retrieval.
fn article(row: &Row) -> Result<Article> {
    let id = row.string("id")?;
    let source = id.split_once("::").map_or("", |(prefix, _)| prefix);
    Ok(Article {
        area: areas::article_area(source),
        source: source.to_string(),
        text: row.string("text")?,
        id,
        ..Article::default()
    })
}

/// Reads every shard of a subset, or `None` if the repo has no such subset.
fn read_subset(dir: &Path, subset: &str) -> Result<Option<Vec<Table>>> {
    let Some(files) = layout::find_subset(dir, subset)? else {
        return Ok(None);
    };
    files
        .iter()
        .map(|name| read_table(dir, name))
        .collect::<Result<Vec<_>>>()
        .map(Some)
}

fn rows(tables: &[Table]) -> impl Iterator<Item = &Row> {
    tables.iter().flat_map(|t| t.rows.iter())
}

/// Duplicate ids would make judgments ambiguous: refuse them, naming the row.
fn ensure_unique<'a>(
    tables: &[Table],
    column: &str,
    ids: impl Iterator<Item = &'a str>,
) -> Result<()> {
    let mut seen = HashSet::new();
    for (row, id) in rows(tables).zip(ids) {
        if !seen.insert(id) {
            return Err(row.error(format!("duplicate {column} `{id}`")));
        }
    }
    Ok(())
}

/// Judgments are kept as published, as the reference notebooks score them;
/// ones naming a query or article the pool lacks are counted in a note,
/// since they change recall denominators or never get scored.
fn note_dangling(pool: &mut Dataset) {
    let docs: HashSet<&str> = pool.articles.iter().map(|a| a.id.as_str()).collect();
    let queries: HashSet<&str> = pool.queries.iter().map(|q| q.id.as_str()).collect();
    let unknown_doc = pool
        .judgments
        .iter()
        .filter(|j| !docs.contains(j.doc_id.as_str()))
        .count();
    let unknown_query = pool
        .judgments
        .iter()
        .filter(|j| !queries.contains(j.query_id.as_str()))
        .count();
    if unknown_doc > 0 {
        pool.notes.push(format!(
            "{unknown_doc} GBR qrels name articles missing from the corpus (kept: they count as unretrievable gold)"
        ));
    }
    if unknown_query > 0 && !pool.queries.is_empty() {
        pool.notes.push(format!(
            "{unknown_query} GBR qrels name queries missing from the queries subset"
        ));
    }
}

#[cfg(test)]
mod tests;
