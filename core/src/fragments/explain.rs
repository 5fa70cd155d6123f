//! Why a document of a fragmented pool got its BM25 score: the blob's
//! explanation ([`crate::search::Bm25Scorer::explain`]'s one function) fed
//! from the query's postings fragments, whose postings carry their
//! documents' lengths and whose idf rows are the blob's, so that its total
//! is [`Meta::scores`]'s score of the document to the bit.

use std::collections::HashMap;

use super::meta::Meta;
use super::reader::TermFragment;
use super::FragmentError;
use crate::blob::Field;
use crate::search::{avg_len, explain_doc, okapi_floor, Bm25Params, Explanation};

impl Meta {
    /// Document `doc`'s BM25 score for `tokens` over `field` with
    /// `params`, term by term: the [`Explanation`] the blob it was cut
    /// from gives, field for field (without an editorial share: the
    /// headings field is the blob's alone). `fragments` must hold those
    /// [`Meta::needed`] names. `Ok(None)` when the document has none of
    /// the query's terms: it scores 0, and only a posting carries a
    /// document's length.
    pub fn explain<S: AsRef<str>>(
        &self,
        field: Field,
        params: Bm25Params,
        tokens: &[S],
        fragments: &[&TermFragment],
        doc: u32,
    ) -> Result<Option<Explanation>, FragmentError> {
        params
            .validate()
            .map_err(|e| FragmentError::Input(e.to_string()))?;
        if doc >= self.n_docs {
            return Err(FragmentError::Input(format!(
                "no document {doc}: the pool has {}",
                self.n_docs
            )));
        }
        let dir = self.directory(field)?;
        let n_docs = u64::from(self.n_docs);
        let floor = okapi_floor(dir.okapi_sum, dir.n_terms as usize, params.epsilon);
        // Each distinct token's (idf, tf) where the field has it.
        let mut found: HashMap<&str, Option<(f64, u32)>> = HashMap::new();
        let mut doc_len = None;
        for token in tokens.iter().map(AsRef::as_ref) {
            if found.contains_key(token) {
                continue;
            }
            let Some(position) = dir.position(token) else {
                found.insert(token, None);
                continue;
            };
            let fragment = self.holder(dir, position, fragments)?;
            let Some((df, postings, lens)) = fragment.postings(token) else {
                found.insert(token, None);
                continue;
            };
            let posting = postings.zip(lens).find(|(p, _)| p.doc == doc);
            let tf = posting.as_ref().map_or(0, |(p, _)| p.tf);
            if let Some((_, &len)) = posting {
                if doc_len.is_some_and(|l| l != len) {
                    return Err(FragmentError::Fragment {
                        file: self.fragments[fragment.number()].file.clone(),
                        problem: format!(
                            "gives document {doc} a length of {len}, another fragment {}",
                            doc_len.unwrap_or_default()
                        ),
                    });
                }
                doc_len = Some(len);
            }
            found.insert(token, Some((fragment.idf(params, n_docs, floor, df), tf)));
        }
        let Some(doc_len) = doc_len else {
            return Ok(None);
        };
        let avg_len = avg_len(dir.total_len, self.n_docs as usize);
        let term = |token: &str| found.get(token).copied().flatten();
        Ok(Some(explain_doc(
            params, doc, doc_len, avg_len, tokens, term,
        )))
    }
}
