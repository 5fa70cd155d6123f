//! Which documents `nomos build --embed-only TYPES` embeds first. Two cores
//! embed about 300k stykker an hour, and Danish law has 1.6 million, so
//! vectors come a part at a time: the acts other documents cite most are
//! the ones a lawyer reaches most, and are embedded first.

use std::collections::HashMap;

use anyhow::Result;
use nomos_core::eli::DocRef;

use crate::error::bad_input;
use crate::sources::dataset::Dataset;

/// The chosen documents in embedding order, and the acts they belong to.
pub(super) struct Priority {
    /// Document indexes: act after act, each act's documents in pool order.
    pub order: Vec<usize>,
    /// The chosen acts in that order: source id, documents, and how many
    /// stykker of other documents cite it.
    pub acts: Vec<(String, usize, usize)>,
    /// The types chosen, as Retsinformation writes them.
    pub kinds: Vec<String>,
}

/// The documents whose Retsinformation type (`LBK`, `BEK`, …) is one of
/// `kinds`, acts most cited by other documents first (ties in pool order).
pub(super) fn most_cited_first(pool: &Dataset, kinds: &[String]) -> Result<Priority> {
    let kinds: Vec<String> = kinds.iter().map(|k| k.trim().to_uppercase()).collect();
    let doc_source: HashMap<&str, &str> = pool
        .articles
        .iter()
        .map(|a| (a.id.as_str(), a.source.as_str()))
        .collect();
    let mut cited: HashMap<&str, usize> = HashMap::new();
    for a in &pool.articles {
        for target in &a.explicit_refs {
            match doc_source.get(target.as_str()) {
                Some(&s) if s != a.source => *cited.entry(s).or_default() += 1,
                _ => {}
            }
        }
    }
    let mut acts: Vec<(&str, Vec<usize>)> = Vec::new();
    let mut at: HashMap<&str, usize> = HashMap::new();
    let mut seen_kinds: Vec<String> = Vec::new();
    for (d, a) in pool.articles.iter().enumerate() {
        let Some(kind) = DocRef::parse(&a.source).map(|r| r.kind) else {
            continue;
        };
        if !kinds.contains(&kind) {
            if !seen_kinds.contains(&kind) {
                seen_kinds.push(kind);
            }
            continue;
        }
        let i = *at.entry(a.source.as_str()).or_insert_with(|| {
            acts.push((a.source.as_str(), Vec::new()));
            acts.len() - 1
        });
        acts[i].1.push(d);
    }
    if acts.is_empty() {
        return Err(bad_input(match seen_kinds.is_empty() {
            true => "--embed-only chooses Retsinformation documents by type, and this pool has \
                     none (build it with --format da-law)"
                .to_owned(),
            false => format!(
                "--embed-only {}: no document of that type; this pool has {}",
                kinds.join(","),
                seen_kinds.join(", ")
            ),
        }));
    }
    // Stable: equally cited acts keep pool order.
    acts.sort_by_key(|(source, _)| std::cmp::Reverse(cited.get(source).copied().unwrap_or(0)));
    Ok(Priority {
        order: acts
            .iter()
            .flat_map(|(_, docs)| docs.iter().copied())
            .collect(),
        acts: acts
            .iter()
            .map(|(s, docs)| {
                let n = cited.get(s).copied().unwrap_or(0);
                (s.to_string(), docs.len(), n)
            })
            .collect(),
        kinds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sources::dataset::Article;

    fn doc(id: &str, source: &str, cites: &[&str]) -> Article {
        Article {
            id: id.into(),
            source: source.into(),
            explicit_refs: cites.iter().map(|c| c.to_string()).collect(),
            ..Article::default()
        }
    }

    #[test]
    fn acts_cited_most_by_other_documents_come_first() {
        let pool = Dataset {
            articles: vec![
                doc("a1", "LBK-2020-1", &["a2", "a2"]),
                doc("a2", "LBK-2020-1", &[]),
                doc("b1", "LBK-2021-7", &[]),
                doc("c1", "BEK-2022-3", &["b1", "a1"]),
                doc("c2", "BEK-2022-3", &["b1"]),
                doc("d1", "LBK-2019-4", &[]),
            ],
            ..Dataset::default()
        };
        let p = most_cited_first(&pool, &["lbk".into()]).unwrap();
        // LBK-2021-7 is cited twice from the BEK, LBK-2020-1 once (its
        // citations of itself do not count), LBK-2019-4 never.
        assert_eq!(p.order, vec![2, 0, 1, 5]);
        assert_eq!(
            p.acts,
            vec![
                ("LBK-2021-7".into(), 1, 2),
                ("LBK-2020-1".into(), 2, 1),
                ("LBK-2019-4".into(), 1, 0)
            ]
        );
    }

    #[test]
    fn a_type_the_pool_lacks_is_refused_with_the_types_it_has() {
        let pool = Dataset {
            articles: vec![doc("c1", "BEK-2022-3", &[])],
            ..Dataset::default()
        };
        let e = most_cited_first(&pool, &["LBK".into()]).err().unwrap();
        assert_eq!(
            e.to_string(),
            "--embed-only LBK: no document of that type; this pool has BEK"
        );
        let other = Dataset {
            articles: vec![doc("x", "straffeloven", &[])],
            ..Dataset::default()
        };
        let e = most_cited_first(&other, &["LBK".into()]).err().unwrap();
        assert!(e.to_string().contains("--format da-law"), "{e}");
    }
}
