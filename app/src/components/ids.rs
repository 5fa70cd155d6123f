//! DOM ids that one view sets and another focuses or links to, kept here
//! so that no view imports another for a name.

/// The search box.
pub const SEARCH_BOX_ID: &str = "search-box";

/// The heading of the open article (focused when it opens).
pub const ARTICLE_TITLE_ID: &str = "article-title";

/// The heading of the Evaluate view's open query.
pub const DETAIL_TITLE_ID: &str = "query-detail-title";

/// The result at position `i` (0-based).
pub fn result_id(i: usize) -> String {
    format!("result-{i}")
}

/// A query's button in the Evaluate view's table (focus returns there
/// when its detail closes).
pub fn query_link_id(query: &str) -> String {
    format!("eval-query-{query}")
}

/// The LLM settings dialog (opened from the header and the method
/// pickers).
pub const LLM_SETTINGS_ID: &str = "llm-settings";

/// The Evaluate view's per-query difference chart (its `<svg>`, exported
/// as a file by the significance table).
pub const DELTA_CHART_ID: &str = "delta-chart";

/// The "My judgments" dialog (opened from the results).
pub const MY_JUDGMENTS_ID: &str = "my-judgments";

/// The list of keyboard shortcuts (opened by `?` and the header).
pub const SHORTCUTS_ID: &str = "shortcuts";
