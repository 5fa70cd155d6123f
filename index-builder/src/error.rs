//! Exit-code policy: bad input (a malformed file, an unknown analyzer, a
//! damaged blob) exits 2 with the reason on stderr; a run cut short by
//! Ctrl-C after writing what it had exits 130; anything else exits 1.
//! Nothing may panic (exit 101).

use std::any::Any;
use std::cell::Cell;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Marks an error as caused by the user's input, so `main` exits with 2.
#[derive(Debug)]
pub struct BadInput(pub String);

impl fmt::Display for BadInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadInput {}

/// Builds a bad-input error from anything printable.
pub fn bad_input(msg: impl fmt::Display) -> anyhow::Error {
    anyhow::Error::new(BadInput(msg.to_string()))
}

/// Marks a run Ctrl-C cut short (see [`crate::interrupt`]) once it has
/// written its outputs over the work done, so `main` exits with 130.
#[derive(Debug)]
pub struct Interrupted(pub String);

impl fmt::Display for Interrupted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Interrupted {}

/// The process exit code for an error chain.
pub fn exit_code(err: &anyhow::Error) -> i32 {
    if err.chain().any(|e| e.is::<BadInput>()) {
        2
    } else if err.chain().any(|e| e.is::<Interrupted>()) {
        crate::interrupt::EXIT_CODE
    } else {
        1
    }
}

thread_local! {
    /// Set while [`catch_panic`] runs, so the panic hook stays quiet.
    static CATCHING: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f`, turning a panic in it into `Err` with the panic's message. Only
/// for calls into a dependency that asserts on malformed input where
/// checking beforehand would mean redoing its work (the Parquet decoders);
/// our own code returns errors.
pub fn catch_panic<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    let outer = CATCHING.with(|c| c.replace(true));
    let result = catch_unwind(AssertUnwindSafe(f));
    CATCHING.with(|c| c.set(outer));
    result.map_err(|panic| panic_message(panic.as_ref()))
}

/// Keeps the default panic report, except for panics [`catch_panic`] turns
/// into errors: those are reported once, as the error.
pub fn install_panic_hook() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !CATCHING.with(Cell::get) {
            report(info);
        }
    }));
}

fn panic_message(panic: &(dyn Any + Send)) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "no reason given".into())
}
