//! The app's link codec ([`url_state`]) and the plain models it reads and
//! writes, and the readers of the site's manifest ([`manifest`]) and of
//! imported judgments ([`judgments`]), as a library: the binary
//! (`main.rs`, the app) uses them from here, and so can the fuzzer
//! (`fuzz/`), natively, since each reads untrusted input. Nothing here
//! touches the browser.

pub mod eval_config;
// `AppState::new` makes signals, once, at the root: a `Default` that did
// the same would be a second way to make them.
pub mod judgments;
pub mod manifest;
pub mod note;
#[allow(clippy::new_without_default)]
#[cfg(feature = "ui")]
pub mod state;
pub mod transcript_files;
pub mod url_state;
pub mod views;
