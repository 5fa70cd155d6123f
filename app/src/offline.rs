//! Working without a network: registers the service worker
//! (`public/sw.js`, which precaches the app itself) and asks it to keep
//! every demo pool opened in this session, once loaded and checked (it keeps
//! nothing the app has not checked), a light blob with each text part as it
//! arrives. Blobs are kept on first use rather than precached: together they
//! are several times the app's size, and most visitors open one pool. The
//! worker confirms, and the header then says the current pool is available
//! offline: a light blob's once every text part is kept ("Make available
//! offline" fetches those not shown yet).
//!
//! Service workers need a secure context (https, or http on localhost /
//! 127.0.0.1); elsewhere the app simply works online only.

use leptos::prelude::*;
use leptos::task::spawn_local;
use nomos_core::blob::SiblingKind;

use crate::llm::Llm;
use crate::past_worker::PastWorker;
use crate::pools::store::{LoadStatus, Pools};
use crate::semantic::Semantic;
use crate::state::{AppState, PoolChoice};
use crate::web::{ask_service_worker, keep_with_bytes, register_service_worker};

#[derive(Clone, Copy)]
pub struct Offline {
    /// Demo pools (blob file names) the service worker confirmed it keeps.
    stored: RwSignal<Vec<String>>,
    /// Demo pools opened in this session, all asked to be kept: those
    /// opened before the worker took control did not pass through it.
    opened: StoredValue<Vec<String>>,
    /// Why the worker did not keep what it was last asked to (a full
    /// disk, a file nobody checked), shown beside the badge: without it
    /// the page would only stop short of "Available offline".
    pub failure: RwSignal<Option<String>>,
}

impl Offline {
    pub fn start(
        state: AppState,
        pools: Pools,
        semantic: Semantic,
        llm: Llm,
        past_worker: PastWorker,
    ) -> Offline {
        let offline = Offline {
            stored: RwSignal::new(Vec::new()),
            opened: StoredValue::new(Vec::new()),
            failure: RwSignal::new(None),
        };
        if !register_service_worker() {
            return offline;
        }
        Effect::new(move |_| {
            if pools.status.get() != LoadStatus::Ready {
                return;
            }
            let Some(PoolChoice::Listed(file)) = state.pool.get_untracked() else {
                return;
            };
            // A light blob's text parts are kept as they arrive.
            let Some(session) = pools.session.get() else {
                return;
            };
            session.siblings.text.track();
            let missing = session.engine.missing(SiblingKind::Text);
            let parts: Vec<String> = session
                .engine
                .blob()
                .siblings()
                .iter()
                .filter(|s| s.kind == SiblingKind::Text && !missing.contains(s))
                .map(|s| s.file.clone())
                .collect();
            // Asked again only when a file is new (the text's status also
            // changes while a part downloads).
            let mut new = false;
            offline.opened.update_value(|o| {
                for f in std::iter::once(file).chain(parts) {
                    if !o.contains(&f) {
                        o.push(f);
                        new = true;
                    }
                }
            });
            if !new {
                return;
            }
            let files = offline.opened.get_value();
            spawn_local(async move {
                let sent = past_worker.take(&files);
                let sent: Vec<_> = sent
                    .iter()
                    .map(|(f, b)| (f.clone(), b.as_deref()))
                    .collect();
                match keep_with_bytes("keep", &sent).await {
                    // Answers may come out of order: keep what any confirmed.
                    Ok(()) => offline.stored.update(|kept| {
                        for f in files {
                            if !kept.contains(&f) {
                                kept.push(f);
                            }
                        }
                    }),
                    Err(e) => offline.failed(format!("pools not kept offline: {e}")),
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
                    if let Err(e) = ask_service_worker("keepAssets", &urls).await {
                        offline.failed(format!("{what} not kept offline: {e}"));
                    }
                });
            });
        }
        offline
    }

    fn failed(&self, why: String) {
        leptos::logging::warn!("{why}");
        self.failure.set(Some(why));
    }

    /// Whether the app and the demo pool `file` work without a network:
    /// its blob kept, and each of `parts` (a light blob's text files).
    pub fn has(&self, file: &str, parts: &[String]) -> bool {
        self.stored.with(|s| {
            std::iter::once(file)
                .chain(parts.iter().map(String::as_str))
                .all(|f| s.iter().any(|k| k == f))
        })
    }
}

pub fn use_offline() -> Offline {
    expect_context::<Offline>()
}
