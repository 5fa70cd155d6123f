//! Progress bars on stderr, hidden when stderr is not a terminal so logs and
//! test output stay clean.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar for `len` items of `what`.
pub fn bar(len: usize, what: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{msg:>12} [{bar:30}] {pos}/{len} ({eta})")
            .expect("static template is valid")
            .progress_chars("=> "),
    );
    bar.set_message(what.to_string());
    bar
}
