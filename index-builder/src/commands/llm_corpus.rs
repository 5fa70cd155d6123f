//! What the ReAct loop searches and shows, over a loaded [`Ranking`]:
//! core's [`PoolCorpus`] for a blob, and the same search and the same
//! text ([`observed_text`]) for the articles of a directory indexed on
//! the fly, so a transcript recorded on one replays on the other.

use nomos_core::hits::Hit;
use nomos_core::llm::{observed_text, Corpus, PoolCorpus};
use nomos_core::methods::Method;

use super::ranking::{Ranking, Texts};
use crate::sources::dataset::Article;

/// A ranking's pool and texts, as a [`Corpus`].
pub enum RankingCorpus<'a> {
    Blob(PoolCorpus<'a>),
    Articles(&'a Ranking, &'a [Article]),
}

impl RankingCorpus<'_> {
    pub fn new(ranking: &Ranking) -> RankingCorpus<'_> {
        match &ranking.texts {
            Texts::Blob(blob) => RankingCorpus::Blob(PoolCorpus {
                pool: &ranking.pool,
                blob,
                params: ranking.params,
            }),
            Texts::Articles(articles) => RankingCorpus::Articles(ranking, articles),
        }
    }
}

impl Corpus for RankingCorpus<'_> {
    fn search(&self, text: &str, k: usize) -> Vec<Hit> {
        match self {
            RankingCorpus::Blob(corpus) => corpus.search(text, k),
            RankingCorpus::Articles(ranking, _) => {
                let tokens = ranking.pool.analyzer().tokens(text);
                // BM25 with validated parameters cannot fail.
                ranking
                    .pool
                    .rank(&Method::Bm25, &ranking.params, &tokens, None, k, true)
                    .unwrap_or_default()
            }
        }
    }

    fn id(&self, doc: u32) -> String {
        match self {
            RankingCorpus::Blob(corpus) => corpus.id(doc),
            RankingCorpus::Articles(_, articles) => articles
                .get(doc as usize)
                .map(|a| a.id.clone())
                .unwrap_or_default(),
        }
    }

    fn text(&self, doc: u32) -> String {
        match self {
            RankingCorpus::Blob(corpus) => corpus.text(doc),
            RankingCorpus::Articles(_, articles) => articles
                .get(doc as usize)
                .map(|a| observed_text(&a.title, a.text.clone()))
                .unwrap_or_default(),
        }
    }
}
