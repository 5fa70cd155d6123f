//! The LLM methods of GreekBarRetrieval and CRAwLeR-DK: query
//! reformulation ([`reform`]), the ReAct-BM25 planner/observer loop
//! ([`react`]) and contextual chunks ([`augment`]), with no I/O (and the
//! [`contextual`] queries of a CRAwLeR-style query set): the CLI
//! and the browser bring the transport by implementing [`Chat`] over an
//! OpenAI-compatible endpoint (or an in-page model), and a
//! [`Transcript`] records every exchange so that a run replays, with no
//! LLM, to the identical ranking.
//!
//! Every request is built here from versioned [`prompts`] and the run's
//! [`Settings`]; replies are read leniently ([`reply`]) and a reply that is
//! not the JSON asked for is retried once, then recorded as a failure.
//! [`rank`] ranks a query by any LLM method, for the browser and the CLI
//! alike; [`retry`] is the one policy their transports follow when an
//! endpoint fails.

mod ask;
pub mod augment;
mod backend;
mod chat;
pub mod contextual;
mod corpus;
pub mod estimate;
pub mod fit;
pub mod prompts;
pub mod rank;
pub mod react;
pub mod reform;
pub mod reply;
pub mod retry;
mod transcript;

pub use ask::{Cost, Failure, Settings};
pub use backend::{Chat, LlmError};
pub use chat::{
    ChatReply, ChatRequest, Message, ReplyError, ResponseFormat, Retried, Role, Schema,
    TokenLimitField, Usage,
};
pub use corpus::{observed_text, Corpus, PoolCorpus};
pub use prompts::Prompts;
pub use transcript::{Exchange, Recorder, Transcript, TranscriptError};

#[cfg(test)]
mod rank_tests;
#[cfg(test)]
mod tests;
