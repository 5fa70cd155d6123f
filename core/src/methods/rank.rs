//! Ranking a query with any [`Method`], for
//! `Pool::rank` (in the pool module, above this one).

use std::fmt;
use std::sync::{Mutex, OnceLock};

use super::feedback::{expansion_terms, ForwardIndex};
use super::fusion::{fuse_hybrid, rrf};
use super::mix::MixCache;
use super::propagate::{self, Direction, Graph};
use super::spec::{Method, MethodError};
use crate::dense::{DenseError, DenseIndex, Ivf};
use crate::hits::Hit;
use crate::search::{editorial, Accumulator, Bm25Scorer, ParamsError};

/// What queries are ranked against. Keep one per pool and reuse it: the
/// forward index is built from `scorer`'s index on the first PRF query.
pub struct Collection<'a> {
    pub scorer: &'a Bm25Scorer,
    /// Must belong to `scorer`'s index (start from an empty cell).
    pub forward: &'a OnceLock<ForwardIndex>,
    /// Document vectors over the same documents, if the pool has them.
    pub dense: Option<&'a DenseIndex>,
    /// Inverted lists over `dense`'s vectors, if any: dense rankings probe
    /// the methods' `probes` lists; without them `probes` is ignored and
    /// dense rankings are brute force (what probing every list gives).
    pub ivf: Option<&'a Ivf>,
    /// BM25's scores, reused from query to query: the largest allocation
    /// a query would otherwise make.
    pub scores: &'a Mutex<Accumulator>,
    /// The editorial headings' scorer (same parameters, same documents) and
    /// its weight, where the pool adds them to BM25 (see
    /// [`crate::search::editorial`]).
    pub editorial: Option<(&'a Bm25Scorer, f64)>,
    /// Citations and definition edges, where the pool has any (for
    /// [`Method::Prop`], [`Method::Mix`] and [`Method::CtxRrf`]).
    pub graph: Option<&'a Graph>,
    /// The mixed vectors of the last share asked for.
    pub mixed: &'a MixCache,
}

/// A query as the methods need it. The embedding is computed elsewhere
/// (natively with ONNX Runtime, in the browser with onnxruntime-web) with
/// the model the vectors were built with, and L2-normalised.
pub struct MethodQuery<'a, S> {
    /// The analyzer's tokens of the query text.
    pub tokens: &'a [S],
    pub embedding: Option<&'a [f32]>,
}

/// Ranks `query` with `method` and returns the best `k` documents, best
/// first, ties in corpus order.
///
/// `positive_only` concerns the lexical methods (`bm25`, `prf`): documents
/// sharing no term with the query are left out rather than filling the
/// ranking with zero scores. Lists that are fused or fed back are always
/// positive-only. Dense scores (cosines) are never filtered.
pub fn rank<S: AsRef<str>>(
    method: &Method,
    collection: &Collection<'_>,
    query: &MethodQuery<'_, S>,
    k: usize,
    positive_only: bool,
) -> Result<Vec<Hit>, RankError> {
    method.validate().map_err(RankError::Method)?;
    let scorer = collection.scorer;
    let bm25 = |tokens: &[&str], k: usize, positive_only: bool| {
        let mut hits = Vec::new();
        match collection.editorial {
            Some((headings, weight)) => editorial::search_into(
                scorer,
                headings,
                weight,
                tokens,
                k,
                positive_only,
                &mut hits,
            ),
            None => {
                let mut scores = collection.scores.lock().unwrap_or_else(|e| e.into_inner());
                scorer.search_into(tokens, k, positive_only, &mut scores, &mut hits);
            }
        }
        hits
    };
    let tokens: Vec<&str> = query.tokens.iter().map(AsRef::as_ref).collect();
    let dense = || -> Result<(&DenseIndex, &[f32]), RankError> {
        let index = collection.dense.ok_or(RankError::NoDenseVectors)?;
        if index.n_docs() != scorer.index().n_docs() {
            return Err(RankError::SizeMismatch {
                lexical: scorer.index().n_docs(),
                dense: index.n_docs(),
            });
        }
        let embedding = query.embedding.ok_or(RankError::NoQueryEmbedding)?;
        index.check_query(embedding).map_err(RankError::Dense)?;
        Ok((index, embedding))
    };
    // Dense top `k` for `q`, probing `probes` lists where there are lists.
    let search = |index: &DenseIndex, q: &[f32], k: usize, probes: usize| {
        match collection.ivf {
            Some(ivf) => index.search_ivf(ivf, q, k, probes),
            None => index.search(q, k),
        }
        .map_err(RankError::Dense)
    };
    let graph = || -> Result<&Graph, RankError> {
        let graph = collection.graph.ok_or(RankError::NoGraph)?;
        let n_docs = scorer.index().n_docs();
        match graph.n_docs() == n_docs {
            true => Ok(graph),
            false => Err(RankError::GraphMismatch {
                lexical: n_docs,
                graph: graph.n_docs(),
            }),
        }
    };
    let prop = |share: f64, dir: Direction, k: usize, positive_only: bool| {
        let graph = graph()?;
        Ok::<_, RankError>(match collection.editorial {
            Some((headings, weight)) => {
                let scores = editorial::scores(scorer, headings, weight, &tokens);
                propagate::rank(graph, dir, share, &scores, None, k, positive_only)
            }
            None => {
                let mut scores = collection.scores.lock().unwrap_or_else(|e| e.into_inner());
                scorer.accumulate(&tokens, &mut scores);
                let (all, touched) = (scores.scores(), scores.touched());
                propagate::rank(graph, dir, share, all, touched, k, positive_only)
            }
        })
    };
    // Brute force over the mixed vectors for `share`.
    let mixed = |share: f64, k: usize| {
        let (index, q) = dense()?;
        let mixed = collection
            .mixed
            .get(index, graph()?, share)
            .map_err(RankError::Dense)?;
        mixed.search(q, k).map_err(RankError::Dense)
    };
    let hits = match *method {
        Method::Bm25 => bm25(&tokens, k, positive_only),
        Method::Dense { probes } => {
            let (index, q) = dense()?;
            search(index, q, k, probes)?
        }
        Method::DenseBinary { candidates } => {
            let (index, q) = dense()?;
            index
                .search_binary(q, k, candidates)
                .map_err(RankError::Dense)?
        }
        Method::Prf { docs, terms } => {
            let top = bm25(&tokens, docs, true);
            let index = scorer.index();
            let forward = collection
                .forward
                .get_or_init(|| ForwardIndex::build(index));
            let feedback: Vec<u32> = top.iter().map(|h| h.doc).collect();
            let own: Vec<u32> = tokens.iter().filter_map(|t| index.term_id(t)).collect();
            let mut expanded = tokens.clone();
            for term in expansion_terms(index, forward, &feedback, terms, &own) {
                expanded.extend(index.term(term));
            }
            bm25(&expanded, k, positive_only)
        }
        Method::Rocchio {
            docs,
            alpha,
            beta,
            probes,
        } => {
            let (index, q) = dense()?;
            let top = search(index, q, docs, probes)?;
            let feedback: Vec<u32> = top.iter().map(|h| h.doc).collect();
            let moved = index.rocchio(q, &feedback, alpha, beta);
            search(index, &moved, k, probes)?
        }
        Method::Rrf { depth, probes, .. } | Method::Weighted { depth, probes, .. } => {
            let (index, q) = dense()?;
            let lexical = bm25(&tokens, depth, true);
            let semantic = search(index, q, depth, probes)?;
            fuse_hybrid(method, &lexical, &semantic, k).expect("a hybrid method")
        }
        Method::Prop { share, dir } => prop(share, dir, k, positive_only)?,
        Method::Mix { share } => mixed(share, k)?,
        Method::CtxRrf {
            k: rrf_k,
            depth,
            share,
            dir,
            mix,
        } => {
            let lexical = prop(share, dir, depth, true)?;
            let semantic = mixed(mix, depth)?;
            let mut fused = rrf(&[&lexical, &semantic], rrf_k);
            fused.truncate(k);
            fused
        }
        Method::ReformSparse
        | Method::ReformDense
        | Method::ReformHybrid { .. }
        | Method::ReactBm25 { .. } => return Err(RankError::NeedsLlm(method.name())),
    };
    Ok(hits)
}

/// Why a query could not be ranked with a method.
#[derive(Debug, Clone, PartialEq)]
pub enum RankError {
    /// The method's parameters are out of range.
    Method(MethodError),
    /// The BM25 parameters are out of range.
    Params(ParamsError),
    /// A dense method on a pool without document vectors.
    NoDenseVectors,
    /// A dense method without a query embedding.
    NoQueryEmbedding,
    /// The vectors cover another number of documents than the index.
    SizeMismatch {
        /// Documents in the index.
        lexical: usize,
        /// Documents with vectors.
        dense: usize,
    },
    /// The query embedding does not fit the vectors.
    Dense(DenseError),
    /// A context method on a pool with no citation or definition edge.
    NoGraph,
    /// The graph covers another number of documents than the index.
    GraphMismatch {
        /// Documents in the index.
        lexical: usize,
        /// Documents in the graph.
        graph: usize,
    },
    /// An LLM method: the caller reformulates with
    /// the `llm` module's `reform` or runs its `react` loop first.
    NeedsLlm(&'static str),
}

impl fmt::Display for RankError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RankError::Method(e) => e.fmt(f),
            RankError::Params(e) => e.fmt(f),
            RankError::NoDenseVectors => f.write_str("this pool has no dense vectors"),
            RankError::NoQueryEmbedding => {
                f.write_str("a dense method needs the query's embedding")
            }
            RankError::SizeMismatch { lexical, dense } => write!(
                f,
                "the dense vectors cover {dense} documents but the index {lexical}"
            ),
            RankError::Dense(e) => e.fmt(f),
            RankError::NoGraph => f.write_str(
                "the context methods (`prop`, `mix`, `ctx-rrf`) follow citations and \
                 definitions, and this pool has none",
            ),
            RankError::GraphMismatch { lexical, graph } => write!(
                f,
                "the graph covers {graph} documents but the index {lexical}"
            ),
            RankError::NeedsLlm(name) => write!(f, "`{name}` needs an LLM endpoint"),
        }
    }
}

impl std::error::Error for RankError {}
