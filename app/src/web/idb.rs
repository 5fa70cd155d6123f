//! IndexedDB as a few string-valued key-value stores: enough to keep
//! LLM transcripts (megabytes, more than `localStorage` holds) across
//! visits and offline. Each request becomes a promise through its
//! success and error events, so the rest is plain `async`.

use js_sys::{Array, Promise};
use leptos::prelude::window;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{IdbDatabase, IdbOpenDbRequest, IdbRequest, IdbTransactionMode};

use super::js_message;

/// An open database.
pub struct Idb(IdbDatabase);

/// Resolves when `request` succeeds (with its result), rejects on error.
async fn done(request: &IdbRequest) -> Result<JsValue, String> {
    let promise = Promise::new(&mut |resolve, reject| {
        request.set_onsuccess(Some(&resolve));
        request.set_onerror(Some(&reject));
    });
    let outcome = JsFuture::from(promise).await;
    request.set_onsuccess(None);
    request.set_onerror(None);
    match outcome {
        Ok(_) => request.result().map_err(|e| js_message(&e)),
        Err(_) => Err(request
            .error()
            .ok()
            .flatten()
            .map_or_else(|| "unknown error".to_owned(), |e| e.message())),
    }
}

impl Idb {
    /// Opens database `name` with object stores `stores` (created on
    /// first use; keys are strings given with each value).
    pub async fn open(name: &str, stores: &'static [&'static str]) -> Result<Idb, String> {
        let fail = |e: JsValue| format!("IndexedDB is not available: {}", js_message(&e));
        let factory = window()
            .indexed_db()
            .map_err(fail)?
            .ok_or("IndexedDB is not available in this browser")?;
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
        let db = result.map_err(|e| format!("IndexedDB could not open {name}: {e}"))?;
        Ok(Idb(db.unchecked_into()))
    }

    fn store(
        &self,
        store: &str,
        mode: IdbTransactionMode,
    ) -> Result<web_sys::IdbObjectStore, String> {
        self.0
            .transaction_with_str_and_mode(store, mode)
            .and_then(|t| t.object_store(store))
            .map_err(|e| js_message(&e))
    }

    /// Keeps `value` under `key`, replacing what was there.
    pub async fn put(&self, store: &str, key: &str, value: &str) -> Result<(), String> {
        let request = self
            .store(store, IdbTransactionMode::Readwrite)?
            .put_with_key(&JsValue::from_str(value), &JsValue::from_str(key))
            .map_err(|e| js_message(&e))?;
        done(&request).await.map(drop)
    }

    /// The value under `key`, if any.
    pub async fn get(&self, store: &str, key: &str) -> Result<Option<String>, String> {
        let request = self
            .store(store, IdbTransactionMode::Readonly)?
            .get(&JsValue::from_str(key))
            .map_err(|e| js_message(&e))?;
        Ok(done(&request).await?.as_string())
    }

    /// Forgets `key`.
    pub async fn delete(&self, store: &str, key: &str) -> Result<(), String> {
        let request = self
            .store(store, IdbTransactionMode::Readwrite)?
            .delete(&JsValue::from_str(key))
            .map_err(|e| js_message(&e))?;
        done(&request).await.map(drop)
    }

    /// Every value of `store`, in key order.
    pub async fn values(&self, store: &str) -> Result<Vec<String>, String> {
        let request = self
            .store(store, IdbTransactionMode::Readonly)?
            .get_all()
            .map_err(|e| js_message(&e))?;
        let all: Array = done(&request).await?.unchecked_into();
        Ok(all.iter().filter_map(|v| v.as_string()).collect())
    }
}
