//! Harness for the browser app's end-to-end tests: serve the Trunk-built
//! `dist/` from a small static server we can stop mid-test, drive headless
//! Chromium through chromedriver, and read the app's DOM.
//!
//! Nothing here skips: a missing `dist/`, browser or CLI is an error that
//! says how to get it, because these tests are the only check that the
//! app works in a real browser.
//!
//! - [`paths`]: where the built app, the CLI and the screenshots are.
//! - [`server`]: the static file server.
//! - [`browser`]: chromedriver and a Chromium session, cleaned up on drop.
//! - [`app`]: the Nomos page (search, results, article, load errors).
//! - [`cli`]: the `nomos` CLI's rankings, for native/browser parity.
//! - [`link`]: values percent-encoded for the app's links.
//! - [`fragment_damage`]: the fragmented pools' damaged-file flow.
//! - [`devtools`]: DevTools protocol commands (print media).
//! - [`axe`]: axe-core's accessibility check, injected from `node_modules`.
//! - [`policy`]: the Content-Security-Policy violations every page records.
//! - [`llm_server`]: the real local LLM the LLM methods' tests ask.
//! - [`flaky_proxy`]: a proxy in front of it that answers one request 503.

pub mod app;
pub mod axe;
pub mod browser;
pub mod cli;
pub mod devtools;
pub mod flaky_proxy;
pub mod fragment_damage;
pub mod link;
pub mod llm_server;
pub mod paths;
pub mod policy;
pub mod server;

use std::io::Write;
use std::time::Instant;

use tokio::sync::{Mutex, MutexGuard};

/// Tests hold this while they run: one Chromium at a time keeps timings
/// stable on small, shared CI machines.
pub async fn one_at_a_time() -> Turn {
    static LOCK: Mutex<()> = Mutex::const_new(());
    Turn {
        _lock: LOCK.lock().await,
        started: Instant::now(),
    }
}

/// A test's turn at the browser. When it ends, its wall time is appended
/// to the file `NOMOS_E2E_TIMINGS` names, if set: CI prints the slowest
/// tests, because the suite is most of CI's time budget.
pub struct Turn {
    _lock: MutexGuard<'static, ()>,
    started: Instant,
}

impl Drop for Turn {
    fn drop(&mut self) {
        let Some(path) = std::env::var_os("NOMOS_E2E_TIMINGS") else {
            return;
        };
        let test = std::thread::current().name().unwrap_or("?").to_owned();
        let secs = self.started.elapsed().as_secs_f64();
        // Best effort: a timing that cannot be written must not fail a test.
        if let Ok(mut file) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            let _ = writeln!(file, "{secs:7.1} s  {test}");
        }
    }
}
