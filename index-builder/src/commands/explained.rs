//! How `nomos search --explain` sets a hit's BM25 explanation under it,
//! for a blob and a fragmented pool alike.

use nomos_core::search::Explanation;

/// The lines under a hit: its explanation, or for a hit with none of the
/// query's terms (a dense method's, over fragments, whose postings give
/// no length for it) that it scores 0; each indented by a tab.
pub fn under_hit(explanation: Option<&Explanation>) -> String {
    let text = match explanation {
        Some(e) => format!("BM25 {e}"),
        None => "BM25 0: none of the query's terms is in this document".to_owned(),
    };
    text.lines().map(|l| format!("\t{l}\n")).collect()
}
