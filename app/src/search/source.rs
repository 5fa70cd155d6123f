//! The Search view's source: the store that feeds the one set of Search
//! components (the search box, the result list, the article pane), a
//! whole or light blob's [`SearchStore`] or a fragmented pool's
//! [`FragStore`]. The components ask it for rows, the article and the
//! status lines, the filters for their facets and the open article's
//! explanation, so that every pool gets the same view; what only one
//! storage has ("Go to"; fetching fragments) the view adds beside them.

use leptos::prelude::*;
use nomos_core::blob::Field;
use nomos_core::facets::FacetCounts;
use nomos_core::methods::Method;
use nomos_core::search::{Bm25Params, Explanation};

use crate::format::thousands;
use crate::pool::engine::{Article, QueryError, ResultRow};
use crate::pools::frag_error::FragError;
use crate::pools::frag_store::{self, FragStore};
use crate::pools::kept_acts::act_name;
use crate::search::store::{self, SearchStore};

/// What the Search view shows. `Copy`; each store (many signal handles)
/// is held in a stored value, so that the closures which hold a source
/// stay small.
#[derive(Clone, Copy)]
pub enum SearchSource {
    Blob(StoredValue<SearchStore>),
    Fragmented(StoredValue<FragStore>),
}

impl SearchSource {
    /// The search box's placeholder: the pool's name and size.
    pub fn placeholder(self) -> String {
        let named = match self {
            SearchSource::Blob(s) => s.get_value().pool_named(),
            SearchSource::Fragmented(s) => {
                let pool = s.get_value().pool.get_value();
                Some((pool.n_docs(), pool.name.clone()))
            }
        };
        match named {
            Some((n, name)) => format!("Search {} articles in {name}", thousands(n)),
            None => "Search".to_owned(),
        }
    }

    /// The query the rows are for.
    pub fn query(self) -> String {
        match self {
            SearchSource::Blob(s) => s.get_value().committed.get(),
            SearchSource::Fragmented(s) => s
                .get_value()
                .result
                .with(|r| r.as_ref().map(|r| r.query.clone()).unwrap_or_default()),
        }
    }

    /// The rows shown, in rank order; `None` before anything ranked.
    pub fn rows(self) -> Option<Vec<ResultRow>> {
        match self {
            SearchSource::Blob(s) => s.get_value().rows.get(),
            SearchSource::Fragmented(s) => s.get_value().result.with(|r| {
                r.as_ref()?
                    .outcome
                    .as_ref()
                    .ok()
                    .map(|(rows, _)| rows.clone())
            }),
        }
    }

    /// How many rows there are in all, shown or not.
    pub fn total(self) -> usize {
        match self {
            SearchSource::Blob(s) => s
                .get_value()
                .filtered
                .with(|f| f.as_ref().map_or(0, Vec::len)),
            SearchSource::Fragmented(s) => s.get_value().result.with(|r| {
                r.as_ref()
                    .and_then(|r| r.outcome.as_ref().ok())
                    .map_or(0, |(_, total)| *total)
            }),
        }
    }

    /// The whole ranking's facets (before filtering), and how many hits
    /// it has; `None` before anything ranked.
    pub fn facets(self) -> Option<(FacetCounts, usize)> {
        match self {
            SearchSource::Blob(s) => {
                let s = s.get_value();
                let total = s
                    .ranking
                    .with(|r| r.as_ref().map(|t| t.ranking.hits.len()))?;
                Some((s.facet_counts.get()?, total))
            }
            SearchSource::Fragmented(s) => {
                s.get_value().result.with(|r| r.as_ref()?.facets.clone())
            }
        }
    }

    /// What source `id` is called: its name where the pool says, a
    /// Retsinformation document's citation (`LBK nr. 1129 af 2025`), else
    /// the id.
    pub fn source_name(self, id: &str) -> String {
        let named = match self {
            SearchSource::Blob(s) => s.get_value().source_name(id),
            SearchSource::Fragmented(_) => None,
        };
        named.filter(|n| n != id).unwrap_or_else(|| act_name(id))
    }

    /// Rows added by "Show more": fewer where each row is fetched.
    pub fn page(self) -> usize {
        match self {
            SearchSource::Blob(_) => store::PAGE,
            SearchSource::Fragmented(_) => frag_store::PAGE,
        }
    }

    /// Shows the next page of rows.
    pub fn show_more(self) {
        match self {
            SearchSource::Blob(s) => s.get_value().limit.update(|l| *l += store::PAGE),
            SearchSource::Fragmented(s) => s.get_value().show_more(),
        }
    }

    /// The method that ranked the rows shown.
    pub fn method(self) -> Option<Method> {
        match self {
            SearchSource::Blob(s) => s.get_value().ranking.with(|r| r.as_ref().map(|t| t.method)),
            SearchSource::Fragmented(s) => {
                s.get_value().result.with(|r| r.as_ref().map(|r| r.method))
            }
        }
    }

    /// The rows are BM25's while the chosen method's are on their way.
    pub fn pending(self) -> bool {
        match self {
            SearchSource::Blob(s) => s
                .get_value()
                .ranking
                .with(|r| r.as_ref().is_some_and(|t| t.pending)),
            SearchSource::Fragmented(s) => s
                .get_value()
                .result
                .with(|r| r.as_ref().is_some_and(|r| r.follows.is_some())),
        }
    }

    /// The open article, or why it cannot be shown.
    pub fn article(self) -> Option<Result<Article, ArticleError>> {
        match self {
            SearchSource::Blob(s) => s
                .get_value()
                .article
                .get()
                .map(|a| a.map_err(ArticleError::Blob)),
            SearchSource::Fragmented(s) => s
                .get_value()
                .article
                .get()
                .map(|a| a.map_err(ArticleError::Fragments)),
        }
    }

    /// Article `id`'s BM25 score for `query` with `params` taken apart,
    /// given to `done` (`Ok(None)`: the article has none of the query's
    /// terms): at once on a blob, over `field`; on a fragmented pool, which
    /// ranks its text, once the query's postings fragments are held.
    /// Nothing while no pool is loaded.
    pub fn explain(
        self,
        id: &str,
        field: Field,
        params: Bm25Params,
        query: String,
        done: impl FnOnce(Result<Option<Explanation>, String>) + 'static,
    ) {
        match self {
            SearchSource::Blob(s) => {
                if let Some(explained) = s.get_value().explain(id, field, &params, &query) {
                    done(explained.map(Some).map_err(|e| e.to_string()));
                }
            }
            SearchSource::Fragmented(s) => s
                .get_value()
                .explain(id, query, params, |e| done(e.map_err(|e| e.to_string()))),
        }
    }

    /// The live region's text after each ranking.
    pub fn status(self) -> String {
        match self {
            SearchSource::Blob(s) => s.get_value().status(),
            SearchSource::Fragmented(s) => s.get_value().status(),
        }
    }

    /// How the rows were ranked, and in how long.
    pub fn timing(self) -> Option<String> {
        match self {
            SearchSource::Blob(s) => s.get_value().timing(),
            SearchSource::Fragmented(s) => s.get_value().timing(),
        }
    }

    /// Why BM25 stands in for the chosen method.
    pub fn fallback(self) -> Option<String> {
        match self {
            SearchSource::Blob(s) => s.get_value().fallback(),
            SearchSource::Fragmented(_) => None,
        }
    }

    /// Why the query has no rows, when it failed.
    pub fn error(self) -> Option<String> {
        match self {
            SearchSource::Blob(_) => None,
            SearchSource::Fragmented(s) => s.get_value().error(),
        }
    }
}

/// Why the open article cannot be shown, from either storage.
#[derive(Debug, Clone, PartialEq)]
pub enum ArticleError {
    Blob(QueryError),
    Fragments(FragError),
}

impl std::fmt::Display for ArticleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArticleError::Blob(e) => write!(f, "{e}"),
            ArticleError::Fragments(e) => write!(f, "{e}"),
        }
    }
}
