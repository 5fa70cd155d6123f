//! Exit-code policy: bad input (a malformed file, an unknown analyzer, a
//! damaged blob) exits 2 with the reason on stderr; anything else exits 1.
//! Nothing may panic (exit 101).

use std::fmt;

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

/// The process exit code for an error chain.
pub fn exit_code(err: &anyhow::Error) -> i32 {
    if err.chain().any(|e| e.is::<BadInput>()) {
        2
    } else {
        1
    }
}
