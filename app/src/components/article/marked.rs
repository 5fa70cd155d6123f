//! Text with query matches marked. Every piece is a text node or a `<mark>`
//! element built by Leptos, so document text never reaches the DOM as
//! markup.

use leptos::either::Either;
use leptos::prelude::*;

use crate::pool::engine::MarkedText;

pub fn marked_text(m: &MarkedText) -> impl IntoView {
    m.segments
        .iter()
        .map(|s| {
            let piece = m.text.get(s.range.clone()).unwrap_or_default().to_owned();
            if s.marked {
                Either::Left(view! { <mark>{piece}</mark> })
            } else {
                Either::Right(piece)
            }
        })
        .collect_view()
}
