//! Bytes the app fetched past the service worker (a first visit's
//! downloads, begun before the worker controlled the page) and checked,
//! held until the worker is asked to keep them: it keeps nothing it cannot
//! tell was checked (`public/sw.js`), and has no copy of these.

use leptos::prelude::*;

#[derive(Clone, Copy)]
pub struct PastWorker(StoredValue<Vec<(String, Vec<u8>)>>);

impl PastWorker {
    pub fn new() -> Self {
        PastWorker(StoredValue::new(Vec::new()))
    }

    /// Holds the checked `bytes` of `file` (a blob or sibling file name)
    /// if they came past the worker: `controlled` says whether it
    /// controlled the page when their download began.
    pub fn hold(&self, controlled: bool, file: &str, bytes: Vec<u8>) {
        if !controlled {
            self.0.update_value(|held| {
                held.retain(|(f, _)| f != file);
                held.push((file.to_owned(), bytes));
            });
        }
    }

    /// Takes the bytes held for `files`, one entry each (`None`: the
    /// worker has its own copy).
    pub fn take(&self, files: &[String]) -> Vec<(String, Option<Vec<u8>>)> {
        self.0
            .try_update_value(|held| {
                files
                    .iter()
                    .map(|file| {
                        let at = held.iter().position(|(f, _)| f == file);
                        (file.clone(), at.map(|i| held.swap_remove(i).1))
                    })
                    .collect()
            })
            .unwrap_or_default()
    }
}
