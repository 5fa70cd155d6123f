//! Getting pools into memory: the manifest of the site's pools, fetching
//! a blob with a progress report, or reading one the user picked from
//! disk, both through a [`BlobIntake`] (size cap, first bytes checked
//! before the rest is read). Both paths end in [`Engine::load`], which
//! validates every byte, and a new [`Session`] replacing the old one.
//! Every failure is a typed [`LoadError`] for the status line, never a
//! panic.

use std::fmt;
use std::sync::Arc;

use leptos::prelude::*;
use leptos::task::spawn_local;
use nomos_core::blob::SiblingKind;
use nomos_core::methods::Method;

use crate::latest::{Latest, Ticket};
use crate::llm::Llm;
use crate::manifest::{Manifest, ManifestEntry, ManifestError, Unserved, INDEX_DIR};
use crate::past_worker::PastWorker;
use crate::pool::blob_intake::{BlobIntake, IntakeError};
use crate::pool::engine::{Engine, EngineError};
use crate::pool::fragmented::FragPool;
use crate::pool::scope::PoolScope;
use crate::pools::frag_store::{keep_offline, keep_offline_fetched, FragStore};
use crate::pools::session::Session;
use crate::semantic::Semantic;
use crate::size_caps::POOL_MANIFEST;
use crate::state::{AppState, PoolChoice};
use crate::web::{
    fetch_bytes, fetch_into, forget_cached, read_into, sleep, worker_controls_page, FetchError,
    Limit, Sink, StreamError,
};

/// How long a replaced pool's state outlives it ([`Pools::release_scope`]).
const DISPOSE_AFTER_MILLIS: i32 = 1000;

/// Why the manifest or a pool did not load.
#[derive(Debug, Clone, PartialEq)]
pub enum LoadError {
    Fetch(FetchError),
    /// The manifest is not valid JSON of the expected shape.
    Manifest(ManifestError),
    /// A blob refused before it was read whole (size, kind, version).
    Intake {
        name: String,
        error: IntakeError,
    },
    Engine(EngineError),
    /// A fragmented pool's meta file is refused (core's reason).
    Fragments {
        name: String,
        error: String,
    },
    /// The blob is valid but not the version the manifest lists (a stale
    /// copy from a cache, or a site updated half-way).
    Stale {
        url: String,
        listed: String,
        loaded: String,
    },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Fetch(e) => e.fmt(f),
            LoadError::Manifest(e) => e.fmt(f),
            LoadError::Intake { name, error } => write!(f, "{name} cannot be opened: {error}"),
            LoadError::Engine(e) => e.fmt(f),
            LoadError::Fragments { name, error } => write!(f, "{name} cannot be opened: {error}"),
            LoadError::Stale {
                url,
                listed,
                loaded,
            } => write!(
                f,
                "{url} is not the version the manifest lists (content hash {loaded}, not \
                 {listed}): a stale copy; choose the pool again, or reload the page"
            ),
        }
    }
}

/// Where loading the current pool stands.
#[derive(Debug, Clone, PartialEq)]
pub enum LoadStatus {
    Idle,
    /// Downloading or reading `name`; `total` is the expected size.
    Reading {
        name: String,
        received: u64,
        total: Option<u64>,
    },
    /// Checking and indexing `name` (checksum, archives, postings).
    Validating {
        name: String,
    },
    Ready,
    Failed(LoadError),
}

/// The manifest, the loaded pool's session and the load status.
#[derive(Clone, Copy)]
pub struct Pools {
    pub manifest: RwSignal<Option<Result<Manifest, LoadError>>>,
    pub session: RwSignal<Option<Session>>,
    /// The loaded pool when it is fragmented (then `session` is `None`).
    pub fragmented: RwSignal<Option<FragStore>>,
    pub status: RwSignal<LoadStatus>,
    /// Only the latest load may install its pool.
    loads: Latest,
    /// The reactive owner of the loaded pool's state: its session's or
    /// store's signals ([`crate::pool::scope`]).
    scope: StoredValue<Option<Owner>>,
    /// The owner the pools store was made in (the app's): each pool's
    /// owner is made its child, whichever owner is current when a load
    /// finishes, so that cleaning up a view never disposes a pool.
    parent: StoredValue<Option<WeakOwner>>,
    state: AppState,
    semantic: Semantic,
    llm: Llm,
    past_worker: PastWorker,
}

impl Pools {
    pub fn new(state: AppState, semantic: Semantic, llm: Llm, past_worker: PastWorker) -> Self {
        Pools {
            manifest: RwSignal::new(None),
            session: RwSignal::new(None),
            fragmented: RwSignal::new(None),
            status: RwSignal::new(LoadStatus::Idle),
            loads: Latest::new(),
            scope: StoredValue::new(None),
            parent: StoredValue::new(Owner::current().map(|o| o.downgrade())),
            state,
            semantic,
            llm,
            past_worker,
        }
    }

    /// The loaded pool's engine (tracked: re-runs when the pool changes).
    pub fn engine(&self) -> Option<Arc<Engine>> {
        self.session.with(|s| s.as_ref().map(|s| s.engine.clone()))
    }

    /// [`Pools::engine`], untracked.
    pub fn engine_untracked(&self) -> Option<Arc<Engine>> {
        self.session
            .with_untracked(|s| s.as_ref().map(|s| s.engine.clone()))
    }

    /// Fetches the manifest, then loads the chosen pool (the first listed
    /// when none is chosen yet).
    pub fn start(self) {
        spawn_local(async move {
            let manifest = fetch_manifest().await;
            crate::timings::mark("manifest");
            match &manifest {
                Ok(m) if self.state.pool.get_untracked().is_none() => {
                    if let Some(first) = m.indexes.first() {
                        let choice = PoolChoice::Listed(first.file.clone());
                        self.state.pool.set(Some(choice));
                    }
                }
                Ok(_) => {}
                Err(e) => self.status.set(LoadStatus::Failed(e.clone())),
            }
            self.manifest.set(Some(manifest));
        });
    }

    /// The manifest entry named `file`.
    pub fn entry(&self, file: &str) -> Option<ManifestEntry> {
        self.manifest
            .with(|m| m.as_ref()?.as_ref().ok()?.entry(file).cloned())
    }

    /// Downloads and opens a manifest entry.
    pub fn load_listed(self, entry: ManifestEntry) {
        if let Some(dir) = entry.fragments_dir() {
            return self.load_fragmented(entry, dir);
        }
        let ticket = self.begin();
        spawn_local(async move {
            let url = entry.url();
            let progress = |received, total| {
                if ticket.is_current() {
                    self.status.set(LoadStatus::Reading {
                        name: entry.title.clone(),
                        received,
                        total,
                    });
                }
            };
            let controlled = worker_controls_page();
            let mut intake = BlobIntake::default();
            let read = fetch_into(&url, Limit::Listed(entry.bytes), progress, &mut intake).await;
            let bytes = taken(read, intake, &entry.title);
            self.finish(ticket, &entry.title, bytes, Some((&entry, controlled)))
                .await;
        });
    }

    /// Fetches and checks a fragmented pool's meta file (the fragments
    /// come with queries) and installs its store.
    fn load_fragmented(self, entry: ManifestEntry, dir: String) {
        let ticket = self.begin();
        spawn_local(async move {
            let url = format!("{dir}meta");
            let name = entry.title.clone();
            let progress = |received, total| {
                if ticket.is_current() {
                    self.status.set(LoadStatus::Reading {
                        name: name.clone(),
                        received,
                        total,
                    });
                }
            };
            // A first visit's page fetches past the service worker, which
            // then holds nothing to keep: it is handed the bytes.
            let past_worker = !worker_controls_page();
            let bytes = fetch_bytes(&url, Limit::Listed(entry.bytes), progress).await;
            if !ticket.is_current() {
                return;
            }
            let loaded = bytes.map_err(LoadError::Fetch).and_then(|b| {
                let pool = FragPool::load(&b, &name).map_err(|e| LoadError::Fragments {
                    name: name.clone(),
                    error: e.to_string(),
                })?;
                Ok((pool, b))
            });
            let loaded = match loaded {
                Ok((pool, _)) if !entry.is_listed_content(&pool.content_hash()) => {
                    Err(LoadError::Stale {
                        url: url.clone(),
                        listed: entry.content_hash.clone(),
                        loaded: pool.content_hash(),
                    })
                }
                loaded => loaded,
            };
            self.session.set(None);
            self.semantic.set_source(None);
            match loaded {
                Ok((pool, bytes)) => {
                    crate::timings::mark("pool");
                    // Lists' vectors need the model they were made with,
                    // found by its manifest's hash as a blob's are.
                    let model = pool.meta().dense_model().map(|(id, hash, _)| {
                        self.manifest.with_untracked(|manifest| match manifest {
                            Some(Ok(manifest)) => manifest.model_source(id, hash),
                            _ => Err(Unserved {
                                model: id.to_owned(),
                            }),
                        })
                    });
                    self.semantic.set_source(model);
                    // The link's method is applied with its other parts.
                    self.state.linked_method.set(None);
                    self.state
                        .reset_for_new_pool(Method::Bm25, pool.meta().bm25_params());
                    let choice = self.state.pool.get_untracked();
                    let owner = self.new_scope();
                    let scope = PoolScope::of(&owner);
                    let store =
                        owner.with(|| FragStore::new(scope, choice, pool, dir, self.semantic));
                    self.fragmented.set(Some(store));
                    self.status.set(LoadStatus::Ready);
                    store.drop_earlier_builds();
                    match past_worker {
                        true => keep_offline_fetched(url, bytes),
                        false => keep_offline(vec![url]),
                    }
                }
                Err(e) => {
                    forget_cached(vec![url]);
                    self.fragmented.set(None);
                    self.release_scope();
                    self.status.set(LoadStatus::Failed(e));
                }
            }
        });
    }

    /// Reads and opens a blob the user picked, with `others`: its sibling
    /// files (text, vectors), picked with it.
    pub fn load_file(self, file: web_sys::File, others: Vec<web_sys::File>) {
        let ticket = self.begin();
        let name = file.name();
        self.state.pool.set(Some(PoolChoice::Local(name.clone())));
        self.status.set(LoadStatus::Reading {
            name: name.clone(),
            received: 0,
            total: Some(file.size() as u64),
        });
        spawn_local(async move {
            let progress = |received, total| {
                if ticket.is_current() {
                    self.status.set(LoadStatus::Reading {
                        name: name.clone(),
                        received,
                        total,
                    });
                }
            };
            let mut intake = BlobIntake::default();
            let read = read_into(&file, progress, &mut intake).await;
            self.finish(ticket, &name, taken(read, intake, &name), None)
                .await;
            let Some(session) = self.session.get_untracked().filter(|_| ticket.is_current()) else {
                return;
            };
            for kind in SiblingKind::ALL {
                let listed: Vec<String> = session
                    .engine
                    .missing(kind)
                    .iter()
                    .map(|s| s.file.clone())
                    .collect();
                for picked in others.iter().filter(|f| listed.contains(&f.name())) {
                    let engine = session.engine.clone();
                    session.siblings.attach_file(engine, kind, picked.clone());
                }
            }
            session.siblings.not_picked(&session.engine);
        });
    }

    /// An owner for the state of the pool being installed, replacing the
    /// previous pool's ([`Self::release_scope`]).
    fn new_scope(&self) -> Owner {
        let parent = self
            .parent
            .with_value(|p| p.as_ref().and_then(WeakOwner::upgrade));
        let owner = parent.map_or_else(Owner::new, |p| p.child());
        self.release_scope();
        self.scope.set_value(Some(owner.clone()));
        owner
    }

    /// Lets go of the loaded pool's state (see [`crate::pool::scope`]) once
    /// the views that showed it have been replaced: they re-render in the
    /// tasks a signal change schedules, which all run before a timer
    /// fires. Its tasks still running hold it until they end.
    fn release_scope(&self) {
        if let Some(owner) = self.scope.try_update_value(Option::take).flatten() {
            spawn_local(async move {
                sleep(DISPOSE_AFTER_MILLIS).await;
                drop(owner);
            });
        }
    }

    /// A new load supersedes any other, and the current pool's work stops
    /// (its results stay visible until the new pool replaces it).
    fn begin(&self) -> Ticket {
        if let Some(session) = self.session.get_untracked() {
            session.close();
        }
        if let Some(store) = self.fragmented.get_untracked() {
            store.close();
        }
        self.loads.begin()
    }

    /// Validates `bytes` into an engine (a listed blob must be the version
    /// its manifest entry lists) and installs it as the new session, unless
    /// a newer load started meanwhile. A listed blob that fails is dropped
    /// from the service worker's caches, so that the next try fetches it.
    async fn finish(
        self,
        ticket: Ticket,
        name: &str,
        bytes: Result<Vec<u8>, LoadError>,
        // A manifest entry, and whether the service worker controlled the
        // page when its download began.
        listed: Option<(&ManifestEntry, bool)>,
    ) {
        if !ticket.is_current() {
            return;
        }
        let bytes = match bytes {
            Ok(b) => b,
            Err(e) => return self.status.set(LoadStatus::Failed(e)),
        };
        self.status.set(LoadStatus::Validating {
            name: name.to_owned(),
        });
        // Let the browser paint the status before the CPU-bound check.
        sleep(30).await;
        if !ticket.is_current() {
            return;
        }
        let loaded = Engine::load(&bytes, name).map_err(LoadError::Engine);
        let loaded = match (loaded, listed.map(|(entry, _)| entry)) {
            (Ok(engine), Some(entry)) if !entry.is_listed_content(&engine.content_hash()) => {
                Err(LoadError::Stale {
                    url: entry.url(),
                    listed: entry.content_hash.clone(),
                    loaded: engine.content_hash(),
                })
            }
            (loaded, _) => loaded,
        };
        // Kept for the service worker if they came past it; freed now
        // otherwise.
        match (&loaded, listed) {
            (Ok(_), Some((entry, controlled))) => {
                self.past_worker.hold(controlled, &entry.file, bytes)
            }
            _ => drop(bytes),
        }
        match loaded {
            Ok(engine) => {
                crate::timings::mark("pool");
                let model = engine.dense_model().map(|m| {
                    self.manifest.with_untracked(|manifest| match manifest {
                        Some(Ok(manifest)) => manifest.model_source(&m.id, &m.manifest_hash),
                        _ => Err(Unserved {
                            model: m.id.clone(),
                        }),
                    })
                });
                let served = matches!(model, Some(Ok(_)));
                // A link's method first, where the pool can rank with it
                // here (else the link says why, once it is applied).
                let linked = self
                    .state
                    .linked_method
                    .try_update_untracked(Option::take)
                    .flatten()
                    .filter(|m| served || !m.needs_dense());
                let method = linked.unwrap_or_else(|| engine.default_method(served));
                self.state
                    .reset_for_new_pool(method, engine.default_params());
                self.semantic.set_source(model.clone());
                let choice = self.state.pool.get_untracked();
                let engine = Arc::new(engine);
                let owner = self.new_scope();
                let scope = PoolScope::of(&owner);
                let session = owner.with(|| {
                    Session::new(
                        scope,
                        choice,
                        engine.clone(),
                        model,
                        self.semantic,
                        self.llm,
                    )
                });
                // Set only when it changes: a set notifies even when equal.
                if self.fragmented.with_untracked(Option::is_some) {
                    self.fragmented.set(None);
                }
                self.session.set(Some(session.clone()));
                self.status.set(LoadStatus::Ready);
            }
            Err(e) => {
                if let Some((entry, _)) = listed {
                    forget_cached(vec![entry.url()]);
                }
                self.session.set(None);
                self.release_scope();
                self.semantic.set_source(None);
                self.status.set(LoadStatus::Failed(e));
            }
        }
    }
}

impl Sink for BlobIntake {
    type Refusal = IntakeError;

    fn announce(&mut self, bytes: u64) -> Result<(), IntakeError> {
        BlobIntake::announce(self, bytes)
    }

    fn take(&mut self, chunk: &[u8]) -> Result<(), IntakeError> {
        BlobIntake::take(self, chunk)
    }
}

/// A blob's bytes once read into `intake`, or why not.
fn taken(
    read: Result<(), StreamError<IntakeError>>,
    intake: BlobIntake,
    name: &str,
) -> Result<Vec<u8>, LoadError> {
    let refused = |error| LoadError::Intake {
        name: name.to_owned(),
        error,
    };
    match read {
        Ok(()) => intake.finish().map_err(refused),
        Err(StreamError::Read(e)) => Err(LoadError::Fetch(e)),
        Err(StreamError::Refused(e)) => Err(refused(e)),
    }
}

pub fn use_pools() -> Pools {
    expect_context::<Pools>()
}

async fn fetch_manifest() -> Result<Manifest, LoadError> {
    let url = format!("{INDEX_DIR}manifest.json");
    let bytes = fetch_bytes(&url, Limit::Cap(POOL_MANIFEST), |_, _| {})
        .await
        .map_err(LoadError::Fetch)?;
    Manifest::from_json(&bytes, &url).map_err(LoadError::Manifest)
}
