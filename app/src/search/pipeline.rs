//! From the committed query to what the Search view lists, with no
//! browser in sight (so it is tested natively, as `url_state` is): which
//! method really ranks (BM25 stands in while a dense method cannot run
//! yet, or until an LLM method has ranked, and says why; BM25 shows
//! while the query is embedded, and the semantic ranking then replaces
//! it, saying so) and the ranking; the facets and filters are
//! [`nomos_core::facets`]'. The reactive glue (debounce, embedding, memos) is
//! the search store's.

use nomos_core::blob::Field;
use nomos_core::hits::Hit;
use nomos_core::methods::Method;
use nomos_core::search::Bm25Params;

use crate::pool::engine::{Engine, Ranking};

/// A ranking, the method that made it, and how long it took.
#[derive(Debug, Clone, PartialEq)]
pub struct Timed {
    pub ranking: Ranking,
    pub millis: f64,
    pub method: Method,
    /// The field that ranked.
    pub field: Field,
    /// Why BM25 stands in for the chosen dense method, if it does.
    pub fallback: Option<String>,
    /// How long embedding the query took, for dense methods.
    pub embed_millis: Option<f64>,
    /// The query ranked.
    pub query: String,
    /// BM25 results shown while the query is embedded (in the model's
    /// worker): the chosen dense method's follow.
    pub pending: bool,
    /// These semantic results replaced BM25's for the same query.
    pub updated: bool,
}

/// What the dense side has for the committed query.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum QueryVector<'a> {
    /// The query's embedding, and how long it took.
    Embedded { vector: &'a [f32], millis: f64 },
    /// Embedding this query failed, for this reason.
    Failed(&'a str),
    /// The model is ready and is embedding this query.
    Embedding,
    /// The model cannot embed yet, for this reason.
    Waiting(&'a str),
}

/// What an LLM method has for the committed query.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LlmHits<'a> {
    /// Its ranking, the text whose words to mark, and how long it took.
    Ranked {
        hits: &'a [Hit],
        marked: &'a str,
        millis: f64,
    },
    /// None yet, for this reason (not asked, asking, failed).
    Pending(&'a str),
}

/// What to rank.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    pub query: &'a str,
    pub method: Method,
    pub params: Bm25Params,
    /// The field chosen (the text where the pool lacks it).
    pub field: Field,
    /// Only read when `method` needs a query embedding.
    pub vector: QueryVector<'a>,
    /// Only read when `method` needs an LLM.
    pub llm: LlmHits<'a>,
}

/// Ranks `request` on `engine`, timing it with `clock` (milliseconds).
/// While a dense method's query is being embedded, BM25 ranks it at once
/// (`pending`); the semantic ranking that follows is `updated` when it
/// replaces BM25's for the same query (`previous`). `None` only when not
/// even BM25 can rank.
pub fn rank(
    engine: &Engine,
    request: &Request<'_>,
    previous: Option<&Timed>,
    clock: &dyn Fn() -> f64,
) -> Option<Timed> {
    let asked = !request.query.trim().is_empty();
    let llm = request.method.needs_llm();
    if let (
        true,
        true,
        LlmHits::Ranked {
            hits,
            marked,
            millis,
        },
    ) = (llm, asked, request.llm)
    {
        return Some(Timed {
            ranking: engine.ranking_of(hits.to_vec(), marked),
            millis,
            method: request.method,
            field: engine.field_for(request.field),
            fallback: None,
            embed_millis: None,
            query: request.query.to_owned(),
            pending: false,
            updated: false,
        });
    }
    let wanted = !llm && request.method.needs_dense() && asked;
    let pending = wanted && request.vector == QueryVector::Embedding;
    let (vector, embed_millis, fallback) = match (wanted, request.vector) {
        (false, _) | (true, QueryVector::Embedding) => (None, None, None),
        (true, QueryVector::Embedded { vector, millis }) => (Some(vector), Some(millis), None),
        (true, QueryVector::Failed(reason)) => (None, None, Some(reason.to_owned())),
        (true, QueryVector::Waiting(reason)) => (None, None, Some(reason.to_owned())),
    };
    let fallback = match (llm && asked, request.llm) {
        (true, LlmHits::Pending(reason)) => Some(reason.to_owned()),
        _ => fallback,
    };
    let used = match fallback.is_some() || llm || pending {
        true => Method::Bm25,
        false => request.method,
    };
    let field = engine.field_for(request.field);
    let started = clock();
    let ranked = engine.rank(field, &used, &request.params, request.query, vector);
    let millis = clock() - started;
    let (ranking, used, fallback, pending) = match ranked {
        Ok(r) => (r, used, fallback, pending),
        Err(e) => (
            engine
                .rank(field, &Method::Bm25, &request.params, request.query, None)
                .ok()?,
            Method::Bm25,
            Some(e.to_string()),
            false,
        ),
    };
    let updated = used.needs_dense()
        && previous
            .is_some_and(|p| p.query == request.query && (p.pending || p.fallback.is_some()));
    Some(Timed {
        ranking,
        millis,
        method: used,
        field,
        fallback,
        embed_millis: embed_millis.filter(|_| used.needs_dense()),
        query: request.query.to_owned(),
        pending,
        updated,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pool::engine::tests::engine;

    fn request<'a>(query: &'a str, method: Method, vector: QueryVector<'a>) -> Request<'a> {
        Request {
            query,
            method,
            params: Bm25Params::default(),
            field: Field::Text,
            vector,
            llm: LlmHits::Pending("not asked"),
        }
    }

    fn docs(t: &Timed) -> Vec<u32> {
        t.ranking.hits.iter().map(|h| h.doc).collect()
    }

    const CLOCK: &dyn Fn() -> f64 = &|| 0.0;

    #[test]
    fn the_chosen_field_ranks_and_is_reported() {
        let e = crate::pool::engine::tests::augmented_engine();
        let mut r = request("skat", Method::Bm25, QueryVector::Embedding);
        let text = rank(&e, &r, None, CLOCK).unwrap();
        r.field = Field::Augmented;
        let augmented = rank(&e, &r, None, CLOCK).unwrap();
        assert_eq!(
            (text.field, augmented.field),
            (Field::Text, Field::Augmented)
        );
        assert_ne!(docs(&text), docs(&augmented));
        // A pool without the field says the text ranked.
        assert_eq!(rank(&engine(), &r, None, CLOCK).unwrap().field, Field::Text);
    }

    #[test]
    fn bm25_ranks_matching_documents() {
        let e = engine();
        let t = rank(
            &e,
            &request("skat", Method::Bm25, QueryVector::Embedding),
            None,
            CLOCK,
        )
        .unwrap();
        assert_eq!(t.method, Method::Bm25);
        assert_eq!(t.fallback, None);
        assert_eq!(t.embed_millis, None);
        assert_eq!(docs(&t), [0, 2]);
    }

    #[test]
    fn a_dense_method_waits_with_bm25_and_says_why() {
        let e = engine();
        let rrf = Method::default_for(true);
        let waiting = request(
            "skat",
            rrf,
            QueryVector::Waiting("the model is downloading"),
        );
        let t = rank(&e, &waiting, None, CLOCK).unwrap();
        assert_eq!(t.method, Method::Bm25);
        assert_eq!(t.fallback.as_deref(), Some("the model is downloading"));
        assert_eq!(docs(&t), [0, 2]);

        let failed = request("skat", rrf, QueryVector::Failed("no model"));
        let t = rank(&e, &failed, None, CLOCK).unwrap();
        assert_eq!(t.fallback.as_deref(), Some("no model"));
    }

    #[test]
    fn a_dense_method_the_pool_cannot_run_falls_back_with_the_reason() {
        // The test pool has no vectors: an embedding does not help.
        let e = engine();
        let vector = [0.0f32; 4];
        let embedded = QueryVector::Embedded {
            vector: &vector,
            millis: 5.0,
        };
        let t = rank(
            &e,
            &request("skat", Method::Dense { probes: 0 }, embedded),
            None,
            CLOCK,
        )
        .unwrap();
        assert_eq!(t.method, Method::Bm25);
        let reason = t.fallback.clone().unwrap();
        assert!(reason.contains("no dense vectors"), "{reason}");
        assert_eq!(docs(&t), [0, 2]);
    }

    #[test]
    fn bm25_shows_while_embedding_and_semantic_results_then_say_they_updated_it() {
        let e = crate::pool::engine::tests::dense_engine();
        let embedding = request("skat", Method::Dense { probes: 0 }, QueryVector::Embedding);
        let bm25 = rank(&e, &embedding, None, CLOCK).unwrap();
        assert_eq!(
            (bm25.method, bm25.pending, bm25.updated),
            (Method::Bm25, true, false)
        );
        assert_eq!(bm25.fallback, None, "BM25 is not standing in for a failure");
        assert_eq!(docs(&bm25), [0, 2]);

        let vector = [0.0f32, 1.0];
        let embedded = QueryVector::Embedded {
            vector: &vector,
            millis: 5.0,
        };
        let dense = request("skat", Method::Dense { probes: 0 }, embedded);
        let merged = rank(&e, &dense, Some(&bm25), CLOCK).unwrap();
        assert_eq!(
            (merged.method, merged.pending, merged.updated),
            (Method::Dense { probes: 0 }, false, true)
        );
        assert_eq!(merged.embed_millis, Some(5.0));
        assert_eq!(docs(&merged)[0], 1);
        // Not after a ranking of another query, nor of the same by the
        // method itself (BM25 parameters changed, say).
        let other = rank(
            &e,
            &request("lov", Method::Dense { probes: 0 }, QueryVector::Embedding),
            None,
            CLOCK,
        );
        assert!(!rank(&e, &dense, other.as_ref(), CLOCK).unwrap().updated);
        assert!(!rank(&e, &dense, Some(&merged), CLOCK).unwrap().updated);
        // After BM25 stood in (the model was loading), it did update.
        let waiting = request(
            "skat",
            Method::Dense { probes: 0 },
            QueryVector::Waiting("loading"),
        );
        let stood_in = rank(&e, &waiting, None, CLOCK).unwrap();
        assert!(!stood_in.pending);
        assert!(rank(&e, &dense, Some(&stood_in), CLOCK).unwrap().updated);
    }

    #[test]
    fn an_llm_method_shows_bm25_until_it_has_ranked() {
        let e = engine();
        let react: Method = "react-bm25".parse().unwrap();
        let mut r = request("skat", react, QueryVector::Embedding);
        r.llm = LlmHits::Pending("press Enter to ask the LLM");
        let t = rank(&e, &r, None, CLOCK).unwrap();
        assert_eq!((t.method, docs(&t)), (Method::Bm25, vec![0, 2]));
        assert_eq!(t.fallback.as_deref(), Some("press Enter to ask the LLM"));
        let hits = [Hit {
            doc: 1,
            score: 100.0,
        }];
        r.llm = LlmHits::Ranked {
            hits: &hits,
            marked: "lov",
            millis: 2500.0,
        };
        let t = rank(&e, &r, None, CLOCK).unwrap();
        assert_eq!((t.method, docs(&t), t.millis), (react, vec![1], 2500.0));
        assert_eq!(t.fallback, None);
        assert!(!t.ranking.terms.is_empty(), "the keywords are marked");
        // No query: nothing to ask, no reason to give.
        let empty = request(" ", react, QueryVector::Embedding);
        let t = rank(&e, &empty, None, CLOCK).unwrap();
        assert_eq!((t.fallback, t.ranking.hits.len()), (None, 0));
    }

    #[test]
    fn bm25_parameters_are_the_requests() {
        let e = engine();
        let mut a = request("skat lov", Method::Bm25, QueryVector::Embedding);
        let default = rank(&e, &a, None, CLOCK).unwrap();
        a.params.k1 = 0.2;
        a.params.b = 0.0;
        let changed = rank(&e, &a, None, CLOCK).unwrap();
        assert_eq!(default.ranking.hits.len(), changed.ranking.hits.len());
        assert_ne!(default.ranking.hits, changed.ranking.hits);
    }
}
