//! Which pool is loaded: the site's manifest, loading a pool
//! ([`store`]), the [`session`] that owns a loaded pool's stores (search,
//! evaluation, judgments, the LLM run), and a fragmented pool's fetched
//! fragments and results ([`frag_store`]) with why a step failed
//! ([`frag_error`]), and which of its acts this browser keeps offline
//! ([`kept_acts`]).

pub mod frag_error;
pub mod frag_store;
pub mod kept_acts;
pub mod session;
pub mod store;
