//! "Keep this act offline", under a fragmented pool's open article: the
//! act's size first (its documents fragments and the directory pages
//! listing them) with the room the browser gives the site, then progress,
//! then that it is kept. The fetching and keeping are the fragmented
//! store's ([`FragStore::keep_act`]).

use leptos::prelude::*;

use crate::components::progress::progress_bar;
use crate::format::{megabytes, plural, room};
use crate::pools::frag_store::{ActStatus, FragStore};
use crate::pools::kept_acts::act_name;

#[component]
pub fn KeepAct(store: FragStore, source: String) -> impl IntoView {
    let name = act_name(&source);
    let wanted = source.clone();
    Effect::new(move |_| store.size_act(wanted.clone()));
    let shown = source.clone();
    let status = move || store.acts.with(|a| a.get(&shown).cloned());
    move || {
        let name = name.clone();
        match status()? {
            ActStatus::Sizing => Some(
                view! { <p class="note keep-act">{format!("Reading the size of {name}…")}</p> }
                    .into_any(),
            ),
            ActStatus::Sized(files) => {
                let estimate = store.space.get().map(|e| (e.usage, e.quota));
                let (space, fits) = room(files.bytes, estimate);
                let n = files.pages.len() + files.docs.len();
                Some(
                    view! {
                        <p class="keep-act">
                            <button
                                type="button"
                                class="button"
                                data-testid="keep-act"
                                data-bytes=files.bytes.to_string()
                                on:click={
                                    let source = source.clone();
                                    move |_| store.keep_act(source.clone())
                                }
                            >
                                {format!(
                                    "Keep this act offline ({}, {})",
                                    megabytes(files.bytes),
                                    plural(n, "file", "files")
                                )}
                            </button>
                            " "
                            <span class:note=fits class:error=!fits>{space}</span>
                        </p>
                    }
                    .into_any(),
                )
            }
            ActStatus::Fetching { done, total } => {
                let percent = done as f64 * 100.0 / total.max(1) as f64;
                let label = format!(
                    "Keeping {name} offline: {} of {}",
                    megabytes(done),
                    megabytes(total)
                );
                Some(
                    view! {
                        <div class="loadline keep-act" role="status">
                            {progress_bar(label.clone(), Some(percent))}
                            <span class="loadline-text">{label}</span>
                        </div>
                    }
                    .into_any(),
                )
            }
            ActStatus::Kept(bytes) => Some(
                view! {
                    <p class="note keep-act" data-testid="act-kept">
                        {format!("{name} is kept offline ({})", megabytes(bytes))}
                    </p>
                }
                .into_any(),
            ),
            ActStatus::Failed(e) => Some(
                view! {
                    <p class="error keep-act" role="alert">
                        {format!("{name} was not kept offline: {e}")}
                    </p>
                }
                .into_any(),
            ),
        }
    }
}
