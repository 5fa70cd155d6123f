//! `localStorage`, for settings a user asked this browser to keep, and for
//! which build of each fragmented pool it last opened. Every
//! call may fail (storage disabled, private mode, quota): reads then find
//! nothing, and writes say why.

use std::fmt;

use leptos::prelude::window;

use super::js_message;

/// Why a value was not kept in `localStorage`.
#[derive(Debug, Clone, PartialEq)]
pub enum StorageError {
    /// The browser has no `localStorage`.
    Missing,
    /// The browser refused access to it, with its message.
    Unavailable(String),
    /// Writing failed (most often: over quota), with the browser's message.
    Write(String),
}

impl fmt::Display for StorageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StorageError::Missing => f.write_str("this browser offers no local storage"),
            StorageError::Unavailable(message) => {
                write!(f, "local storage is not available: {message}")
            }
            StorageError::Write(message) => {
                write!(f, "could not save in local storage: {message}")
            }
        }
    }
}

impl std::error::Error for StorageError {}

fn storage() -> Result<web_sys::Storage, StorageError> {
    match window().local_storage() {
        Ok(Some(s)) => Ok(s),
        Ok(None) => Err(StorageError::Missing),
        Err(e) => Err(StorageError::Unavailable(js_message(&e))),
    }
}

/// The value kept under `key`, if any.
pub fn local_get(key: &str) -> Option<String> {
    storage().ok()?.get_item(key).ok().flatten()
}

/// Keeps `value` under `key`.
pub fn local_set(key: &str, value: &str) -> Result<(), StorageError> {
    storage()?
        .set_item(key, value)
        .map_err(|e| StorageError::Write(js_message(&e)))
}

/// Forgets `key` (nothing to do when storage is unavailable: nothing was
/// kept).
pub fn local_remove(key: &str) {
    if let Ok(s) = storage() {
        let _ = s.remove_item(key);
    }
}

#[cfg(test)]
mod tests {
    use super::StorageError;

    #[test]
    fn errors_read_as_the_messages_users_saw() {
        assert_eq!(
            StorageError::Write("QuotaExceededError".into()).to_string(),
            "could not save in local storage: QuotaExceededError"
        );
    }
}
