//! The model loaded in the page (wllama), as the LLM settings offer it:
//! the one the site serves, or a GGUF the user picks. Loaded on request
//! only (98 MB for the demo model), with progress; runs then ask it
//! instead of the endpoint when the settings say so.

use std::rc::Rc;

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::llm::wllama::{self, InPageModel};

/// Where the site serves the demo model (`scripts/build-demo.sh
/// --in-page-llm`), relative to the app.
pub const SERVED_MODEL: &str = "models/smollm2-135m-instruct/";

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
    model: StoredValue<Option<Rc<InPageModel>>, LocalStorage>,
}

impl InPage {
    pub fn new() -> InPage {
        InPage {
            status: RwSignal::new(InPageStatus::Unloaded),
            urls: RwSignal::new(Vec::new()),
            model: StoredValue::new_local(None),
        }
    }

    /// The loaded model, if one is.
    pub fn model(&self) -> Option<Rc<InPageModel>> {
        self.model.get_value()
    }

    /// Loads the model the site serves.
    pub fn load_served(self) {
        self.load(|progress| async move { wllama::load(SERVED_MODEL, progress).await });
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
