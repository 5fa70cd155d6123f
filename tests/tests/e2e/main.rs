//! The browser app end to end, in headless Chromium: search in Danish and
//! Greek with the CLI's ranking, read articles and follow their
//! cross-references, evaluate STARD's queries to the CLI's metrics, and
//! get a clear error (not a dead page) from a damaged blob; run the LLM
//! methods against a real local model and replay them by link. Expectations
//! come from the data: the `nomos` CLI's rankings and metrics, and the
//! blobs' own reference graphs.
//!
//! Needs the built app and a browser; `scripts/test.sh` provides both.

mod article;
mod augmented_field;
mod citation;
mod damaged;
mod dense;
mod evaluate;
mod explain;
mod fetch_limits;
mod filters;
mod fragmented;
mod fragmented_dense;
mod fragmented_pool;
mod framed;
mod hostile_host;
mod hostile_links;
mod hostile_text;
mod imported_run;
mod in_page_llm;
mod judgments;
mod keep_act;
mod keyboard;
mod light;
mod llm;
mod loading;
mod memory;
mod native;
mod offline;
mod search;
mod shared_origin;
mod shared_url;
mod smooth;
mod subpath;
