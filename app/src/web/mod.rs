//! The browser's APIs, wrapped once: fetching with progress, time and
//! yielding to the event loop, hashing, the DOM helpers the views share,
//! and JS errors as messages. The app's other modules reach the browser
//! only through here (and `semantic`'s runtime), so a change of browser
//! API touches one place. Depends on nothing else in the app.

mod dom;
mod fetch;
mod hash;
mod time;

pub use dom::{download, focus_id};
pub use fetch::{fetch_blob, fetch_bytes, read_file, FetchError};
pub use hash::sha384_base64;
pub use time::{next_task, now, sleep};

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
