//! IndexedDB as a few string-valued key-value stores: enough to keep
//! LLM transcripts (megabytes, more than `localStorage` holds) across
//! visits and offline. Each request becomes a promise through its
//! success and error events, so the rest is plain `async`.

use std::fmt;

use js_sys::{Array, Promise};
use leptos::prelude::window;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{IdbDatabase, IdbOpenDbRequest, IdbRequest, IdbTransactionMode};

use super::js_message;

/// Why IndexedDB did not keep or give back a value.
#[derive(Debug, Clone, PartialEq)]
pub enum IdbError {
    /// The browser offers no IndexedDB at all.
    Missing,
    /// The browser refused access to IndexedDB (e.g. storage disabled).
    Unavailable(String),
    /// Database `name` did not open.
    Open { name: String, message: String },
    /// A request or transaction failed, with the browser's message.
    Request(String),
}

impl fmt::Display for IdbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IdbError::Missing => f.write_str("IndexedDB is not available in this browser"),
            IdbError::Unavailable(message) => {
                write!(f, "IndexedDB is not available: {message}")
            }
            IdbError::Open { name, message } => {
                write!(f, "IndexedDB could not open {name}: {message}")
            }
            IdbError::Request(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for IdbError {}

/// A failed IndexedDB call, as [`IdbError::Request`].
fn request_error(e: JsValue) -> IdbError {
    IdbError::Request(js_message(&e))
}

/// An open database.
pub struct Idb(IdbDatabase);

/// Resolves when `request` succeeds (with its result), rejects on error.
async fn done(request: &IdbRequest) -> Result<JsValue, IdbError> {
    let promise = Promise::new(&mut |resolve, reject| {
        request.set_onsuccess(Some(&resolve));
        request.set_onerror(Some(&reject));
    });
    let outcome = JsFuture::from(promise).await;
    request.set_onsuccess(None);
    request.set_onerror(None);
    match outcome {
        Ok(_) => request.result().map_err(request_error),
        Err(_) => Err(IdbError::Request(
            request
                .error()
                .ok()
                .flatten()
                .map_or_else(|| "unknown error".to_owned(), |e| e.message()),
        )),
    }
}

impl Idb {
    /// Opens database `name` with object stores `stores` (created on
    /// first use; keys are strings given with each value).
    pub async fn open(name: &str, stores: &'static [&'static str]) -> Result<Idb, IdbError> {
        let fail = |e: JsValue| IdbError::Unavailable(js_message(&e));
        let factory = window()
            .indexed_db()
            .map_err(fail)?
            .ok_or(IdbError::Missing)?;
        let request: IdbOpenDbRequest = factory.open_with_u32(name, 1).map_err(fail)?;
        let upgrade = Closure::<dyn FnMut(web_sys::Event)>::new(move |ev: web_sys::Event| {
            let Some(db) = ev
                .target()
                .and_then(|t| t.dyn_into::<IdbRequest>().ok())
                .and_then(|r| r.result().ok())
                .and_then(|r| r.dyn_into::<IdbDatabase>().ok())
            else {
                return;
            };
            for store in stores {
                if !db.object_store_names().contains(store) {
                    let _ = db.create_object_store(store);
                }
            }
        });
        request.set_onupgradeneeded(Some(upgrade.as_ref().unchecked_ref()));
        let result = done(&request).await;
        request.set_onupgradeneeded(None);
        let db = result.map_err(|e| IdbError::Open {
            name: name.to_owned(),
            message: e.to_string(),
        })?;
        Ok(Idb(db.unchecked_into()))
    }

    fn store(
        &self,
        store: &str,
        mode: IdbTransactionMode,
    ) -> Result<web_sys::IdbObjectStore, IdbError> {
        self.0
            .transaction_with_str_and_mode(store, mode)
            .and_then(|t| t.object_store(store))
            .map_err(request_error)
    }

    /// Keeps `value` under `key`, replacing what was there.
    pub async fn put(&self, store: &str, key: &str, value: &str) -> Result<(), IdbError> {
        let request = self
            .store(store, IdbTransactionMode::Readwrite)?
            .put_with_key(&JsValue::from_str(value), &JsValue::from_str(key))
            .map_err(request_error)?;
        done(&request).await.map(drop)
    }

    /// The value under `key`, if any.
    pub async fn get(&self, store: &str, key: &str) -> Result<Option<String>, IdbError> {
        let request = self
            .store(store, IdbTransactionMode::Readonly)?
            .get(&JsValue::from_str(key))
            .map_err(request_error)?;
        Ok(done(&request).await?.as_string())
    }

    /// Forgets `key`.
    pub async fn delete(&self, store: &str, key: &str) -> Result<(), IdbError> {
        let request = self
            .store(store, IdbTransactionMode::Readwrite)?
            .delete(&JsValue::from_str(key))
            .map_err(request_error)?;
        done(&request).await.map(drop)
    }

    /// Every value of `store`, in key order.
    pub async fn values(&self, store: &str) -> Result<Vec<String>, IdbError> {
        let request = self
            .store(store, IdbTransactionMode::Readonly)?
            .get_all()
            .map_err(request_error)?;
        let all: Array = done(&request).await?.unchecked_into();
        Ok(all.iter().filter_map(|v| v.as_string()).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::IdbError;

    #[test]
    fn errors_read_as_the_messages_users_saw() {
        assert_eq!(
            IdbError::Missing.to_string(),
            "IndexedDB is not available in this browser"
        );
        let open = IdbError::Open {
            name: "nomos-llm".into(),
            message: IdbError::Request("quota".into()).to_string(),
        };
        assert_eq!(
            open.to_string(),
            "IndexedDB could not open nomos-llm: quota"
        );
    }
}
