//! The user's own judgments on the session's pool, kept in IndexedDB by
//! the pool's content hash, so they survive reloads and work offline, and
//! a rebuilt pool (another hash) starts with none. Where IndexedDB is not
//! available they last for the visit, and the dialog says so.

use std::rc::Rc;

use futures::future::{FutureExt, LocalBoxFuture, Shared};
use leptos::prelude::*;

use crate::judgments::{Judgments, Mark};
use crate::pool::scope::PoolScope;
use crate::size_caps::JUDGMENTS;
use crate::web::{read_file, Idb, IdbError, Limit};

const DB: &str = "nomos-judgments";
/// `Judgments` as JSON, by pool content hash.
const STORE: &str = "by-pool";

type Pending = Shared<LocalBoxFuture<'static, Result<Rc<Idb>, IdbError>>>;

/// One pool's judgments. `Copy`: signals and stored handles.
#[derive(Clone, Copy)]
pub struct JudgmentStore {
    /// The pool's owner, which its tasks hold while they run.
    scope: PoolScope,
    pub judgments: RwSignal<Judgments>,
    /// Whether the kept judgments have been read.
    pub ready: RwSignal<bool>,
    /// The last problem (a refused mark or import, or storage failing).
    pub message: RwSignal<Option<String>>,
    key: StoredValue<String>,
    db: StoredValue<Option<Pending>, LocalStorage>,
}

impl JudgmentStore {
    /// The store of the pool whose content hash is `key`; reads what
    /// IndexedDB keeps for it.
    pub fn new(scope: PoolScope, key: String) -> Self {
        let store = JudgmentStore {
            scope,
            judgments: RwSignal::new(Judgments::default()),
            ready: RwSignal::new(false),
            message: RwSignal::new(None),
            key: StoredValue::new(key),
            db: StoredValue::new_local(None),
        };
        let db: Pending = async { Idb::open(DB, &[STORE]).await.map(Rc::new) }
            .boxed_local()
            .shared();
        store.db.set_value(Some(db.clone()));
        store.scope.spawn(async move {
            let key = store.key.get_value();
            let kept = match db.await {
                Ok(db) => db.get(STORE, &key).await,
                Err(e) => Err(e),
            };
            match kept {
                Ok(Some(text)) => match Judgments::from_json(&text) {
                    Ok(kept) => store.judgments.set(kept),
                    Err(e) => store.message.set(Some(format!(
                        "Your kept judgments could not be read ({e}); new ones replace them."
                    ))),
                },
                Ok(None) => {}
                Err(e) => store.message.set(Some(format!(
                    "Judgments last only for this visit: IndexedDB is not available ({e})."
                ))),
            }
            store.ready.set(true);
        });
        store
    }

    /// Marks (or with `None` clears) `doc` for the query `text`.
    pub fn set(&self, text: &str, doc: &str, mark: Option<Mark>) {
        if !self.ready.get_untracked() {
            // Saving now could cross the read of the kept judgments.
            return self
                .message
                .set(Some("Your judgments are still being read.".to_owned()));
        }
        let mut result = Ok(());
        self.judgments.update(|j| result = j.set(text, doc, mark));
        match result {
            Ok(()) => self.save(),
            Err(e) => self.message.set(Some(e.to_string())),
        }
    }

    pub fn remove_query(&self, id: &str) {
        self.judgments.update(|j| j.remove_query(id));
        self.save();
    }

    /// Replaces every judgment with `judgments` (an import).
    pub fn replace(&self, judgments: Judgments) {
        if !self.ready.get_untracked() {
            return self
                .message
                .set(Some("Your judgments are still being read.".to_owned()));
        }
        self.judgments.set(judgments);
        self.message.set(None);
        self.save();
    }

    /// Reads an export's two files, in either order (the one of JSON
    /// lines is `queries.jsonl`), and replaces every judgment with them;
    /// a refused import changes nothing and says why.
    pub fn import_files(self, files: Vec<web_sys::File>) {
        self.scope.spawn(async move {
            let outcome = async {
                let [a, b] = <[web_sys::File; 2]>::try_from(files).map_err(|f| {
                    format!(
                        "Pick the two files of an export (qrels and queries.jsonl), not {}.",
                        f.len()
                    )
                })?;
                let mut texts = Vec::new();
                for file in [a, b] {
                    let bytes = read_file(&file, Limit::Cap(JUDGMENTS))
                        .await
                        .map_err(|e| e.to_string())?;
                    let text = String::from_utf8(bytes)
                        .map_err(|_| format!("{} is not UTF-8 text.", file.name()))?;
                    texts.push((file.name(), text));
                }
                let is_jsonl = |t: &str| t.trim_start().starts_with('{');
                if is_jsonl(&texts[1].1) && !is_jsonl(&texts[0].1) {
                    texts.swap(0, 1);
                }
                let (r_name, r) = texts.remove(1);
                let (q_name, q) = texts.remove(0);
                Judgments::import(&q_name, &q, &r_name, &r).map_err(|e| e.to_string())
            }
            .await;
            match outcome {
                Ok(judgments) => self.replace(judgments),
                Err(e) => self.message.set(Some(e)),
            }
        });
    }

    fn save(self) {
        let json = self.judgments.with_untracked(Judgments::to_json);
        let key = self.key.get_value();
        let Some(db) = self.db.get_value() else {
            return;
        };
        self.scope.spawn(async move {
            let Ok(db) = db.await else { return };
            // With no judgments left, nothing is kept.
            let saved = match json == Judgments::default().to_json() {
                true => db.delete(STORE, &key).await,
                false => db.put(STORE, &key, &json).await,
            };
            if let Err(e) = saved {
                self.message.set(Some(format!(
                    "IndexedDB could not keep your judgments: {e}"
                )));
            }
        });
    }
}
