//! The origin's storage as the browser reports it (`navigator.storage`):
//! asking that what the app keeps offline be persistent (not cleared when
//! the disk runs low), and how much room is used and granted, so that a
//! download larger than the room left is announced before it starts.
//! Read through `Reflect`: a browser without `navigator.storage` (or a
//! page that is not a secure context) reports nothing, and the app says
//! so rather than guess.

use js_sys::{Function, Promise, Reflect};
use leptos::prelude::window;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// What the browser says the origin uses and may use, in bytes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StorageEstimate {
    pub usage: u64,
    pub quota: u64,
}

/// Calls `navigator.storage[name]()` and awaits its promise.
async fn call_storage(name: &str) -> Option<JsValue> {
    let storage = Reflect::get(&window().navigator(), &"storage".into()).ok()?;
    if storage.is_undefined() {
        return None;
    }
    let method: Function = Reflect::get(&storage, &name.into()).ok()?.dyn_into().ok()?;
    let promise: Promise = method.call0(&storage).ok()?.dyn_into().ok()?;
    JsFuture::from(promise).await.ok()
}

/// Asks that the origin's storage be persistent; whether it is.
pub async fn persist_storage() -> bool {
    call_storage("persist")
        .await
        .and_then(|granted| granted.as_bool())
        .unwrap_or(false)
}

/// The browser's estimate of the origin's usage and quota, if it gives one.
pub async fn storage_estimate() -> Option<StorageEstimate> {
    let estimate = call_storage("estimate").await?;
    let number = |key: &str| Reflect::get(&estimate, &key.into()).ok()?.as_f64();
    Some(StorageEstimate {
        usage: number("usage")? as u64,
        quota: number("quota")? as u64,
    })
}
