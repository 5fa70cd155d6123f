//! What only a fragmented pool's Search view has, in its sidebar below
//! the filters: the
//! methods fragments can rank, what the pool is, "Make available
//! offline" with the pool's total size and the room the browser gives,
//! and the acts kept offline. The search box, rows and article
//! are the shared ones ([`crate::components::search`]); searching and fetching are
//! the fragmented store's ([`FragStore`]).

use leptos::prelude::*;

use crate::components::progress::progress_bar;
use crate::format::{megabytes, plural, room};
use crate::pools::frag_store::{FragStore, OfflineStatus};
use crate::pools::kept_acts::act_name;
use crate::state::use_app_state;

/// The methods the picker offers: BM25 ranks every fragmented pool, the
/// dense ones and the fusions a pool cut with lists; the others say why
/// not.
const METHODS: [&str; 6] = ["bm25", "dense", "rrf", "weighted", "prf", "react-bm25"];

#[component]
pub fn FragSidebar(store: FragStore) -> impl IntoView {
    let state = use_app_state();
    let pool = store.pool.get_value();
    let on_method = move |ev: leptos::ev::Event| {
        if let Ok(m) = event_target_value(&ev).parse() {
            state.method.set(m);
        }
    };
    let methods = move || {
        let chosen = state.method.get();
        METHODS
            .iter()
            .map(|&name| {
                view! { <option value=name selected=chosen.name() == name>{name}</option> }
            })
            .collect_view()
    };
    let unavailable = move || pool.unavailable(&state.method.get());

    view! {
        <div class="frag-sidebar">
            <label for="method">"Method"</label>
            <select id="method" on:change=on_method>{methods}</select>
            <p class="fallback-note" role="status">{unavailable}</p>
            <p class="note">
                "A fragmented pool: each query fetches only the parts of the index \
                 its words need, and the articles it shows."
            </p>
            <OfflinePrefetch store=store />
            <KeptActs store=store />
        </div>
    }
}

/// "Make available offline": the total size first, then progress.
#[component]
fn OfflinePrefetch(store: FragStore) -> impl IntoView {
    let pool = store.pool.get_value();
    let total = pool.total_bytes();
    let count = pool.meta().n_fragments();
    store.measure_space();
    move || match store.offline.get() {
        OfflineStatus::Idle => {
            let estimate = store.space.get().map(|e| (e.usage, e.quota));
            let (space, fits) = room(total, estimate);
            view! {
                <button
                    type="button"
                    class="button"
                    data-testid="make-offline"
                    on:click=move |_| store.make_offline()
                >
                    {format!(
                        "Make available offline ({}, {})",
                        megabytes(total),
                        plural(count, "file", "files")
                    )}
                </button>
                <p class:note=fits class:error=!fits data-testid="offline-room">
                    {space}
                </p>
            }
            .into_any()
        }
        OfflineStatus::Fetching { done, total } => {
            let percent = done as f64 * 100.0 / total.max(1) as f64;
            let label = format!(
                "Downloading for offline use: {} of {}",
                megabytes(done),
                megabytes(total)
            );
            view! {
                <div class="loadline" role="status">
                    {progress_bar(label.clone(), Some(percent))}
                    <span class="loadline-text">{label}</span>
                </div>
            }
            .into_any()
        }
        OfflineStatus::Ready => view! {
            <p class="offline-ready" data-testid="fragments-offline">
                {format!("Available offline ({})", megabytes(total))}
            </p>
        }
        .into_any(),
        OfflineStatus::Failed(e) => view! {
            <p class="error" role="alert">{format!("Not made available offline: {e}")}</p>
        }
        .into_any(),
    }
}

/// The acts this browser keeps offline, with their sizes, and whether
/// the browser may clear them when space runs low.
#[component]
fn KeptActs(store: FragStore) -> impl IntoView {
    move || {
        let acts = store.kept_acts.get().acts;
        (!acts.is_empty()).then(|| {
            let evictable = (store.persisted.get() == Some(false)).then(|| {
                view! {
                    <p class="note">
                        "This browser did not make the site's storage persistent: it may \
                         clear what is kept when space runs low."
                    </p>
                }
            });
            view! {
                <div class="kept" data-testid="kept-acts">
                    <p class="note">"Kept offline:"</p>
                    <ul class="kept-acts">
                        {acts
                            .into_iter()
                            .map(|(source, bytes)| {
                                view! {
                                    <li title=source.clone()>
                                        {format!("{} ({})", act_name(&source), megabytes(bytes))}
                                    </li>
                                }
                            })
                            .collect_view()}
                    </ul>
                    {evictable}
                </div>
            }
        })
    }
}
