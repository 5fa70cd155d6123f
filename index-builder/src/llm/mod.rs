//! The CLI's side of the LLM methods. The methods themselves (prompts,
//! reformulation, the ReAct-BM25 loop, transcripts) are in
//! `nomos_core::llm`, with no I/O; this module brings what they need to
//! run from a terminal:
//!
//! - [`args`]: the `--llm-*`, `--transcript` and `--replay` flags and the
//!   model settings they make;
//! - [`http`]: [`Chat`](nomos_core::llm::Chat) over an OpenAI-compatible
//!   endpoint (retries, backoff, response-format fallback, timing);
//! - [`journal`]: recording a transcript as the run goes;
//! - [`backend`]: the run's LLM, live or replayed, recorded, stoppable;
//! - [`block_on`]: running core's async functions on a worker thread.

mod args;
mod backend;
mod block_on;
mod http;
mod journal;

pub use args::LlmArgs;
pub use backend::{Backend, Origin};
pub use block_on::block_on;
pub use journal::Saved;

#[cfg(test)]
mod tests;
