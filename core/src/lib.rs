//! Nomos core: everything that must rank identically in the native index
//! builder and in the browser. It performs no I/O; callers hand it text and
//! bytes.
//!
//! # Architecture
//!
//! Modules depend one way only, each on modules listed before it:
//!
//! 0. [`order`]: stable sorting through one compiled sort, which keeps
//!    the app's wasm small; any module may use it.
//! 1. Leaves, depending on no other module but `order`:
//!    - [`analysis`]: text to tokens, one analyzer per name;
//!    - [`index`]: the inverted index (postings, document lengths);
//!    - [`hits`]: a ranked document ([`hits::Hit`]) and top-k selection in
//!      the references' order, shared by every ranking;
//!    - [`embed`]: tokenizer and pooling for the embedding model;
//!    - [`eval`]: IR metrics with trec_eval semantics;
//!    - [`digest`]: SHA-256 in the form every manifest writes it;
//!    - [`eli`]: a Danish document's type, year and number, written as its
//!      source id, and its link at Retsinformation.
//! 2. [`search`]: BM25 ([`search::Bm25Scorer`], [`search::Bm25Params`] and
//!    their one text form, [`search::IdfTable`], per-term
//!    [`search::Explanation`]s), [`search::Searcher`] for free text, and
//!    [`search::highlight`]ing; on analysis, index and hits.
//! 3. [`dense`]: quantised document embeddings (int8 and 1-bit codes); on
//!    hits.
//! 4. [`methods`]: [`methods::Method`] names a ranking (BM25, dense,
//!    feedback, fusion, the context methods along citations and
//!    definitions) with its parameters; on index, hits, search and
//!    dense.
//! 5. [`blob`]: the versioned index file the browser loads, storing what
//!    analysis, index, search and dense define.
//!    Beside it, [`fragments`]: a pool cut into a meta file and
//!    content-addressed fragments for a static host; the caller fetches
//!    the files [`fragments::Meta`] names for a query, core checks and
//!    ranks them to the bit as over the blob; on blob, methods and below.
//!    Beside both, [`facets`]: a result list's facets (source, area,
//!    document type, year) and filters, counted alike over a blob and a
//!    fragmented pool's meta; on blob, fragments, eli and hits.
//! 6. [`pool`]: a loaded [`pool::Pool`] ready to rank with any method
//!    ([`pool::Pool::rank`], the one entry point; BM25 parameters per call)
//!    and, read beside it when evaluating, its [`pool::Benchmark`]
//!    (queries, judgments); on everything above. Beside it, [`cite`]:
//!    citations in a query (`strfl. § 244`, `ΑΚ 914`) resolved to a
//!    blob's articles by its acts' names and numbers; on blob.
//! 7. [`llm`]: the LLM methods (reformulation, the ReAct-BM25 loop,
//!    contextual chunks) with versioned prompts and replayable transcripts,
//!    one ranking by any LLM method ([`llm::rank`]) and one policy for a
//!    failing endpoint ([`llm::retry`]); async over a [`llm::Chat`] the
//!    caller implements (HTTP in the CLI, `fetch` or an in-page model in
//!    the browser); on pool and everything above.
//!
//! # Example
//!
//! A blob of three documents and one judged query, opened as a pool,
//! ranked with BM25 and evaluated:
//!
//! ```
//! use nomos_core::analysis::Analyzer;
//! use nomos_core::blob::{self, Blob, BlobInput, DocumentInput, JudgmentInput, Manifest, QueryInput};
//! use nomos_core::eval::{evaluate, Run};
//! use nomos_core::index::InvertedIndex;
//! use nomos_core::methods::Method;
//! use nomos_core::pool::{Benchmark, Pool};
//! use nomos_core::search::Bm25Params;
//!
//! let analyzer = Analyzer::by_name("da").unwrap();
//! let texts = ["Lejeren betaler husleje", "Udlejeren vedligeholder ejendommen", "Skat af husleje"];
//! let documents: Vec<DocumentInput> = texts
//!     .iter()
//!     .enumerate()
//!     .map(|(i, text)| DocumentInput {
//!         id: format!("d{i}"),
//!         text: text.to_string(),
//!         ..Default::default()
//!     })
//!     .collect();
//! let queries = [QueryInput { id: "q1".into(), text: "husleje skat".into(), area: None }];
//! let judgments = [JudgmentInput { query_id: "q1".into(), doc_id: "d2".into(), relevance: 1 }];
//! let index = InvertedIndex::build(texts.iter().map(|t| analyzer.tokens(t))).unwrap();
//! let input = BlobInput {
//!     sources: &[],
//!     builder: "doctest".into(),
//!     analyzer: analyzer.name().into(),
//!     bm25: Bm25Params::default().into(),
//!     manifest: Manifest::default(),
//!     documents: &documents,
//!     queries: &queries,
//!     judgments: &judgments,
//!     text_index: &index,
//!     augmented_index: None,
//!     editorial_index: None,
//!     dense: None,
//! };
//! let (bytes, _) = blob::encode(&input).unwrap();
//!
//! let mut blob = Blob::load(&bytes).unwrap();
//! let pool = Pool::from_blob(&mut blob).unwrap();
//! let bench = Benchmark::from_blob(&blob, &pool.analyzer()).unwrap();
//! let params = pool.default_params();
//! let mut run = Run::new();
//! for q in &bench.queries {
//!     let hits = pool.rank(&Method::Bm25, &params, &q.tokens, None, 10, true).unwrap();
//!     run.add_query(&q.id);
//!     for hit in &hits {
//!         run.push(&q.id, &bench.doc_ids[hit.doc as usize], hit.score).unwrap();
//!     }
//! }
//! // d2 has both query terms, d0 one: d2 ranks first, and is the gold.
//! assert_eq!(run.get("q1").unwrap()[0].0, "d2");
//! let measures = ["ndcg@10".parse().unwrap()];
//! let evaluation = evaluate(&bench.qrels, &run, &measures);
//! assert_eq!(evaluation.means, [1.0]);
//! ```

#![warn(missing_docs)]

pub mod analysis;
pub mod blob;
pub mod cite;
pub mod dense;
pub mod digest;
pub mod eli;
pub mod embed;
pub mod eval;
pub mod facets;
pub mod fragments;
pub mod hits;
pub mod index;
pub mod llm;
pub mod methods;
pub mod order;
pub mod pool;
pub mod search;
