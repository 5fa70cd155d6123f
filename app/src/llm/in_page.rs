//! The model loaded in the page (wllama), as the LLM settings offer it:
//! one the site serves, or a GGUF the user picks. Loaded on request only
//! (98 MB or 491 MB for the demo's, their sizes shown first), with
//! progress; runs then ask it instead of the endpoint when the settings
//! say so.

use std::rc::Rc;

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::llm::wllama::{self, InPageModel};

/// A model the site serves for the page (`scripts/build-demo.sh
/// --in-page-llm`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ServedModel {
    /// Its directory, relative to the app.
    pub dir: &'static str,
    pub name: &'static str,
    /// What it can do for the LLM methods, in a clause.
    pub can: &'static str,
}

/// The demo's in-page models, smallest first.
pub const SERVED_MODELS: [ServedModel; 2] = [
    ServedModel {
        dir: "models/smollm2-135m-instruct/",
        name: "SmolLM2-135M-Instruct",
        can: "too weak to plan: it shows the methods working end to end, with repeated or \
              off-topic keywords",
    },
    ServedModel {
        dir: "models/qwen2.5-coder-0.5b-instruct/",
        name: "Qwen2.5-Coder-0.5B-Instruct",
        can: "plans and judges in the JSON the methods ask for, but its keyword queries are \
              weak and its judgments keep every candidate",
    },
];

/// What the site says of a served model before its weights are fetched.
#[derive(Debug, Clone, PartialEq)]
pub enum Offer {
    Reading,
    /// The GGUF's size in bytes, as its manifest lists it.
    Size(u64),
    /// Not served here, or its manifest is refused: why.
    Unavailable(String),
}

/// What the in-page model is doing, for the settings and the pickers.
#[derive(Debug, Clone, PartialEq)]
pub enum InPageStatus {
    /// Nothing loaded (nothing fetched either).
    Unloaded,
    /// Bytes of the model and runtime fetched so far.
    Loading {
        received: u64,
        total: u64,
    },
    /// Answering; `licence` is the served model's.
    Ready {
        name: String,
        licence: Option<String>,
    },
    Failed(String),
}

/// The in-page model's store. `Copy`: signals and handles.
#[derive(Clone, Copy)]
pub struct InPage {
    pub status: RwSignal<InPageStatus>,
    /// What the model and runtime were fetched from, for the service
    /// worker to keep (a load before it controlled the page bypassed it).
    pub urls: RwSignal<Vec<String>>,
    /// One per [`SERVED_MODELS`] entry, once [`InPage::read_offers`] ran.
    pub offers: RwSignal<Vec<Offer>>,
    model: StoredValue<Option<Rc<InPageModel>>, LocalStorage>,
}

impl InPage {
    pub fn new() -> InPage {
        InPage {
            status: RwSignal::new(InPageStatus::Unloaded),
            urls: RwSignal::new(Vec::new()),
            offers: RwSignal::new(Vec::new()),
            model: StoredValue::new_local(None),
        }
    }

    /// The loaded model, if one is.
    pub fn model(&self) -> Option<Rc<InPageModel>> {
        self.model.get_value()
    }

    /// Reads the served models' manifests (a few hundred bytes each), once:
    /// their sizes are shown before anyone asks for the weights.
    pub fn read_offers(self) {
        if !self.offers.get_untracked().is_empty() {
            return;
        }
        self.offers.set(vec![Offer::Reading; SERVED_MODELS.len()]);
        for (i, served) in SERVED_MODELS.iter().enumerate() {
            spawn_local(async move {
                let offer = match wllama::served_manifest(served.dir).await {
                    Ok((manifest, _)) => Offer::Size(manifest.gguf().bytes),
                    Err(e) => Offer::Unavailable(e.to_string()),
                };
                self.offers.update(|offers| offers[i] = offer);
            });
        }
    }

    /// Loads a model the site serves.
    pub fn load_served(self, served: &'static ServedModel) {
        self.load(move |progress| async move { wllama::load(served.dir, progress).await });
    }

    /// Loads a GGUF file the user picked.
    pub fn load_file(self, file: web_sys::File) {
        self.load(|progress| async move { wllama::load_file(&file, progress).await });
    }

    fn load<F, Fut>(self, start: F)
    where
        F: FnOnce(Box<dyn Fn(u64, u64)>) -> Fut + 'static,
        Fut: std::future::Future<Output = Result<InPageModel, wllama::WllamaError>>,
    {
        if matches!(self.status.get_untracked(), InPageStatus::Loading { .. }) {
            return;
        }
        // The old model's worker ends before the new one starts.
        self.model.set_value(None);
        self.status.set(InPageStatus::Loading {
            received: 0,
            total: 0,
        });
        let status = self.status;
        let progress =
            Box::new(move |received, total| status.set(InPageStatus::Loading { received, total }));
        spawn_local(async move {
            match start(progress).await {
                Ok(model) => {
                    self.status.set(InPageStatus::Ready {
                        name: model.name().to_owned(),
                        licence: model.licence().map(str::to_owned),
                    });
                    self.urls.set(model.urls().to_vec());
                    self.model.set_value(Some(Rc::new(model)));
                }
                Err(e) => self.status.set(InPageStatus::Failed(e.to_string())),
            }
        });
    }
}
