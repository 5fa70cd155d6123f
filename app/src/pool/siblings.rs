//! A light blob's sibling files (`nomos split`: its text, in parts, and its
//! vectors, moved out so that a first visit downloads only what BM25
//! needs): fetched from the site when first needed (the text parts holding
//! the documents the result rows or the article show, every part for an
//! LLM method; the vectors when a dense method is chosen), with progress,
//! checked by core against the content hash the blob lists, attached to
//! the session's engine, then kept by the service worker (the text parts
//! with their blob, by `offline`). A pool opened from disk has no site to
//! fetch them from: they come with it from the file picker
//! ([`Siblings::attach_file`]).

use std::sync::Arc;

use leptos::prelude::*;
use nomos_core::blob::{BlobError, SiblingKind};

use crate::format::megabytes;
use crate::manifest::INDEX_DIR;
use crate::past_worker::PastWorker;
use crate::pool::engine::Engine;
use crate::pool::scope::PoolScope;
use crate::web::{
    fetch_bytes, forget_cached, keep_with_bytes, read_file, sleep, worker_controls_page, Limit,
};

/// Where one sibling's data stands.
#[derive(Debug, Clone, PartialEq)]
pub enum SiblingStatus {
    /// In the blob, attached, or none listed.
    Ready,
    /// Listed, not asked for yet.
    Idle,
    /// Being downloaded.
    Fetching { received: u64, total: u64 },
    /// Could not be had, and why (a whole sentence).
    Failed(String),
}

/// Why a light blob's text cannot be had for an LLM method.
#[derive(Debug, Clone, PartialEq)]
pub enum TextError {
    /// Another pool was opened meanwhile.
    Replaced,
    /// A text part failed, and why (its [`SiblingStatus::Failed`]).
    Missing(String),
    /// A text part `file` of a blob opened from disk was not given.
    NotLoaded { file: String },
}

impl std::fmt::Display for TextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TextError::Replaced => f.write_str("the pool was replaced"),
            TextError::Missing(why) => write!(f, "the pool's text is missing: {why}"),
            TextError::NotLoaded { file } => write!(
                f,
                "the pool's text file `{file}` is not loaded: open it with the blob"
            ),
        }
    }
}

impl std::error::Error for TextError {}

/// The session's siblings. `Copy`: signal handles.
#[derive(Clone, Copy)]
pub struct Siblings {
    /// The pool's owner, which its tasks hold while they run.
    scope: PoolScope,
    /// The text as a whole: `Ready` once every part is attached; set
    /// again as each part arrives, so rows and articles show it.
    pub text: RwSignal<SiblingStatus>,
    pub vectors: RwSignal<SiblingStatus>,
    past_worker: PastWorker,
    /// Text parts being downloaded, and those that failed (not asked for
    /// again in this session).
    parts: StoredValue<Parts>,
}

#[derive(Default)]
struct Parts {
    /// File, bytes received, bytes listed.
    fetching: Vec<(String, u64, u64)>,
    failed: Vec<String>,
}

impl Parts {
    /// The status of the text while parts are being fetched.
    fn fetching(&self) -> SiblingStatus {
        let (received, total) = self
            .fetching
            .iter()
            .fold((0, 0), |(r, t), (_, received, total)| {
                (r + received, t + total)
            });
        SiblingStatus::Fetching { received, total }
    }
}

impl Siblings {
    pub fn new(scope: PoolScope, engine: &Engine) -> Self {
        let status = |kind| match engine.missing(kind).is_empty() {
            false => SiblingStatus::Idle,
            true => SiblingStatus::Ready,
        };
        Siblings {
            scope,
            text: RwSignal::new(status(SiblingKind::Text)),
            vectors: RwSignal::new(status(SiblingKind::Vectors)),
            past_worker: expect_context(),
            parts: StoredValue::new(Parts::default()),
        }
    }

    /// The status of `kind`'s data.
    pub fn status(&self, kind: SiblingKind) -> RwSignal<SiblingStatus> {
        match kind {
            SiblingKind::Text => self.text,
            SiblingKind::Vectors => self.vectors,
        }
    }

    /// Why the dense methods cannot rank yet (`None`: the vectors are
    /// there). Tracked.
    pub fn vectors_wait(&self) -> Option<String> {
        match self.vectors.get() {
            SiblingStatus::Ready => None,
            SiblingStatus::Idle => Some("the pool's vectors are not loaded".into()),
            SiblingStatus::Fetching { received, total } => Some(format!(
                "downloading the pool's vectors ({} of {})",
                megabytes(received),
                megabytes(total)
            )),
            SiblingStatus::Failed(why) => Some(format!("the pool's vectors are missing: {why}")),
        }
    }

    /// Fetches the text parts that documents `docs` need (every part:
    /// `None`), but those attached, on their way or failed before; each
    /// attached as it arrives. A part that fails its check is dropped from
    /// the service worker's caches and the text is `Failed`, naming it.
    pub fn fetch_text(self, engine: Arc<Engine>, docs: Option<&[usize]>) {
        let wanted: Vec<_> = match docs {
            Some(docs) => engine.missing_text(docs),
            None => engine.missing(SiblingKind::Text),
        }
        .into_iter()
        .cloned()
        .collect();
        let Some(wanted) = self.parts.try_update_value(|parts| {
            let new: Vec<_> = wanted
                .into_iter()
                .filter(|w| {
                    !parts.failed.contains(&w.file)
                        && !parts.fetching.iter().any(|(f, _, _)| *f == w.file)
                })
                .collect();
            for part in &new {
                parts.fetching.push((part.file.clone(), 0, part.len));
            }
            new
        }) else {
            return;
        };
        if wanted.is_empty() {
            return;
        }
        self.parts.with_value(|p| self.text.set(p.fetching()));
        for part in wanted {
            let engine = engine.clone();
            self.scope.spawn(async move {
                let url = format!("{INDEX_DIR}{}", part.file);
                let progress = |received, _| {
                    self.parts.try_update_value(|p| {
                        if let Some(at) = p.fetching.iter_mut().find(|(f, _, _)| *f == part.file) {
                            at.1 = received;
                        }
                        self.text.try_set(p.fetching());
                    });
                };
                let controlled = worker_controls_page();
                let attached = match fetch_bytes(&url, Limit::Listed(part.len), progress).await {
                    Ok(bytes) => engine
                        .attach_text(&bytes)
                        .map(|()| self.past_worker.hold(controlled, &part.file, bytes))
                        .map_err(|e| e.to_string()),
                    Err(e) => Err(e.to_string()),
                };
                if attached.is_err() {
                    forget_cached(vec![url]);
                }
                self.parts.try_update_value(|p| {
                    p.fetching.retain(|(f, _, _)| *f != part.file);
                    let status = match attached {
                        Err(why) => {
                            p.failed.push(part.file.clone());
                            SiblingStatus::Failed(why)
                        }
                        Ok(()) if engine.missing(SiblingKind::Text).is_empty() => {
                            SiblingStatus::Ready
                        }
                        Ok(()) if !p.fetching.is_empty() => p.fetching(),
                        Ok(()) => SiblingStatus::Idle,
                    };
                    self.text.try_set(status);
                });
            });
        }
    }

    /// Waits until every text part is attached (an LLM method reads whole
    /// articles, which a missing part would leave empty); the parts must
    /// have been asked for ([`PoolText::fetch`]). An
    /// error says why the text cannot be had.
    pub async fn text_ready(self, engine: &Engine) -> Result<(), TextError> {
        loop {
            match self.text.try_get_untracked() {
                None => return Err(TextError::Replaced),
                Some(SiblingStatus::Ready) => return Ok(()),
                Some(SiblingStatus::Failed(why)) => return Err(TextError::Missing(why)),
                Some(SiblingStatus::Idle) => {
                    return match engine.missing(SiblingKind::Text).first() {
                        None => Ok(()),
                        Some(part) => Err(TextError::NotLoaded {
                            file: part.file.clone(),
                        }),
                    }
                }
                Some(SiblingStatus::Fetching { .. }) => sleep(100).await,
            }
        }
    }

    /// Fetches the vectors file from beside the blob on this site, once:
    /// only from [`SiblingStatus::Idle`]. A file that fails its check is
    /// dropped from the service worker's caches; one that passes is kept
    /// there.
    pub fn fetch_vectors(self, engine: Arc<Engine>) {
        let kind = SiblingKind::Vectors;
        let status = self.status(kind);
        let Some(sibling) = engine.missing(kind).first().map(|s| (*s).clone()) else {
            return;
        };
        if status.try_get_untracked() != Some(SiblingStatus::Idle) {
            return;
        }
        let total = sibling.len;
        status.set(SiblingStatus::Fetching { received: 0, total });
        self.scope.spawn(async move {
            // Plain names (core checks them), so the URL needs no escaping.
            let url = format!("{INDEX_DIR}{}", sibling.file);
            let progress = |received, _| {
                status.try_set(SiblingStatus::Fetching { received, total });
            };
            let controlled = worker_controls_page();
            let attached = match fetch_bytes(&url, Limit::Listed(total), progress).await {
                Ok(bytes) => attach(&engine, kind, &bytes)
                    .map(|()| self.past_worker.hold(controlled, &sibling.file, bytes))
                    .map_err(|e| e.to_string()),
                Err(e) => Err(e.to_string()),
            };
            match attached {
                Ok(()) => {
                    status.try_set(SiblingStatus::Ready);
                    let files = self.past_worker.take(&[sibling.file]);
                    let files: Vec<_> = files
                        .iter()
                        .map(|(f, b)| (f.clone(), b.as_deref()))
                        .collect();
                    if let Err(e) = keep_with_bytes("keep", &files).await {
                        leptos::logging::warn!("{url} not kept offline: {e}");
                    }
                }
                Err(why) => {
                    forget_cached(vec![url]);
                    status.try_set(SiblingStatus::Failed(why));
                }
            }
        });
    }

    /// Attaches `file`, picked with a blob from disk, as its sibling of
    /// `kind` (for the text: the part it names).
    pub fn attach_file(self, engine: Arc<Engine>, kind: SiblingKind, file: web_sys::File) {
        let status = self.status(kind);
        let name = file.name();
        let listed = engine
            .missing(kind)
            .iter()
            .find(|s| s.file == name)
            .map(|s| s.len);
        let Some(listed) = listed else {
            let why = format!("{}: the blob needs no such file", file.name());
            status.set(SiblingStatus::Failed(why));
            return;
        };
        let total = file.size() as u64;
        status.set(SiblingStatus::Fetching { received: 0, total });
        self.scope.spawn(async move {
            let attached = match read_file(&file, Limit::Listed(listed)).await {
                Ok(bytes) => attach(&engine, kind, &bytes).map_err(|e| e.to_string()),
                Err(e) => Err(e.to_string()),
            };
            status.try_set(match attached {
                Ok(()) if engine.missing(kind).is_empty() => SiblingStatus::Ready,
                Ok(()) => SiblingStatus::Idle,
                Err(why) => SiblingStatus::Failed(why),
            });
        });
    }

    /// Marks the siblings a blob opened from disk lists but the picker did
    /// not bring, saying how to give them.
    pub fn not_picked(self, engine: &Engine) {
        for kind in SiblingKind::ALL {
            if let Some(sibling) = engine.missing(kind).first() {
                if self.status(kind).get_untracked() == SiblingStatus::Idle {
                    self.status(kind).set(SiblingStatus::Failed(format!(
                        "open `{}` together with the blob (Open blob… takes several files)",
                        sibling.file
                    )));
                }
            }
        }
    }
}

fn attach(engine: &Engine, kind: SiblingKind, bytes: &[u8]) -> Result<(), BlobError> {
    match kind {
        SiblingKind::Text => engine.attach_text(bytes),
        SiblingKind::Vectors => engine.attach_vectors(bytes),
    }
}

/// Where a light blob's text parts come from: the site (a listed pool),
/// or the file picker with the blob (a pool opened from disk).
#[derive(Clone, Copy)]
pub struct PoolText {
    pub siblings: Siblings,
    pub from_site: bool,
}

impl PoolText {
    /// Fetches the parts `docs` need (every part: `None`) from the site.
    pub fn fetch(&self, engine: &Arc<Engine>, docs: Option<&[usize]>) {
        if self.from_site {
            self.siblings.fetch_text(engine.clone(), docs);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::TextError;

    #[test]
    fn text_errors_read_as_the_messages_users_saw() {
        let missing = TextError::NotLoaded {
            file: "pool.0.text".into(),
        };
        assert_eq!(
            missing.to_string(),
            "the pool's text file `pool.0.text` is not loaded: open it with the blob"
        );
        assert_eq!(
            TextError::Missing("offline".into()).to_string(),
            "the pool's text is missing: offline"
        );
    }
}
