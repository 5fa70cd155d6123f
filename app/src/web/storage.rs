//! `localStorage`, for settings a user asked this browser to keep, and for
//! which build of each fragmented pool it last opened. Every
//! call may fail (storage disabled, private mode, quota): reads then find
//! nothing, and writes say why.

use leptos::prelude::window;

use super::js_message;

fn storage() -> Result<web_sys::Storage, String> {
    match window().local_storage() {
        Ok(Some(s)) => Ok(s),
        Ok(None) => Err("this browser offers no local storage".to_owned()),
        Err(e) => Err(format!(
            "local storage is not available: {}",
            js_message(&e)
        )),
    }
}

/// The value kept under `key`, if any.
pub fn local_get(key: &str) -> Option<String> {
    storage().ok()?.get_item(key).ok().flatten()
}

/// Keeps `value` under `key`.
pub fn local_set(key: &str, value: &str) -> Result<(), String> {
    storage()?
        .set_item(key, value)
        .map_err(|e| format!("could not save in local storage: {}", js_message(&e)))
}

/// Forgets `key` (nothing to do when storage is unavailable: nothing was
/// kept).
pub fn local_remove(key: &str) {
    if let Ok(s) = storage() {
        let _ = s.remove_item(key);
    }
}
