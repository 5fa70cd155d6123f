//! Ctrl-C during `nomos eval`: an evaluation can run for hours against a
//! paid endpoint, so the first Ctrl-C only asks the run to start no new
//! query and to report over the queries done; a second one ends the
//! process at once.

use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result};

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// The exit code of an interrupted run (128 + SIGINT, as a shell reports
/// a process Ctrl-C ended).
pub const EXIT_CODE: i32 = 130;

/// Installs the handler; from then on Ctrl-C sets [`requested`].
pub fn trap() -> Result<()> {
    ctrlc::set_handler(|| {
        if REQUESTED.swap(true, Ordering::SeqCst) {
            std::process::exit(EXIT_CODE);
        }
        eprintln!(
            "\ninterrupt: starting no new query; the ones in flight finish, then the metrics of \
             the queries done are written (Ctrl-C again quits at once)"
        );
    })
    .context("cannot trap Ctrl-C")
}

/// Whether Ctrl-C was pressed since [`trap`].
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}
