//! The views, one folder per feature; the widgets every page shares
//! (header, progress bar, element ids, the framed-page refusal, the link
//! notice) sit here at the top.

pub mod article;
pub mod evaluate;
pub mod framed;
pub mod header;
pub mod ids;
pub mod link_notice;
pub mod llm;
pub mod offline;
pub mod pools;
pub mod progress;
pub mod search;
