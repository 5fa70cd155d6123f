//! Ranking a fragmented pool with a method rather than BM25 alone: BM25
//! ([`Meta::rank`]), dense over the probed lists ([`Meta::rank_dense`]),
//! and their fusions by [`crate::methods::fuse_hybrid`], each step the
//! one `Pool::rank` takes over a blob with the same lists, so the two
//! rankings are equal to the bit.

use super::lists::{Centroids, ListsFragment};
use super::meta::Meta;
use super::reader::TermFragment;
use super::FragmentError;
use crate::blob::Field;
use crate::hits::Hit;
use crate::methods::{fuse_hybrid, Method};
use crate::search::Bm25Params;

/// What a query fetched: the postings fragments of its tokens, and for a
/// dense method the centroids and the probed lists' fragments.
#[derive(Default, Clone, Copy)]
pub struct Fetched<'a> {
    /// The postings fragments [`Meta::needed`] named.
    pub terms: &'a [&'a TermFragment],
    /// The pool's centroids ([`Meta::needed_centroids`]).
    pub centroids: Option<&'a Centroids>,
    /// The lists fragments [`Meta::needed_lists`] named.
    pub lists: &'a [&'a ListsFragment],
}

impl Meta {
    /// Why `method` cannot rank this pool, or `None` when it can: BM25
    /// always; `dense`, `rrf` and `weighted` when the pool was cut with
    /// lists.
    pub fn cannot_rank(&self, method: &Method) -> Option<String> {
        let why = match method {
            Method::Bm25 => return None,
            Method::Dense { .. } | Method::Rrf { .. } | Method::Weighted { .. }
                if self.n_lists() > 0 =>
            {
                return None
            }
            m if m.needs_llm() => "LLM methods read more of the pool than one query's fragments",
            Method::Prf { .. } => {
                "pseudo-relevance feedback needs every document's terms, which fragments \
                 spread over the whole pool"
            }
            Method::DenseBinary { .. } => {
                "lists fragments carry no 1-bit codes: `dense` rescores the probed lists in int8"
            }
            Method::Rocchio { .. } => {
                "Rocchio feedback needs the vectors of documents outside the probed lists"
            }
            m if m.needs_graph() => {
                "the context methods need the scores or vectors of the cited documents, which \
                 fragments spread over the whole pool"
            }
            _ => "the pool was cut without the vectors' inverted lists (`nomos fragment --lists`)",
        };
        Some(format!(
            "{} cannot rank a fragmented pool: {why}",
            method.name()
        ))
    }

    /// The lists a dense ranking by `method` probes (0: all), or `None`
    /// when `method` ranks without vectors.
    pub fn probes_of(method: &Method) -> Option<usize> {
        match *method {
            Method::Dense { probes } => Some(probes),
            m => m.hybrid().map(|(_, probes)| probes),
        }
    }

    /// The best `k` documents for the query `tokens` (and its embedding,
    /// for a dense method) by `method`, over the `fetched` fragments
    /// ([`Meta::needed`], and [`Meta::needed_lists`] with
    /// [`Self::probes_of`]); BM25's documents all score above zero. What
    /// the method's ranking over the blob, with the lists these were cut
    /// with, gives.
    #[allow(clippy::too_many_arguments)]
    pub fn rank_method<S: AsRef<str>>(
        &self,
        method: &Method,
        params: Bm25Params,
        tokens: &[S],
        embedding: Option<&[f32]>,
        fetched: &Fetched<'_>,
        k: usize,
    ) -> Result<Vec<Hit>, FragmentError> {
        if let Some(why) = self.cannot_rank(method) {
            return Err(FragmentError::Input(why));
        }
        method
            .validate()
            .map_err(|e| FragmentError::Input(e.to_string()))?;
        let dense = |depth: usize, probes: usize| {
            let query = embedding.ok_or_else(|| {
                FragmentError::Input("a dense method needs the query's embedding".into())
            })?;
            let centroids = fetched.centroids.ok_or_else(|| FragmentError::Missing {
                file: self.centroids_file(),
            })?;
            self.rank_dense(centroids, query, probes, fetched.lists, depth)
        };
        match *method {
            Method::Dense { probes } => dense(k, probes),
            m => match m.hybrid() {
                Some((depth, probes)) => {
                    let lexical = self.rank(Field::Text, params, tokens, fetched.terms, depth)?;
                    let semantic = dense(depth, probes)?;
                    Ok(fuse_hybrid(method, &lexical, &semantic, k).unwrap_or_default())
                }
                None => self.rank(Field::Text, params, tokens, fetched.terms, k),
            },
        }
    }

    /// The centroids fragment's file name (empty without lists).
    fn centroids_file(&self) -> String {
        self.needed_centroids()
            .ok()
            .and_then(|n| self.fragments().get(n))
            .map(|f| f.file.clone())
            .unwrap_or_default()
    }
}
