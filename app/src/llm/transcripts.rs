//! The transcripts this browser has, by SHA-256: recorded by runs here,
//! opened from files, or fetched from this site (the links' `tpath`, or
//! the site's `transcripts/index.json`). They are kept in IndexedDB, so a
//! link keeps replaying after a reload and offline; where IndexedDB is
//! not available they are kept in memory for the visit, and the settings
//! say so.
//!
//! Everything loaded is checked: the text must parse as a transcript
//! (every exchange's key is its request's), and one fetched for a link
//! must have the link's hash.

use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;
use std::sync::Arc;

use futures::future::{FutureExt, LocalBoxFuture, Shared};
use leptos::prelude::*;
use leptos::task::spawn_local;
use nomos_core::llm::Transcript;
use nomos_core::order::sort_by;

use crate::size_caps::{TRANSCRIPT, TRANSCRIPT_INDEX};
use crate::transcript_files::{
    canonical, short_hash, under_site, Origin, SiteIndex, TranscriptFileError, TranscriptLink,
    TranscriptMeta, SITE_INDEX,
};
use crate::web::{
    fetch_bytes, page_origin, read_file, resolve_url, site_dir, FetchError, Idb, IdbError, Limit,
    UrlError,
};

const DB: &str = "nomos-transcripts";
/// `TranscriptMeta` as JSON, by hash.
const META: &str = "meta";
/// The canonical text, by hash.
const TEXT: &str = "text";

type Pending<T> = Shared<LocalBoxFuture<'static, Result<T, TranscriptError>>>;

/// Why a transcript was not loaded, kept or found.
#[derive(Debug, Clone, PartialEq)]
pub enum TranscriptError {
    /// The file could not be downloaded or read.
    Fetch(FetchError),
    /// IndexedDB is unavailable.
    Idb(IdbError),
    /// A typed URL that the browser does not take.
    Url(UrlError),
    /// A refused path, or the site's list does not read.
    File(TranscriptFileError),
    /// The file `name` is not UTF-8.
    NotUtf8 { name: String },
    /// The file `name` does not parse as a transcript.
    NotATranscript { name: String, message: String },
    /// The file at `path` hashes to `sha256`, not to the link's `wanted`.
    WrongHash {
        path: String,
        sha256: String,
        wanted: String,
    },
    /// This browser lacks the transcript, and the site does not list it.
    Missing { sha256: String },
}

impl fmt::Display for TranscriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TranscriptError::Fetch(e) => e.fmt(f),
            TranscriptError::Idb(e) => e.fmt(f),
            TranscriptError::Url(e) => e.fmt(f),
            TranscriptError::File(e) => e.fmt(f),
            TranscriptError::NotUtf8 { name } => write!(f, "{name} is not UTF-8 text"),
            TranscriptError::NotATranscript { name, message } => {
                write!(f, "{name} is not a transcript: {message}")
            }
            TranscriptError::WrongHash {
                path,
                sha256,
                wanted,
            } => write!(
                f,
                "{path} is not the transcript the link names: its SHA-256 is {}…, the link's {}…",
                short_hash(sha256),
                short_hash(wanted)
            ),
            TranscriptError::Missing { sha256 } => write!(
                f,
                "this browser does not have the LLM transcript {}… (SHA-256 {sha256}). Load it \
                 in LLM settings → Transcripts (Open file… or a URL on this site), or ask \
                 whoever shared the link for the .jsonl file",
                short_hash(sha256)
            ),
        }
    }
}

impl std::error::Error for TranscriptError {}

impl From<FetchError> for TranscriptError {
    fn from(e: FetchError) -> Self {
        TranscriptError::Fetch(e)
    }
}

impl From<TranscriptFileError> for TranscriptError {
    fn from(e: TranscriptFileError) -> Self {
        TranscriptError::File(e)
    }
}

/// The transcripts store. `Copy`: signals and stored handles.
#[derive(Clone, Copy)]
pub struct Transcripts {
    /// Every transcript kept, newest first.
    pub list: RwSignal<Vec<TranscriptMeta>>,
    /// The site's shipped transcripts, once read.
    pub site: RwSignal<Option<Result<SiteIndex, TranscriptError>>>,
    /// Why transcripts last only for this visit, if they do.
    pub memory_only: RwSignal<Option<String>>,
    /// The last load's outcome, for the settings.
    pub message: RwSignal<Option<Result<String, TranscriptError>>>,
    /// Whether the kept list has been read (until then a transcript is
    /// not known to be missing).
    pub ready: RwSignal<bool>,
    loaded: StoredValue<HashMap<String, Arc<Transcript>>, LocalStorage>,
    db: StoredValue<Option<Pending<Rc<Idb>>>, LocalStorage>,
    site_load: StoredValue<Option<Pending<SiteIndex>>, LocalStorage>,
}

impl Transcripts {
    pub fn new() -> Self {
        Transcripts {
            list: RwSignal::new(Vec::new()),
            site: RwSignal::new(None),
            memory_only: RwSignal::new(None),
            message: RwSignal::new(None),
            ready: RwSignal::new(false),
            loaded: StoredValue::new_local(HashMap::new()),
            db: StoredValue::new_local(None),
            site_load: StoredValue::new_local(None),
        }
    }

    /// Opens the database and reads what it keeps; reads the site's list.
    pub fn start(self) {
        let db: Pending<Rc<Idb>> = async {
            Idb::open(DB, &[META, TEXT])
                .await
                .map(Rc::new)
                .map_err(TranscriptError::Idb)
        }
        .boxed_local()
        .shared();
        self.db.set_value(Some(db.clone()));
        spawn_local(async move {
            let kept = match db.await {
                Ok(db) => db.values(META).await.map_err(TranscriptError::Idb),
                Err(e) => Err(e),
            };
            match kept {
                Ok(values) => {
                    let mut metas: Vec<TranscriptMeta> = values
                        .iter()
                        .filter_map(|v| serde_json::from_str(v).ok())
                        .collect();
                    sort_by(&mut metas, |a, b| b.added.total_cmp(&a.added));
                    self.list.update(|list| {
                        for meta in metas {
                            if !list.iter().any(|m| m.sha256 == meta.sha256) {
                                list.push(meta);
                            }
                        }
                    });
                }
                Err(e) => self.memory_only.set(Some(e.to_string())),
            }
            self.ready.set(true);
        });
        let site: Pending<SiteIndex> = async {
            let bytes = fetch_bytes(SITE_INDEX, Limit::Cap(TRANSCRIPT_INDEX), |_, _| {}).await?;
            Ok(SiteIndex::from_json(&bytes)?)
        }
        .boxed_local()
        .shared();
        self.site_load.set_value(Some(site.clone()));
        spawn_local(async move {
            let index = site.await;
            self.site.set(Some(index));
        });
    }

    async fn idb(&self) -> Option<Rc<Idb>> {
        self.db.get_value()?.await.ok()
    }

    /// Whether this browser has the transcript, or can fetch it from the
    /// site (tracked).
    pub fn knows(&self, link: &TranscriptLink) -> bool {
        link.path.is_some()
            || self
                .list
                .with(|l| l.iter().any(|m| m.sha256 == link.sha256))
            || self.site.with(|s| {
                s.as_ref()
                    .and_then(|s| s.as_ref().ok())
                    .is_some_and(|s| s.find(&link.sha256).is_some())
            })
    }

    /// Keeps `transcript` (in memory at once, in IndexedDB in the
    /// background) and returns what is known of it. One already kept
    /// keeps its first name.
    pub fn keep(
        self,
        transcript: Transcript,
        name: String,
        origin: Origin,
        path: Option<String>,
    ) -> TranscriptMeta {
        let (text, sha) = canonical(&transcript);
        self.loaded.update_value(|m| {
            m.entry(sha.clone())
                .or_insert_with(|| Arc::new(transcript.clone()));
        });
        if let Some(kept) = self
            .list
            .with_untracked(|l| l.iter().find(|m| m.sha256 == sha).cloned())
        {
            return kept;
        }
        let meta = TranscriptMeta::describe(
            &transcript,
            &text,
            &sha,
            name,
            origin,
            path,
            js_sys::Date::now(),
        );
        self.list.update(|l| l.insert(0, meta.clone()));
        let stored = meta.clone();
        spawn_local(async move {
            let Some(db) = self.idb().await else { return };
            let json = serde_json::to_string(&stored).unwrap_or_default();
            // The text first: a kept description always has its text.
            let saved = match db.put(TEXT, &stored.sha256, &text).await {
                Ok(()) => db.put(META, &stored.sha256, &json).await,
                Err(e) => Err(e),
            };
            if let Err(e) = saved {
                self.memory_only
                    .set(Some(format!("IndexedDB could not keep a transcript: {e}")));
            }
        });
        meta
    }

    /// The transcript `link` names: from memory, IndexedDB, or the site
    /// (its path, or the site's list). `Err` says which is missing and
    /// how to get it.
    pub async fn get(self, link: &TranscriptLink) -> Result<Arc<Transcript>, TranscriptError> {
        let sha = link.sha256.as_str();
        if let Some(t) = self.loaded.with_value(|m| m.get(sha).cloned()) {
            return Ok(t);
        }
        if let Some(db) = self.idb().await {
            if let Ok(Some(text)) = db.get(TEXT, sha).await {
                if let Ok(t) = Transcript::parse(&text) {
                    if canonical(&t).1 == sha {
                        let t = Arc::new(t);
                        self.loaded
                            .update_value(|m| drop(m.insert(sha.to_owned(), t.clone())));
                        return Ok(t);
                    }
                }
            }
        }
        let listed = match self.site_load.get_value() {
            Some(site) => site.await.ok().and_then(|s| s.find(sha).map(|e| e.path())),
            None => None,
        };
        match link.path.clone().or(listed) {
            Some(path) => {
                self.fetch_site(&path, Some(sha)).await?;
                self.loaded
                    .with_value(|m| m.get(sha).cloned())
                    .ok_or_else(|| missing(sha))
            }
            None => Err(missing(sha)),
        }
    }

    /// Fetches a transcript from this site's `path`, checks it (and its
    /// hash, when `expected`), and keeps it.
    async fn fetch_site(
        self,
        path: &str,
        expected: Option<&str>,
    ) -> Result<TranscriptMeta, TranscriptError> {
        let bytes = fetch_bytes(path, Limit::Cap(TRANSCRIPT), |_, _| {}).await?;
        let transcript = parse(&bytes, path)?;
        let sha = canonical(&transcript).1;
        if let Some(wanted) = expected.filter(|w| *w != sha) {
            return Err(TranscriptError::WrongHash {
                path: path.to_owned(),
                sha256: sha,
                wanted: wanted.to_owned(),
            });
        }
        let name = path.rsplit('/').next().unwrap_or(path).to_owned();
        Ok(self.keep(transcript, name, Origin::Site, Some(path.to_owned())))
    }

    /// Reads a transcript the user picked, and keeps it.
    pub fn load_file(self, file: web_sys::File) {
        self.message.set(None);
        spawn_local(async move {
            let name = file.name();
            let outcome = async {
                let bytes = read_file(&file, Limit::Cap(TRANSCRIPT)).await?;
                let transcript = parse(&bytes, &name)?;
                Ok(self.keep(transcript, name.clone(), Origin::File, None))
            }
            .await;
            self.report(outcome);
        });
    }

    /// Fetches a transcript from a URL the user typed, which must be on
    /// this site, and keeps it.
    pub fn load_url(self, input: String) {
        self.message.set(None);
        spawn_local(async move {
            let outcome = async {
                let (origin, path) = resolve_url(input.trim()).map_err(TranscriptError::Url)?;
                let path = under_site(&origin, &path, &page_origin(), &site_dir())?;
                self.fetch_site(&path, None).await
            }
            .await;
            self.report(outcome);
        });
    }

    fn report(&self, outcome: Result<TranscriptMeta, TranscriptError>) {
        self.message.set(Some(outcome.map(|m| {
            format!(
                "Loaded {}: {} exchanges with {}, SHA-256 {}….",
                m.name,
                m.exchanges,
                m.model,
                m.short()
            )
        })));
    }

    /// Forgets a transcript here (memory and IndexedDB).
    pub fn forget(self, sha256: String) {
        self.list.update(|l| l.retain(|m| m.sha256 != sha256));
        self.loaded.update_value(|m| drop(m.remove(&sha256)));
        spawn_local(async move {
            if let Some(db) = self.idb().await {
                let _ = db.delete(META, &sha256).await;
                let _ = db.delete(TEXT, &sha256).await;
            }
        });
    }

    /// A kept transcript's canonical text, for a download.
    pub async fn text(self, sha256: &str) -> Result<String, TranscriptError> {
        let link = TranscriptLink {
            sha256: sha256.to_owned(),
            path: None,
        };
        Ok(canonical(&*self.get(&link).await?).0)
    }
}

/// A transcript file's bytes, read and checked; errors name the file and
/// line.
fn parse(bytes: &[u8], name: &str) -> Result<Transcript, TranscriptError> {
    let text = std::str::from_utf8(bytes).map_err(|_| TranscriptError::NotUtf8 {
        name: name.to_owned(),
    })?;
    Transcript::parse(text).map_err(|e| TranscriptError::NotATranscript {
        name: name.to_owned(),
        message: e.to_string(),
    })
}

/// What to say about a transcript this browser lacks.
fn missing(sha256: &str) -> TranscriptError {
    TranscriptError::Missing {
        sha256: sha256.to_owned(),
    }
}
