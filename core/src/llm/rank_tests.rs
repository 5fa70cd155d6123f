//! Ranking a query by each kind of LLM method, over a three-article
//! Danish pool and a scripted model.

use std::cell::RefCell;

use super::rank::{rank_with_llm, LlmQuery, LlmRankError, Step, Trace};
use super::reform::Reform;
use super::tests::{block_on, Scripted};
use super::*;
use crate::blob::test_blob::danish_blob;
use crate::blob::{Blob, DocumentInput};
use crate::pool::Pool;

/// A1 "skat", A2 neither word, B1 "skat" and "afgifter".
fn pool() -> (Pool, Blob) {
    let doc = |id: &str, text: &str| DocumentInput {
        id: id.into(),
        title: format!("§ {id}"),
        text: text.into(),
        ..Default::default()
    };
    let documents = [
        doc("A1", "Skat af indkomst betales hvert år."),
        doc("A2", "Denne lov træder i kraft i dag."),
        doc(
            "B1",
            "Afgifter og skat opkræves af staten efter mange lange regler her.",
        ),
    ];
    let mut blob = Blob::load(&danish_blob(&documents, &[], &[], None)).unwrap();
    let pool = Pool::from_blob(&mut blob).unwrap();
    (pool, blob)
}

/// A model that keeps to the script: "skat" and "afgifter" as keywords,
/// "skat" as the planner's query; the observer keeps B1 when it is shown.
fn lawyer(request: &ChatRequest, _: usize) -> String {
    let asked = request.schema.as_ref().map_or("", |s| s.name.as_str());
    let user = &request.messages.last().expect("a message").content;
    match asked {
        "keep" if user.contains("[B1]") => r#"{"keep": ["B1"]}"#.into(),
        "keep" => r#"{"keep": []}"#.into(),
        "keywords" => r#"{"keywords": ["skat", "afgifter"]}"#.into(),
        _ => r#"{"query": "skat"}"#.into(),
    }
}

async fn no_embedding(_: String) -> Result<Vec<f32>, String> {
    Err("no model in this test".to_owned())
}

fn settings() -> Settings {
    Settings {
        model: "m".into(),
        ..Settings::default()
    }
}

fn query<'a>(pool: &'a (Pool, Blob), method: &str, settings: &'a Settings) -> LlmQuery<'a> {
    LlmQuery {
        pool: &pool.0,
        blob: &pool.1,
        method: method.parse().unwrap(),
        params: pool.0.default_params(),
        settings,
        prompts: Prompts::for_analyzer("da"),
        k: 10,
        positive_only: true,
    }
}

#[test]
fn keywords_are_ranked_with_bm25_and_marked() {
    let (p, s) = (pool(), settings());
    let llm = Scripted::new(lawyer);
    let steps = RefCell::new(Vec::new());
    let out = block_on(rank_with_llm(
        &llm,
        &query(&p, "reform-sparse", &s),
        "hvem betaler?",
        no_embedding,
        &|s| steps.borrow_mut().push(s),
    ))
    .unwrap();
    assert_eq!(out.marked, "skat; afgifter");
    let docs: Vec<u32> = out.hits.iter().map(|h| h.doc).collect();
    assert_eq!(docs, [2, 0], "B1 has both words, A1 one");
    assert_eq!(*steps.borrow(), [Step::Reformulating(Reform::Sparse)]);
    assert_eq!(out.trace.cost().calls, 1);
}

#[test]
fn react_keeps_what_the_observer_kept_and_replays_identically() {
    let (p, s) = (pool(), settings());
    let recorder = Recorder::new(Scripted::new(lawyer));
    let q = query(&p, "react-bm25:rounds=2,candidates=3,chars=50", &s);
    let steps = RefCell::new(Vec::new());
    let live = block_on(rank_with_llm(&recorder, &q, "skat?", no_embedding, &|s| {
        steps.borrow_mut().push(s.describe())
    }))
    .unwrap();
    assert_eq!(live.hits.iter().map(|h| h.doc).collect::<Vec<_>>(), [2]);
    let Trace::React(run) = &live.trace else {
        panic!("{:?}", live.trace)
    };
    assert_eq!(run.rounds.len(), 2);
    assert_eq!(run.cost.calls, 4, "a planner and an observer per round");
    assert_eq!(steps.borrow()[0], "round 1 of 2: planning a search");
    assert_eq!(steps.borrow()[5], "round 2 of 2: reading the candidates");
    // The transcript replays to the same ranking, with no model.
    let transcript = recorder.transcript();
    let replayed = block_on(rank_with_llm(
        &transcript,
        &q,
        "skat?",
        no_embedding,
        &|_| {},
    ))
    .unwrap();
    assert_eq!(replayed, live);
    // Another query is not in it: a clear error, not a ranking.
    let missing = block_on(rank_with_llm(
        &transcript,
        &q,
        "lov?",
        no_embedding,
        &|_| {},
    ));
    assert!(matches!(
        missing,
        Err(LlmRankError::Llm(LlmError::NotInTranscript { .. }))
    ));
}

#[test]
fn an_unusable_reply_falls_back_to_the_query_and_says_so() {
    let (p, s) = (pool(), settings());
    let llm = Scripted::new(|_: &ChatRequest, _: usize| "I cannot help with that.".to_owned());
    let out = block_on(rank_with_llm(
        &llm,
        &query(&p, "reform-sparse", &s),
        "skat",
        no_embedding,
        &|_| {},
    ))
    .unwrap();
    assert_eq!(llm.seen.borrow().len(), 2, "asked once more, then gave up");
    let Trace::Reform {
        keywords: Some(k), ..
    } = &out.trace
    else {
        panic!()
    };
    assert!(k.failure.is_some());
    assert_eq!((k.text.as_str(), out.trace.cost().failures), ("skat", 1));
    assert_eq!(out.hits.len(), 2, "BM25 ranked the query itself");
}

#[test]
fn a_dense_reformulation_needs_an_embedding() {
    let (p, s) = (pool(), settings());
    let llm = Scripted::new(|_: &ChatRequest, _: usize| r#"{"statement": "tax"}"#.to_owned());
    let out = block_on(rank_with_llm(
        &llm,
        &query(&p, "reform-dense", &s),
        "skat",
        no_embedding,
        &|_| {},
    ));
    assert_eq!(
        out,
        Err(LlmRankError::Embed("no model in this test".into()))
    );
}

#[test]
fn a_method_without_an_llm_is_refused() {
    let (p, s) = (pool(), settings());
    let llm = Scripted::new(lawyer);
    let out = block_on(rank_with_llm(
        &llm,
        &query(&p, "bm25", &s),
        "skat",
        no_embedding,
        &|_| {},
    ));
    let Err(e) = out else { panic!("{out:?}") };
    assert_eq!(e.to_string(), "bm25 is not an LLM method");
    assert!(llm.seen.borrow().is_empty(), "nothing asked");
}
