//! The open article's official citation, with a button that copies it
//! (`Straffeloven § 244, stk. 1 (LBK nr. 1294 af 2025)`), so a lawyer
//! pastes the form a brief uses rather than the machine id.

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::web::copy_text;

#[component]
pub fn CopyCitation(citation: String) -> impl IntoView {
    // What the last click did: copied, or why not.
    let outcome = RwSignal::new(None::<Result<(), String>>);
    let copy = {
        let citation = citation.clone();
        move |_| {
            let citation = citation.clone();
            spawn_local(async move {
                outcome.set(Some(copy_text(&citation).await.map_err(|e| e.to_string())))
            });
        }
    };
    view! {
        <p class="article-citation">
            <cite>{citation}</cite>
            <button type="button" class="button copy-citation" on:click=copy>
                "Copy citation"
            </button>
            <span class="copy-outcome" role="status">
                {move || match outcome.get() {
                    None => String::new(),
                    Some(Ok(())) => "Copied".to_owned(),
                    Some(Err(e)) => e,
                }}
            </span>
        </p>
    }
}
