//! Which view is open and how the Evaluate table is ordered: plain values
//! that links carry and the app's signals hold, kept apart from the
//! signals so that the link codec builds without Leptos.

/// The top-level views.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    Search,
    Evaluate,
}

/// How the Evaluate view's per-query table is sorted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalSort {
    /// `id`, `gold` (number of gold articles), `delta` (B − A) or a
    /// measure key such as `ndcg@10`.
    pub column: String,
    pub descending: bool,
}

impl Default for EvalSort {
    fn default() -> Self {
        EvalSort {
            column: "id".to_owned(),
            descending: false,
        }
    }
}
