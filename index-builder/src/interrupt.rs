//! Ctrl-C during long work: an evaluation can run for hours against a
//! paid endpoint, and an embedding job for hours on a CPU, so the first
//! Ctrl-C only asks the run to start no new query or text and to write
//! what it has done; a second one ends the process at once.

use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result};

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// The exit code of an interrupted run (128 + SIGINT, as a shell reports
/// a process Ctrl-C ended).
pub const EXIT_CODE: i32 = 130;

/// Installs the handler; from then on Ctrl-C sets [`requested`] and
/// prints `what_now` (what the run does about it).
pub fn trap(what_now: &'static str) -> Result<()> {
    ctrlc::set_handler(move || {
        if REQUESTED.swap(true, Ordering::SeqCst) {
            std::process::exit(EXIT_CODE);
        }
        eprintln!("\n{what_now}");
    })
    .context("cannot trap Ctrl-C")
}

/// Whether Ctrl-C was pressed since [`trap`].
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}
