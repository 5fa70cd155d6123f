//! The label beside a title that is an editorial heading (the
//! Constitution's, from lawspot): shown and searched, but not the law's
//! words, so a reader does not quote it as enacted.

use leptos::prelude::*;

/// Says what the tooltip spells out: the heading is the editor's.
pub fn editorial_label() -> impl IntoView {
    view! {
        <span
            class="editorial-heading"
            title="Editorial heading: given by the publisher, not enacted; searched at a lower weight than the text"
        >
            "editorial heading"
        </span>
    }
}
