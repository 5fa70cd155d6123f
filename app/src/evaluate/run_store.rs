//! The run files imported into one pool's Evaluate view, kept in
//! IndexedDB under the pool's content hash and the file's SHA-256, so a
//! reload (offline too) and a link naming the hash find them again. Where
//! IndexedDB is not available they are kept in memory for the visit, and
//! the view says so. What a file holds is checked when it is opened
//! (`evaluate::imported`); a kept file is checked again when it is used.

use std::collections::HashMap;
use std::rc::Rc;

use futures::future::{FutureExt, LocalBoxFuture, Shared};
use leptos::prelude::*;
use nomos_core::order::sort_by;
use serde::{Deserialize, Serialize};

use crate::pool::scope::PoolScope;
use crate::web::{Idb, IdbError};

const DB: &str = "nomos-runs";
/// `RunMeta` as JSON, by key.
const META: &str = "meta";
/// The file's text, by key.
const TEXT: &str = "text";

type Pending<T> = Shared<LocalBoxFuture<'static, Result<T, IdbError>>>;

/// A kept run file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunMeta {
    /// The content hash of the pool it was opened for.
    pub pool: String,
    pub sha256: String,
    pub name: String,
    /// When it was first opened (ms since the epoch).
    pub added: f64,
    /// Ranked documents.
    pub lines: usize,
}

impl RunMeta {
    fn key(&self) -> String {
        key(&self.pool, &self.sha256)
    }
}

fn key(pool: &str, sha256: &str) -> String {
    format!("{pool}/{sha256}")
}

/// One pool's kept run files. `Copy`: signals and stored handles.
#[derive(Clone, Copy)]
pub struct RunStore {
    /// The pool's owner, which its tasks hold while they run.
    scope: PoolScope,
    /// This pool's run files, newest first.
    pub list: RwSignal<Vec<RunMeta>>,
    /// Whether the kept list has been read (until then a run file is not
    /// known to be missing).
    pub ready: RwSignal<bool>,
    /// Why run files last only for this visit, if they do.
    pub memory_only: RwSignal<Option<String>>,
    pool: StoredValue<String>,
    texts: StoredValue<HashMap<String, Rc<String>>, LocalStorage>,
    db: StoredValue<Option<Pending<Rc<Idb>>>, LocalStorage>,
}

impl RunStore {
    /// The store of the pool whose content hash is `pool`; starts reading
    /// what IndexedDB keeps for it.
    pub fn new(scope: PoolScope, pool: String) -> Self {
        let store = RunStore {
            scope,
            list: RwSignal::new(Vec::new()),
            ready: RwSignal::new(false),
            memory_only: RwSignal::new(None),
            pool: StoredValue::new(pool.clone()),
            texts: StoredValue::new_local(HashMap::new()),
            db: StoredValue::new_local(None),
        };
        let db: Pending<Rc<Idb>> = async { Idb::open(DB, &[META, TEXT]).await.map(Rc::new) }
            .boxed_local()
            .shared();
        store.db.set_value(Some(db.clone()));
        store.scope.spawn(async move {
            let kept = match db.await {
                Ok(db) => db.values(META).await,
                Err(e) => Err(e),
            };
            match kept {
                Ok(values) => {
                    let mut metas: Vec<RunMeta> = values
                        .iter()
                        .filter_map(|v| serde_json::from_str::<RunMeta>(v).ok())
                        .filter(|m| m.pool == pool)
                        .collect();
                    sort_by(&mut metas, |a, b| b.added.total_cmp(&a.added));
                    store.list.update(|list| {
                        for meta in metas {
                            if !list.iter().any(|m| m.sha256 == meta.sha256) {
                                list.push(meta);
                            }
                        }
                    });
                }
                Err(e) => store.memory_only.set(Some(e.to_string())),
            }
            store.ready.set(true);
        });
        store
    }

    async fn idb(&self) -> Option<Rc<Idb>> {
        self.db.get_value()?.await.ok()
    }

    /// Keeps a checked run file (in memory at once, in IndexedDB in the
    /// background). One already kept keeps its first name and date.
    pub fn keep(self, sha256: String, name: String, lines: usize, text: String) {
        self.texts
            .update_value(|m| drop(m.insert(sha256.clone(), Rc::new(text.clone()))));
        if self
            .list
            .with_untracked(|l| l.iter().any(|m| m.sha256 == sha256))
        {
            return;
        }
        let meta = RunMeta {
            pool: self.pool.get_value(),
            sha256,
            name,
            added: js_sys::Date::now(),
            lines,
        };
        self.list.update(|l| l.insert(0, meta.clone()));
        self.scope.spawn(async move {
            let Some(db) = self.idb().await else { return };
            let json = serde_json::to_string(&meta).unwrap_or_default();
            // The text first: a kept description always has its text.
            let saved = match db.put(TEXT, &meta.key(), &text).await {
                Ok(()) => db.put(META, &meta.key(), &json).await,
                Err(e) => Err(e),
            };
            if let Err(e) = saved {
                self.memory_only
                    .set(Some(format!("IndexedDB could not keep a run file: {e}")));
            }
        });
    }

    /// A kept run file's name and text, if this browser has it.
    pub async fn get(self, sha256: &str) -> Option<(String, Rc<String>)> {
        let name = self.list.with_untracked(|l| {
            l.iter()
                .find(|m| m.sha256 == sha256)
                .map(|m| m.name.clone())
        })?;
        if let Some(text) = self.texts.with_value(|m| m.get(sha256).cloned()) {
            return Some((name, text));
        }
        let db = self.idb().await?;
        let text = db
            .get(TEXT, &key(&self.pool.get_value(), sha256))
            .await
            .ok()??;
        let text = Rc::new(text);
        self.texts
            .update_value(|m| drop(m.insert(sha256.to_owned(), text.clone())));
        Some((name, text))
    }

    /// Forgets a run file here (memory and IndexedDB).
    pub fn forget(self, sha256: String) {
        self.list.update(|l| l.retain(|m| m.sha256 != sha256));
        self.texts.update_value(|m| drop(m.remove(&sha256)));
        let key = key(&self.pool.get_value(), &sha256);
        self.scope.spawn(async move {
            if let Some(db) = self.idb().await {
                let _ = db.delete(META, &key).await;
                let _ = db.delete(TEXT, &key).await;
            }
        });
    }
}
