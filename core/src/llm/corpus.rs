//! What the ReAct loop searches and shows: BM25 over a pool, and each
//! article's id and text from its blob.

use crate::blob::Blob;
use crate::hits::Hit;
use crate::methods::Method;
use crate::pool::Pool;
use crate::search::{cap_runs, Bm25Params};

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
        let mut tokens = self.pool.analyzer().tokens(text);
        // A planner's query is a model's reply: bounded like a link's.
        cap_runs(&mut tokens);
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
        observed_text(self.blob.title(doc as usize).unwrap_or_default(), body)
    }
}

/// An article as the observer reads it: its title, a line break, its
/// text; the title once where the text already starts with it (BEIR
/// corpora index the two together). Every [`Corpus`] shows articles so,
/// so that a transcript recorded over one replays over another.
pub fn observed_text(title: &str, body: String) -> String {
    if title.is_empty() || body.starts_with(title) {
        body
    } else {
        format!("{title}\n{body}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blob::test_blob::danish_blob;
    use crate::blob::DocumentInput;

    #[test]
    fn the_observer_reads_each_title_once() {
        let documents = [
            ("Lejeloven § 1", "Lejeloven § 1\nLoven gælder for leje."),
            ("Lejeloven § 2", "Udlejer skal vedligeholde."),
            ("", "Uden overskrift."),
        ]
        .map(|(title, text)| DocumentInput {
            id: title.to_owned(),
            title: title.to_owned(),
            text: text.to_owned(),
            ..Default::default()
        });
        let bytes = danish_blob(&documents, &[], &[], None);
        let mut blob = Blob::load(&bytes).unwrap();
        let pool = Pool::from_blob(&mut blob).unwrap();
        let corpus = PoolCorpus {
            pool: &pool,
            blob: &blob,
            params: Bm25Params::default(),
        };
        assert_eq!(corpus.text(0), "Lejeloven § 1\nLoven gælder for leje.");
        assert_eq!(corpus.text(1), "Lejeloven § 2\nUdlejer skal vedligeholde.");
        assert_eq!(corpus.text(2), "Uden overskrift.");
    }
}
