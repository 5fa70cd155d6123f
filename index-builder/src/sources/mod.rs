//! Readers: each turns one source format into a [`pool::Pool`].

pub mod beir;
pub mod crawler;
pub mod da_acts;
pub mod gbr;
pub mod jsonl;
pub mod nomothesia;
pub mod pool;
pub mod qrels;
pub mod stard;
pub mod syntagma;
pub mod tabular;
pub mod text_file;
