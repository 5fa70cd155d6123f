//! Searching a pool: the Search view's store (debounced, embedded,
//! ranked query, [`store`]), the ranking steps it runs ([`pipeline`]),
//! which store feeds the view ([`source`]), and the keyboard shortcuts
//! ([`shortcuts`]).

pub mod pipeline;
pub mod shortcuts;
pub mod source;
pub mod store;
