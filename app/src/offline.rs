//! Working without a network: registers the service worker
//! (`public/sw.js`, which precaches the app itself) and asks it to keep
//! every demo pool opened in this session. Blobs are kept on first use
//! rather than precached: together they are several times the app's size,
//! and most visitors open one pool. The worker confirms, and the header
//! then says the current pool is available offline.
//!
//! Service workers need a secure context (https, or http on localhost /
//! 127.0.0.1); elsewhere the app simply works online only.

use js_sys::{Array, Object, Promise, Reflect};
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{MessageChannel, ServiceWorkerContainer, ServiceWorkerRegistration};

use crate::llm::Llm;
use crate::pools::{LoadStatus, Pools};
use crate::semantic::Semantic;
use crate::state::{AppState, PoolChoice};
use crate::web::js_message as message;

#[derive(Clone, Copy)]
pub struct Offline {
    /// Demo pools (blob file names) the service worker confirmed it keeps.
    stored: RwSignal<Vec<String>>,
    /// Demo pools opened in this session, all asked to be kept: those
    /// opened before the worker took control did not pass through it.
    opened: StoredValue<Vec<String>>,
}

impl Offline {
    pub fn start(state: AppState, pools: Pools, semantic: Semantic, llm: Llm) -> Offline {
        let offline = Offline {
            stored: RwSignal::new(Vec::new()),
            opened: StoredValue::new(Vec::new()),
        };
        let Some(container) = container() else {
            return offline;
        };
        spawn_local(async move {
            if let Err(e) = JsFuture::from(container.register("sw.js")).await {
                leptos::logging::warn!("service worker not registered: {}", message(&e));
            }
        });
        Effect::new(move |_| {
            if pools.status.get() != LoadStatus::Ready {
                return;
            }
            let Some(PoolChoice::Listed(file)) = state.pool.get_untracked() else {
                return;
            };
            offline.opened.update_value(|o| {
                if !o.contains(&file) {
                    o.push(file);
                }
            });
            let files = offline.opened.get_value();
            spawn_local(async move {
                match keep("keep", &files).await {
                    // Answers may come out of order: keep what any confirmed.
                    Ok(()) => offline.stored.update(|kept| {
                        for f in files {
                            if !kept.contains(&f) {
                                kept.push(f);
                            }
                        }
                    }),
                    Err(e) => leptos::logging::warn!("pools not kept offline: {e}"),
                }
            });
        });
        // The models and runtimes, once loaded (those fetched before the
        // worker took control did not pass through it).
        for (urls, what) in [
            (semantic.urls, "semantic model"),
            (llm.in_page.urls, "in-page LLM"),
        ] {
            Effect::new(move |_| {
                let urls = urls.get();
                if urls.is_empty() {
                    return;
                }
                spawn_local(async move {
                    if let Err(e) = keep("keepAssets", &urls).await {
                        leptos::logging::warn!("{what} not kept offline: {e}");
                    }
                });
            });
        }
        offline
    }

    /// Whether the app and the demo pool `file` work without a network.
    pub fn has(&self, file: &str) -> bool {
        self.stored.with(|s| s.iter().any(|f| f == file))
    }
}

pub fn use_offline() -> Offline {
    expect_context::<Offline>()
}

/// The page's service worker container, when service workers are allowed.
fn container() -> Option<ServiceWorkerContainer> {
    let window = window();
    let navigator = window.navigator();
    let allowed = window.is_secure_context()
        && Reflect::has(&navigator, &JsValue::from_str("serviceWorker")).unwrap_or(false);
    allowed.then(|| navigator.service_worker())
}

/// Asks the active service worker to keep the blobs `files` (`kind`
/// `keep`) or the model and runtime URLs (`keepAssets`); it fetches those
/// it lacks. Waits for its answer.
async fn keep(kind: &str, files: &[String]) -> Result<(), String> {
    let container = container().ok_or("service workers are unavailable")?;
    let ready = container.ready().map_err(|e| message(&e))?;
    let registration: ServiceWorkerRegistration = JsFuture::from(ready)
        .await
        .map_err(|e| message(&e))?
        .unchecked_into();
    let worker = registration.active().ok_or("no active service worker")?;

    let channel = MessageChannel::new().map_err(|e| message(&e))?;
    let answer = Promise::new(&mut |resolve, _| channel.port1().set_onmessage(Some(&resolve)));
    let request = Object::new();
    let names: Array = files.iter().map(|f| JsValue::from_str(f)).collect();
    Reflect::set(&request, &kind.into(), &names).map_err(|e| message(&e))?;
    worker
        .post_message_with_transferable(&request, &Array::of1(&channel.port2()))
        .map_err(|e| message(&e))?;

    let event = JsFuture::from(answer).await.map_err(|e| message(&e))?;
    let data = Reflect::get(&event, &"data".into()).map_err(|e| message(&e))?;
    match Reflect::get(&data, &"ok".into())
        .ok()
        .and_then(|v| v.as_bool())
    {
        Some(true) => Ok(()),
        _ => Err(Reflect::get(&data, &"error".into())
            .ok()
            .and_then(|e| e.as_string())
            .unwrap_or_else(|| "the service worker did not keep them".into())),
    }
}
