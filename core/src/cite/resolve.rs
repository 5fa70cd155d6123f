//! From a [`Citation`] to the pool's documents.

use std::collections::HashMap;

use super::lexicon::Lexicon;
use super::parse::{ActRef, Citation};
use crate::blob::Blob;

/// Where a citation leads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Jump {
    /// The document to open.
    pub doc: u32,
    /// Its act, as an index into the lexicon.
    pub act: usize,
    /// The paragraph (Greek `παρ.`) or item (Danish `nr.`) to highlight,
    /// as numbered in the text.
    pub highlight: Option<u32>,
}

/// An article's documents, `(stykke, document)` in stykke order (Danish
/// ids `{act}_§{n}{letter}_stk{m}`; `PREFIX::N` ids have no stykke).
type Documents = Vec<(Option<u32>, u32)>;

/// Where each article is: `(act, article key)` → its documents.
pub struct CiteIndex {
    lexicon: Lexicon,
    articles: HashMap<(usize, String), Documents>,
    /// Each act's first document, for a citation of the act alone.
    first: Vec<Option<u32>>,
}

impl CiteIndex {
    /// Indexes `docs`: per document its id and its act's index in
    /// `lexicon`.
    pub fn new<'a>(lexicon: Lexicon, docs: impl IntoIterator<Item = (&'a str, usize)>) -> Self {
        let mut articles: HashMap<(usize, String), Documents> = HashMap::new();
        let mut first = vec![None; lexicon.acts.len()];
        for (doc, (id, act)) in docs.into_iter().enumerate() {
            let Ok(doc) = u32::try_from(doc) else { break };
            if let Some(f) = first.get_mut(act) {
                f.get_or_insert(doc);
            }
            if let Some((key, stk)) = article_of(id) {
                articles.entry((act, key)).or_default().push((stk, doc));
            }
        }
        for docs in articles.values_mut() {
            crate::order::sort(docs);
        }
        CiteIndex {
            lexicon,
            articles,
            first,
        }
    }

    /// The index of a loaded blob, its acts named by its sources section
    /// where it has one.
    pub fn from_blob(blob: &Blob) -> Self {
        let sources: Vec<&str> = blob.sources().collect();
        let lexicon = Lexicon::new(
            sources
                .iter()
                .enumerate()
                .map(|(i, s)| (*s, blob.source_info(i))),
        );
        let act_of: HashMap<&str, usize> =
            sources.iter().enumerate().map(|(i, s)| (*s, i)).collect();
        let docs = (0..blob.n_docs()).map(|d| {
            let act = blob.source(d).and_then(|s| act_of.get(s)).copied();
            (
                blob.doc_id(d).unwrap_or_default(),
                act.unwrap_or(usize::MAX),
            )
        });
        CiteIndex::new(lexicon, docs)
    }

    /// The pool's acts as citations name them.
    pub fn lexicon(&self) -> &Lexicon {
        &self.lexicon
    }

    /// The documents `citation` names: one per act that has the article,
    /// the act `preferred` first, then in source order. A stykke the act
    /// lacks resolves to nothing; a § without one to its first stykke.
    pub fn resolve(&self, citation: &Citation, preferred: Option<usize>) -> Vec<Jump> {
        let mut acts: Vec<usize> = match &citation.act {
            ActRef::Any => (0..self.lexicon.acts.len()).collect(),
            ActRef::Acts(acts) => acts.clone(),
        };
        if let Some(p) = preferred {
            crate::order::sort_by_key(&mut acts, |&a| a != p);
        }
        let mut out = Vec::new();
        for act in acts {
            let Some(article) = &citation.article else {
                if let Some(doc) = self.first.get(act).copied().flatten() {
                    out.push(Jump {
                        doc,
                        act,
                        highlight: None,
                    });
                }
                continue;
            };
            if let Some(through) = &citation.through {
                let (from, to) = (order_key(article), order_key(through));
                let mut keys: Vec<(u32, String)> = self
                    .articles
                    .keys()
                    .filter(|(a, _)| *a == act)
                    .map(|(_, k)| order_key(k))
                    .filter(|k| from <= *k && *k <= to)
                    .collect();
                crate::order::sort(&mut keys);
                for (number, letter) in keys {
                    let key = format!("{number}{letter}");
                    if let Some(&(_, doc)) = self.articles.get(&(act, key)).and_then(|d| d.first())
                    {
                        out.push(Jump {
                            doc,
                            act,
                            highlight: None,
                        });
                    }
                }
                continue;
            }
            let Some(docs) = self.articles.get(&(act, article.clone())) else {
                continue;
            };
            let stykker = docs.iter().any(|(stk, _)| stk.is_some());
            let doc = match (stykker, citation.paragraph) {
                (true, Some(p)) => docs.iter().find(|(stk, _)| *stk == Some(p)).map(|d| d.1),
                _ => docs.first().map(|d| d.1),
            };
            let highlight = match stykker {
                true => citation.item,
                false => citation.paragraph,
            };
            if let Some(doc) = doc {
                out.push(Jump {
                    doc,
                    act,
                    highlight,
                });
            }
        }
        out
    }

    /// Every citation in `query` resolved, in query order, each citation's
    /// jumps together (see [`Self::resolve`]).
    pub fn jumps(&self, query: &str, preferred: Option<usize>) -> Vec<(Citation, Vec<Jump>)> {
        super::parse(query, &self.lexicon)
            .into_iter()
            .map(|c| {
                let jumps = self.resolve(&c, preferred);
                (c, jumps)
            })
            .filter(|(_, j)| !j.is_empty())
            .collect()
    }
}

/// The article key and stykke of a document id: `straffeloven_§244_stk1`
/// → (`244`, 1); `Syntagma::5Α` → (`5a`, none); anything else → none.
fn article_of(id: &str) -> Option<(String, Option<u32>)> {
    if let Some((_, article)) = id.split_once("::") {
        return Some((split_key(article)?, None));
    }
    let (_, rest) = id.split_once("_§")?;
    let (article, stk) = rest.split_once("_stk")?;
    Some((split_key(article)?, Some(stk.parse().ok()?)))
}

/// An article key in article order: `15b` → (15, `b`).
fn order_key(key: &str) -> (u32, String) {
    let digits = key.find(|c: char| !c.is_ascii_digit()).unwrap_or(key.len());
    (
        key[..digits].parse().unwrap_or(u32::MAX),
        key[digits..].to_string(),
    )
}

/// `52a` → `52a`, `5Α` → `5a`: digits, then letters folded.
fn split_key(article: &str) -> Option<String> {
    let digits = article
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(article.len());
    if digits == 0 {
        return None;
    }
    Some(super::article_key(&article[..digits], &article[digits..]))
}

impl CiteIndex {
    /// Document `id`'s citation in its official form, its act being
    /// `act`: `Straffeloven § 244, stk. 1 (LBK nr. 1294 af 2025)` (the
    /// stykke only where the § has several), `Άρθρο 14 Συντάγματος`,
    /// `ΑΚ 914`. `None` for ids that name no article.
    pub fn official(&self, act: usize, id: &str) -> Option<String> {
        let a = self.lexicon.acts.get(act)?;
        if let Some((_, article)) = id.split_once("::") {
            if a.id == "Syntagma" {
                return Some(format!("Άρθρο {article} Συντάγματος"));
            }
            if let Some(&(_, abbr, _)) = super::GBR_CODES.iter().find(|c| c.0 == a.id) {
                return Some(format!("{abbr} {article}"));
            }
            return Some(format!("Άρθρο {article} {}", a.name));
        }
        let (key, stk) = article_of(id)?;
        let (_, rest) = id.split_once("_§")?;
        let article = rest.split_once("_stk")?.0;
        let digits = article
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(article.len());
        let mut out = match &article[digits..] {
            "" => format!("{} § {article}", a.name),
            letter => format!("{} § {} {letter}", a.name, &article[..digits]),
        };
        let several = self.articles.get(&(act, key)).is_some_and(|d| d.len() > 1);
        if let (true, Some(stk)) = (several, stk) {
            out.push_str(&format!(", stk. {stk}"));
        }
        if let Some(year) = a.date.get(..4).filter(|_| !a.number.is_empty()) {
            out.push_str(&format!(" ({} af {year})", a.number));
        }
        Some(out)
    }
}
