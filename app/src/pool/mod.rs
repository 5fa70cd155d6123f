//! One pool in memory, whatever its storage: a blob taken in within its
//! size cap ([`blob_intake`]) and ready to rank and show ([`engine`]), a
//! light blob's sibling files ([`siblings`]), a fragmented pool's meta and
//! BM25 ([`fragmented`]), the facets and filters of either
//! ([`facets`]), and the owner of a pool's state ([`scope`]).
//! Plain models and fetches, no page state: the features above use them.

pub mod blob_intake;
pub mod engine;
pub mod facets;
pub mod fragmented;
pub mod scope;
pub mod siblings;
