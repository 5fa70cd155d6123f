//! STARD (Chinese statute retrieval, MIT; `../shared/data/stard/`): only
//! `queries.json` is read. Each entry is `{query_id, 问题 (question),
//! 相关法规 {article name: article text}, match_id, match_name}`; the
//! MS-MARCO-style `qrels.*.tsv` / `*.query.txt` files are train/dev splits of
//! the same queries and add nothing to the pool.
//!
//! The full 55,348-article corpus is not in the copy, so the pool is the
//! distinct gold articles (first-seen order over queries and their
//! `match_name` lists), which makes retrieval far easier than in the paper.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use anyhow::Result;
use serde::Deserialize;

use super::dataset::{Article, Dataset, Judgment, Query, SourceFile};
use crate::error::bad_input;
use nomos_core::digest::sha256_hex;

/// Articles in the paper's full STARD corpus, for the reduced-pool note.
const FULL_CORPUS_ARTICLES: usize = 55_348;

#[derive(Deserialize)]
struct Entry {
    query_id: i64,
    #[serde(rename = "问题")]
    question: String,
    #[serde(rename = "相关法规")]
    articles: BTreeMap<String, String>,
    match_name: Vec<String>,
}

/// Reads `dir/queries.json` into a pool of gold articles, all queries and
/// one judgment (relevance 1) per `match_name` entry.
pub fn read_stard(dir: &Path) -> Result<Dataset> {
    let name = "queries.json";
    let path = dir.join(name);
    let bytes = std::fs::read(&path)
        .map_err(|e| bad_input(format!("{}: cannot read: {e}", path.display())))?;
    let entries: Vec<Entry> = serde_json::from_slice(&bytes).map_err(|e| {
        bad_input(format!(
            "{}:{}: not a STARD queries list: {e}",
            path.display(),
            e.line()
        ))
    })?;

    let mut pool = Dataset {
        dataset: "stard".into(),
        files: vec![SourceFile {
            name: name.into(),
            sha256: sha256_hex(&bytes),
        }],
        ..Dataset::default()
    };
    let mut article_index: HashMap<String, usize> = HashMap::new();
    for entry in entries {
        let query_id = entry.query_id.to_string();
        for gold in &entry.match_name {
            let text = entry.articles.get(gold).ok_or_else(|| {
                bad_input(format!(
                    "{}: query {query_id}: gold article `{gold}` has no text in 相关法规",
                    path.display()
                ))
            })?;
            match article_index.get(gold) {
                Some(&i) if pool.articles[i].text != *text => {
                    return Err(bad_input(format!(
                        "{}: query {query_id}: article `{gold}` has a different text than before",
                        path.display()
                    )))
                }
                Some(_) => {}
                None => {
                    article_index.insert(gold.clone(), pool.articles.len());
                    pool.articles.push(Article {
                        id: gold.clone(),
                        title: gold.clone(),
                        text: text.clone(),
                        source: law_name(gold).to_string(),
                        ..Article::default()
                    });
                }
            }
            pool.judgments.push(Judgment {
                query_id: query_id.clone(),
                doc_id: gold.clone(),
                relevance: 1,
            });
        }
        pool.queries.push(Query {
            id: query_id,
            text: entry.question,
            area: None,
        });
    }
    pool.notes.push(format!(
        "STARD reduced pool: only the {} gold articles of the paper's {FULL_CORPUS_ARTICLES} are present, \
         so scores are far higher than, and not comparable to, the paper's",
        pool.articles.len()
    ));
    Ok(pool)
}

/// The law an article name belongs to: the name minus its trailing
/// `第…条` (or `第…条之…`) article number, e.g. `中华人民共和国民法典第五十四条`
/// → `中华人民共和国民法典`. A name without that suffix is its own law.
fn law_name(article: &str) -> &str {
    const NUMERALS: &str = "零〇一二三四五六七八九十百千万";
    let numeral = |c: char| NUMERALS.contains(c);
    let Some(start) = article.rfind('第') else {
        return article;
    };
    let rest = &article[start + '第'.len_utf8()..];
    let is_article_number = rest.split_once('条').is_some_and(|(num, tail)| {
        !num.is_empty()
            && num.chars().all(numeral)
            && (tail.is_empty()
                || tail
                    .strip_prefix('之')
                    .is_some_and(|n| !n.is_empty() && n.chars().all(numeral)))
    });
    if is_article_number {
        &article[..start]
    } else {
        article
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn law_names_drop_the_article_number() {
        assert_eq!(
            law_name("中华人民共和国民法典第五十四条"),
            "中华人民共和国民法典"
        );
        assert_eq!(
            law_name("中华人民共和国刑法第二百五十三条之一"),
            "中华人民共和国刑法"
        );
        assert_eq!(law_name("个体工商户条例第二条"), "个体工商户条例");
        assert_eq!(law_name("某法第一章"), "某法第一章");
        assert_eq!(law_name("无编号"), "无编号");
    }

    /// The real copy: the counts the STARD provenance note and the reference BENCHMARKS.md
    /// §3.2 state (1,543 queries, 2,717 qrels, 1,445 gold articles).
    #[test]
    fn reads_the_shared_stard_copy() {
        let dir = Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../shared/data/stard"
        ));
        let pool = read_stard(dir).unwrap();
        assert_eq!(pool.queries.len(), 1543);
        assert_eq!(pool.judgments.len(), 2717);
        assert_eq!(pool.articles.len(), 1445);
        assert_eq!(pool.files.len(), 1);
        assert_eq!(pool.notes.len(), 1);
        assert!(pool.notes[0].contains("1445 gold articles of the paper's 55348"));
        // First-seen order: query 0's two gold articles come first.
        assert_eq!(pool.queries[0].id, "0");
        assert_eq!(pool.articles[0].id, "中华人民共和国民法典第五十四条");
        assert_eq!(pool.articles[0].source, "中华人民共和国民法典");
        assert_eq!(pool.articles[1].id, "个体工商户条例第二条");
        assert!(pool.articles.iter().all(|a| a.source != a.id));
        let sources: std::collections::HashSet<&str> =
            pool.articles.iter().map(|a| a.source.as_str()).collect();
        assert_eq!(sources.len(), 133);
    }

    #[test]
    fn malformed_input_is_an_error_not_a_panic() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("queries.json"), "[{\"query_id\": 1}]").unwrap();
        let err = read_stard(dir.path()).unwrap_err().to_string();
        assert!(err.contains("queries.json:1:"), "{err}");
        std::fs::write(
            dir.path().join("queries.json"),
            r#"[{"query_id": 1, "问题": "q", "相关法规": {}, "match_id": [], "match_name": ["某法第一条"]}]"#,
        )
        .unwrap();
        let err = read_stard(dir.path()).unwrap_err().to_string();
        assert!(err.contains("has no text"), "{err}");
    }
}
