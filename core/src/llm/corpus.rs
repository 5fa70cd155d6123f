//! What the ReAct loop searches and shows: BM25 over a pool, and each
//! article's id and text from its blob.

use crate::blob::Blob;
use crate::hits::Hit;
use crate::methods::Method;
use crate::pool::Pool;
use crate::search::Bm25Params;

/// A searchable collection of articles.
pub trait Corpus {
    /// The best `k` documents for free text, BM25, positive scores only
    /// (as the paper's ReAct does).
    fn search(&self, text: &str, k: usize) -> Vec<Hit>;
    /// A document's id, as the observer must name it.
    fn id(&self, doc: u32) -> String;
    /// A document's title and text, as the observer reads it.
    fn text(&self, doc: u32) -> String;
}

/// A loaded pool and the blob it came from.
pub struct PoolCorpus<'a> {
    /// The pool, ranked with BM25.
    pub pool: &'a Pool,
    /// Its blob, for ids and text.
    pub blob: &'a Blob,
    /// BM25's parameters.
    pub params: Bm25Params,
}

impl Corpus for PoolCorpus<'_> {
    fn search(&self, text: &str, k: usize) -> Vec<Hit> {
        let tokens = self.pool.analyzer().tokens(text);
        // BM25 with validated parameters cannot fail.
        self.pool
            .rank(&Method::Bm25, &self.params, &tokens, None, k, true)
            .unwrap_or_default()
    }

    fn id(&self, doc: u32) -> String {
        self.blob
            .doc_id(doc as usize)
            .unwrap_or_default()
            .to_owned()
    }

    fn text(&self, doc: u32) -> String {
        let body = self
            .blob
            .article(doc as usize)
            .map(|a| a.text)
            .unwrap_or_default();
        match self.blob.title(doc as usize).filter(|t| !t.is_empty()) {
            Some(title) => format!("{title}\n{body}"),
            None => body,
        }
    }
}
