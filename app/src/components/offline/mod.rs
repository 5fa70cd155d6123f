//! Whether the page and the pool work offline, in the header.

pub mod offline_badge;
