//! A loaded pool ready to rank: everything the CLI and the browser need to
//! rank a query with any [`Method`], opened from a blob exactly the same
//! way in both. Its [`Benchmark`] (queries and judgments) is read beside
//! it, when a caller evaluates: on STARD, analysing every query costs more
//! than loading and checking the whole blob, and a search never needs it.
//!
//! BM25 parameters are an argument of every call rather than state of the
//! pool, so a settings control never mutates what was loaded. Recomputing
//! BM25's tables per call would make a k1 × b sweep slow, so the pool keeps
//! the scorer of the last parameters used ([`Pool::scorer`]), and one
//! buffer of per-document scores that every ranking reuses.

mod benchmark;
#[cfg(test)]
mod tests;

use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use crate::analysis::{Analyzer, UnknownAnalyzer};
use crate::blob::{Blob, DenseModel, Field};
use crate::dense::{DenseIndex, Ivf};
use crate::hits::Hit;
use crate::index::InvertedIndex;
use crate::methods::{
    rank, Collection, ForwardIndex, Graph, Method, MethodError, MethodQuery, MixCache, RankError,
};
use crate::search::{
    editorial, Accumulator, Bm25Params, Bm25Scorer, EditorialShare, Explanation, IdfTable,
    ParamsError,
};

pub use benchmark::{BenchQuery, Benchmark, BenchmarkError, Grouping};

/// A pool's analyzer, index and vectors; see the module docs.
#[derive(Debug)]
pub struct Pool {
    analyzer: Analyzer,
    index: Arc<InvertedIndex>,
    idf_table: Option<IdfTable>,
    default_params: Bm25Params,
    /// Set at most once: at load, or when a light blob's vectors arrive.
    dense: OnceLock<(DenseModel, Arc<DenseIndex>)>,
    /// Inverted lists over the vectors, when given ([`Pool::add_ivf`]):
    /// the dense methods then probe `probes` lists.
    ivf: OnceLock<Ivf>,
    /// Built on the first PRF query.
    forward: OnceLock<ForwardIndex>,
    /// The scorer for the last parameters asked for.
    scorer: Mutex<Option<Arc<Bm25Scorer>>>,
    /// BM25's scores (only the last query's documents are cleared), reused
    /// by every ranking.
    scores: Mutex<Accumulator>,
    /// The editorial headings, where the blob indexes them and the weight
    /// is not 0 (see [`crate::search::editorial`]).
    editorial: Option<Editorial>,
    /// The blob's citations and definition edges, both ways, derived at
    /// load (for `prop`); `None` where it has none.
    graph: Option<Graph>,
    /// Vectors mixed along the graph, for the last share asked for
    /// (`mix`, `ctx-rrf`).
    mixed: MixCache,
    /// The method its builder chose to rank with where the vectors can be
    /// used ([`Pool::default_method`]).
    hybrid: Option<Method>,
}

/// A pool's editorial headings: their index, weight, and the scorer for
/// the last parameters used.
#[derive(Debug)]
struct Editorial {
    index: Arc<InvertedIndex>,
    weight: f64,
    scorer: Mutex<Option<Arc<Bm25Scorer>>>,
}

impl Pool {
    /// Takes the blob's text index and text vectors (see
    /// [`Blob::take_index`]). On error the blob keeps its index.
    pub fn from_blob(blob: &mut Blob) -> Result<Pool, PoolError> {
        Pool::from_blob_field(blob, Field::Text)
    }

    /// Takes the index and vectors of `field`: [`Field::Augmented`] ranks
    /// the LLM-contextualised texts (CRAwLeR-DK's baseline protocol).
    pub fn from_blob_field(blob: &mut Blob, field: Field) -> Result<Pool, PoolError> {
        let analyzer = Analyzer::by_name(blob.analyzer()).map_err(PoolError::Analyzer)?;
        let index = blob
            .take_index(field)
            .ok_or(PoolError::NoIndex(field.name()))?;
        let editorial = blob.take_editorial_index().map(|index| Editorial {
            index: Arc::new(index),
            weight: editorial::WEIGHT,
            scorer: Mutex::new(None),
        });
        let graph = Graph::new(blob.n_docs(), |d| {
            let mut out = blob.explicit_refs(d);
            out.extend(blob.definition_refs(d));
            out
        });
        let hybrid = blob
            .hybrid()
            .map(Method::parse_hybrid)
            .transpose()
            .map_err(PoolError::Hybrid)?;
        let model = blob.dense_model().cloned();
        let dense = OnceLock::new();
        if let Some(pair) = model.zip(blob.take_dense(field).map(Arc::new)) {
            let _ = dense.set(pair);
        }
        Ok(Pool {
            analyzer,
            index: Arc::new(index),
            idf_table: blob.idf_table().cloned(),
            // Validated by Blob::load.
            default_params: blob.bm25_params(),
            dense,
            ivf: OnceLock::new(),
            forward: OnceLock::new(),
            scorer: Mutex::new(None),
            scores: Mutex::new(Accumulator::new()),
            editorial,
            graph,
            mixed: MixCache::default(),
            hybrid,
        })
    }

    /// What ranks when nobody chose: where the pool's vectors can be used
    /// (`can_embed`: it has them, and queries can be embedded with their
    /// model), the pool's own hybrid if its builder chose one, else
    /// [`Method::default_for`]'s.
    pub fn default_method(&self, can_embed: bool) -> Method {
        match (&self.hybrid, can_embed) {
            (Some(hybrid), true) => *hybrid,
            _ => Method::default_for(can_embed),
        }
    }

    /// The pool with its editorial headings weighted `weight` in every
    /// lexical ranking: 0 ranks the text alone, as a reader that predates
    /// them would. No effect on a pool without them.
    pub fn with_editorial_weight(mut self, weight: f64) -> Result<Pool, PoolError> {
        if !(weight.is_finite() && weight >= 0.0) {
            return Err(PoolError::EditorialWeight(weight));
        }
        self.editorial = self.editorial.filter(|_| weight > 0.0).map(|e| Editorial {
            weight,
            scorer: Mutex::new(None),
            ..e
        });
        Ok(self)
    }

    /// The editorial headings' weight in lexical rankings, if the pool has
    /// them and adds them.
    pub fn editorial_weight(&self) -> Option<f64> {
        self.editorial.as_ref().map(|e| e.weight)
    }

    /// A pool indexed on the fly (no blob: no vectors, idf from the local
    /// `ln`).
    pub fn from_parts(
        analyzer: Analyzer,
        index: InvertedIndex,
        default_params: Bm25Params,
    ) -> Result<Pool, PoolError> {
        default_params.validate().map_err(PoolError::Params)?;
        Ok(Pool {
            analyzer,
            index: Arc::new(index),
            idf_table: None,
            default_params,
            dense: OnceLock::new(),
            ivf: OnceLock::new(),
            forward: OnceLock::new(),
            scorer: Mutex::new(None),
            scores: Mutex::new(Accumulator::new()),
            editorial: None,
            graph: None,
            mixed: MixCache::default(),
            hybrid: None,
        })
    }

    /// The citations and definition edges `prop` propagates along, if the
    /// pool has any.
    pub fn graph(&self) -> Option<&Graph> {
        self.graph.as_ref()
    }

    /// The analyzer the index was built with; queries must use it.
    pub fn analyzer(&self) -> Analyzer {
        self.analyzer
    }

    /// The inverted index over the documents' text.
    pub fn index(&self) -> &InvertedIndex {
        &self.index
    }

    /// The BM25 settings the pool was built for.
    pub fn default_params(&self) -> Bm25Params {
        self.default_params
    }

    /// The documents' vectors, shared (evaluation jobs hold them).
    pub fn dense(&self) -> Option<&Arc<DenseIndex>> {
        self.dense.get().map(|(_, d)| d)
    }

    /// The model the vectors were made with; a query encoder must match it.
    pub fn dense_model(&self) -> Option<&DenseModel> {
        self.dense.get().map(|(m, _)| m)
    }

    /// Gives a pool made without vectors the ones a light blob's vectors
    /// file brought ([`Blob::read_vectors`]); `false` if it has some.
    pub fn add_dense(&self, model: DenseModel, index: DenseIndex) -> bool {
        self.dense.set((model, Arc::new(index))).is_ok()
    }

    /// Gives the pool's vectors inverted lists (made by [`Ivf::build`] or
    /// checked by [`Ivf::from_parts`] over [`Self::dense`]); `false` if it
    /// has some, or no vectors, or the lists do not fit them.
    pub fn add_ivf(&self, ivf: Ivf) -> bool {
        let fits = self
            .dense()
            .is_some_and(|d| Ivf::check(d.dim(), d.n_vectors(), ivf.parts()).is_ok());
        fits && self.ivf.set(ivf).is_ok()
    }

    /// The inverted lists, if the pool has them.
    pub fn ivf(&self) -> Option<&Ivf> {
        self.ivf.get()
    }

    /// A BM25 scorer for `params`: the cached one when the parameters are
    /// those of the last call, else a new one (sharing the index) that
    /// replaces it.
    pub fn scorer(&self, params: &Bm25Params) -> Result<Arc<Bm25Scorer>, ParamsError> {
        self.cached_scorer(&self.scorer, &self.index, params)
    }

    /// The scorer over `index` for `params` in the cache `cell`.
    fn cached_scorer(
        &self,
        cell: &Mutex<Option<Arc<Bm25Scorer>>>,
        index: &Arc<InvertedIndex>,
        params: &Bm25Params,
    ) -> Result<Arc<Bm25Scorer>, ParamsError> {
        let mut cached = cell.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(scorer) = cached.as_ref().filter(|s| s.params() == *params) {
            return Ok(scorer.clone());
        }
        let scorer = Arc::new(Bm25Scorer::with_idf_table(
            index.clone(),
            *params,
            self.idf_table.clone(),
        )?);
        *cached = Some(scorer.clone());
        Ok(scorer)
    }

    /// The best `k` documents for the analysed query `tokens` by `method`,
    /// BM25 with `params`; `embedding` is the query's, from the pool's
    /// model, for the dense methods. See [`crate::methods`] for
    /// `positive_only`.
    pub fn rank<S: AsRef<str>>(
        &self,
        method: &Method,
        params: &Bm25Params,
        tokens: &[S],
        embedding: Option<&[f32]>,
        k: usize,
        positive_only: bool,
    ) -> Result<Vec<Hit>, RankError> {
        let scorer = self.scorer(params).map_err(RankError::Params)?;
        let editorial = match &self.editorial {
            Some(e) => Some((
                self.cached_scorer(&e.scorer, &e.index, params)
                    .map_err(RankError::Params)?,
                e.weight,
            )),
            None => None,
        };
        let collection = Collection {
            scorer: &scorer,
            forward: &self.forward,
            dense: self.dense().map(|d| &**d),
            ivf: self.ivf.get(),
            scores: &self.scores,
            editorial: editorial.as_ref().map(|(s, w)| (&**s, *w)),
            graph: self.graph.as_ref(),
            mixed: &self.mixed,
        };
        let query = MethodQuery { tokens, embedding };
        rank(method, &collection, &query, k, positive_only)
    }

    /// How BM25 with `params` scores document `doc` for `tokens`, term by
    /// term (see [`Bm25Scorer::explain`]; `None` when there is no `doc`),
    /// with the editorial heading's share where the pool adds one:
    /// [`Explanation::score`] is the lexical rankings' score, bit for bit.
    pub fn explain<S: AsRef<str>>(
        &self,
        params: &Bm25Params,
        tokens: &[S],
        doc: u32,
    ) -> Result<Option<Explanation>, ParamsError> {
        let Some(mut explained) = self.scorer(params)?.explain(tokens, doc) else {
            return Ok(None);
        };
        if let Some(e) = &self.editorial {
            let heading = self.cached_scorer(&e.scorer, &e.index, params)?;
            explained.editorial = heading.explain(tokens, doc).map(|h| EditorialShare {
                weight: e.weight,
                heading: Box::new(h),
            });
        }
        Ok(Some(explained))
    }
}

/// Why a pool cannot be opened.
#[derive(Debug, Clone, PartialEq)]
pub enum PoolError {
    /// The blob names an analyzer this build does not have.
    Analyzer(UnknownAnalyzer),
    /// The blob has no index over this field (`text`, `augmented`).
    NoIndex(&'static str),
    /// The default BM25 parameters are out of range (from parts).
    Params(ParamsError),
    /// The editorial headings' weight is negative or not a number.
    EditorialWeight(f64),
    /// The blob's hybrid default is not a fusion method this build reads.
    Hybrid(MethodError),
}

impl fmt::Display for PoolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PoolError::Analyzer(e) => write!(f, "the blob's analyzer: {e}"),
            PoolError::NoIndex(field) => write!(f, "the blob has no {field} index"),
            PoolError::Params(e) => e.fmt(f),
            PoolError::EditorialWeight(w) => write!(
                f,
                "the editorial headings' weight must be a number from 0 up, not {w}"
            ),
            PoolError::Hybrid(e) => write!(f, "the blob's hybrid default: {e}"),
        }
    }
}

impl std::error::Error for PoolError {}
