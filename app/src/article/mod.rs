//! Reading an article: where a query's citations lead ([`go_to`]).

pub mod go_to;
