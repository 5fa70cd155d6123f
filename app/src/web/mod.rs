//! The browser's APIs, wrapped once: fetching with progress and a size
//! limit, POSTing to
//! an LLM endpoint with a time limit and Cancel, time and yielding to the
//! event loop, hashing, `localStorage`, IndexedDB and the storage quota, the page's
//! Content-Security-Policy violations, the service worker's messages,
//! whether the page may run threads or is framed,
//! the DOM helpers the views share,
//! and JS errors as messages. The app's other modules reach the browser
//! only through here (and `semantic`'s runtime and worker), so a change of browser
//! API touches one place. Depends on nothing else in the app.

mod csp;
mod dom;
mod fetch;
mod framing;
mod hash;
mod http;
mod idb;
mod isolation;
mod limit;
mod location;
mod quota;
mod service_worker;
mod storage;
mod time;

pub use csp::{csp_blocked, watch_csp_violations};
pub use dom::{
    close_dialog, copy_text, dialog_open, download, focus_anchor, focus_id, outer_html,
    restore_focus, show_dialog, step_focus, typing_in,
};
// For the embedding model's runtime, which the native build leaves out.
#[cfg(target_arch = "wasm32")]
pub use dom::{object_url, DomError};
pub use fetch::{
    damaged_message, fetch_blob, fetch_bytes, fetch_into, read_file, read_into, FetchError, Sink,
    StreamError,
};
pub use framing::framed;
pub use hash::sha384_base64;
pub use http::{post_json, CancelUnsupported, Canceller, HttpError};
pub use idb::{Idb, IdbError};
pub use isolation::{cross_origin_isolated, hardware_threads};
pub use limit::{Cap, Limit};
pub use location::{page_origin, resolve_url, site_dir, UrlError};
pub use quota::{persist_storage, storage_estimate, StorageEstimate};
pub use service_worker::{
    ask_service_worker, forget_cached, keep_fragment_bytes, keep_with_bytes, pinned,
    register_service_worker, worker_controls_page, worker_controls_page_within, ServiceWorkerError,
};
pub use storage::{local_get, local_remove, local_set, StorageError};
pub use time::{next_task, now, sleep, today, unix_ms};

use js_sys::Reflect;
use wasm_bindgen::JsValue;

/// A JS error's message (`TypeError: Failed to fetch` → `Failed to fetch`).
pub fn js_message(e: &JsValue) -> String {
    Reflect::get(e, &"message".into())
        .ok()
        .and_then(|m| m.as_string())
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "unknown error".into())
}
