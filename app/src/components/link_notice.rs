//! What the user should know about the link they opened: its pool is not
//! here, or the pool's content differs from the one the link was made
//! with. Dismissable.

use leptos::prelude::*;

use crate::url_sync::use_link_sync;

#[component]
pub fn LinkNotice() -> impl IntoView {
    let notice = use_link_sync().notice;
    move || {
        notice.get().map(|text| {
            view! {
                <div class="link-notice" role="status">
                    <span>{text}</span>
                    <button
                        type="button"
                        class="button close"
                        aria-label="Dismiss"
                        on:click=move |_| notice.set(None)
                    >
                        "✕"
                    </button>
                </div>
            }
        })
    }
}
