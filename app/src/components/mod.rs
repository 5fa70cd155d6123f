//! The views, one module each.

pub mod advanced;
pub mod article;
pub mod copy_citation;
pub mod editorial;
pub mod evaluate;
pub mod explain;
pub mod filters;
pub mod fragmented;
pub mod go_to;
pub mod header;
pub mod ids;
pub mod judgments;
pub mod keyboard;
pub mod link_notice;
pub mod llm_estimate;
pub mod llm_run;
pub mod llm_settings;
pub mod llm_trace;
pub mod marked;
pub mod model_line;
pub mod offline_badge;
pub mod pool_picker;
pub mod print_note;
pub mod results;
pub mod search;
pub mod transcripts;
