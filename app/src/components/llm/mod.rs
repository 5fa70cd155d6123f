//! The LLM's views: the Search view's LLM run with its estimate and
//! trace, the settings dialog and the transcripts panel.

pub mod llm_estimate;
pub mod llm_run;
pub mod llm_settings;
pub mod llm_trace;
pub mod transcripts;
