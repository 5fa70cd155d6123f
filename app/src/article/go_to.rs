//! The citation jump's model: the "Go to" rows for a query that is or holds
//! a citation, and which paragraph of an opened article the citation
//! names. The parsing and resolving are `nomos_core::cite`'s; this module
//! only turns them into what the views show. Plain, tested natively.

use crate::pool::engine::{Engine, MarkedText};

/// Most rows the "Go to" list shows (one per act for `§ 244` in a pool of
/// 17 acts, with room).
pub const ROWS_MAX: usize = 25;

/// One row of the "Go to" list.
#[derive(Debug, Clone, PartialEq)]
pub struct GoToRow {
    /// The article to open.
    pub id: String,
    /// Its citation in official form, or its title.
    pub label: String,
    /// The citation as typed, for the link's `cite=` and the highlight.
    pub cite: String,
}

/// What a query's citations lead to.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GoTo {
    pub rows: Vec<GoToRow>,
    /// The query is nothing but citations (spaces and punctuation aside):
    /// a single target is opened at once.
    pub only_citation: bool,
}

/// The "Go to" rows for `query`, the act of `last_source` (a source id, the
/// article the user last opened) first where a citation names no act.
pub fn go_to(engine: &Engine, query: &str, last_source: Option<&str>) -> GoTo {
    let cite = engine.cite();
    let preferred = last_source.and_then(|s| cite.lexicon().acts().iter().position(|a| a.id == s));
    let found = cite.jumps(query, preferred);
    let mut covered = vec![false; query.len()];
    let mut rows = Vec::new();
    for (citation, jumps) in &found {
        covered[citation.span.clone()].fill(true);
        let typed = &query[citation.span.clone()];
        for jump in jumps {
            let id = engine.doc_id(jump.doc);
            let label = cite
                .official(jump.act, &id)
                .unwrap_or_else(|| engine.title(jump.doc));
            if rows.len() < ROWS_MAX && !rows.iter().any(|r: &GoToRow| r.id == id) {
                rows.push(GoToRow {
                    id,
                    label,
                    cite: typed.to_owned(),
                });
            }
        }
    }
    let only_citation = !rows.is_empty()
        && query
            .char_indices()
            .all(|(i, c)| covered[i] || !c.is_alphanumeric());
    GoTo {
        rows,
        only_citation,
    }
}

/// Whether `cite` names article `id`.
pub fn leads_to(engine: &Engine, cite: &str, id: &str) -> bool {
    let Some(doc) = engine.doc_index(id) else {
        return false;
    };
    engine
        .cite()
        .jumps(cite, None)
        .iter()
        .any(|(_, jumps)| jumps.iter().any(|j| j.doc == doc))
}

/// The paragraph of article `id` (its `paragraphs` as shown) that `cite`
/// names, if the citation leads to this article and names one: Greek
/// `παρ. 2` is the paragraph numbered `2.`, Danish `nr. 2` the item `2)`.
pub fn highlighted(
    engine: &Engine,
    cite: &str,
    id: &str,
    paragraphs: &[MarkedText],
) -> Option<usize> {
    let doc = engine.doc_index(id)?;
    let n = engine
        .cite()
        .jumps(cite, None)
        .into_iter()
        .flat_map(|(_, jumps)| jumps)
        .find(|j| j.doc == doc)?
        .highlight?;
    let numbered = |p: &&MarkedText| {
        let rest = p.text.trim_start().strip_prefix(&n.to_string());
        rest.is_some_and(|r| r.starts_with('.') || r.starts_with(')'))
    };
    paragraphs.iter().position(|p| numbered(&p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pool::engine::tests::named_engine;

    #[test]
    fn a_citation_gives_go_to_rows_and_alone_opens() {
        let e = named_engine();
        let g = go_to(&e, "lov a § 1", None);
        assert_eq!(
            g.rows.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(),
            ["A_§1_stk1"]
        );
        assert_eq!(g.rows[0].label, "Lov A § 1 (LBK nr. 7 af 2020)");
        assert!(g.only_citation);
        let g = go_to(&e, "skat lov a § 1", None);
        assert!(!g.only_citation);
        assert_eq!(g.rows[0].cite, "lov a § 1");
        assert!(go_to(&e, "skat", None).rows.is_empty());
    }

    #[test]
    fn a_bare_section_lists_every_act_the_last_opened_first() {
        let e = named_engine();
        let ids = |last| {
            go_to(&e, "§ 1", last)
                .rows
                .into_iter()
                .map(|r| r.id)
                .collect::<Vec<_>>()
        };
        assert_eq!(ids(None), ["A_§1_stk1", "B_§1_stk1"]);
        assert_eq!(ids(Some("B")), ["B_§1_stk1", "A_§1_stk1"]);
    }

    #[test]
    fn the_cited_item_is_highlighted() {
        let e = named_engine();
        let article = e.article("A_§1_stk1", &Default::default()).unwrap();
        assert_eq!(
            highlighted(
                &e,
                "§ 1, stk. 1, nr. 2 lov a",
                "A_§1_stk1",
                &article.paragraphs
            ),
            Some(2)
        );
        assert_eq!(
            highlighted(&e, "§ 1 lov a", "A_§1_stk1", &article.paragraphs),
            None
        );
        assert_eq!(
            highlighted(&e, "§ 1, nr. 2 lov b", "A_§1_stk1", &article.paragraphs),
            None
        );
        assert!(leads_to(&e, "§ 1", "B_§1_stk1"));
        assert!(!leads_to(&e, "lov a § 1", "B_§1_stk1"));
    }
}
