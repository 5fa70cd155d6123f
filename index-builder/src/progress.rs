//! Progress bars on stderr, hidden when stderr is not a terminal so logs and
//! test output stay clean.

use std::time::Duration;

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

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

/// Bars for work running on several threads at once (one per running
/// item, see [`spinner`], under an overall [`bar`]).
pub fn multi() -> MultiProgress {
    MultiProgress::with_draw_target(ProgressDrawTarget::stderr())
}

/// A spinner for one running item, saying where it is in `msg`.
pub fn spinner(msg: String) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{spinner} {elapsed:>4} {msg}")
            .expect("static template is valid"),
    );
    bar.set_message(msg);
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}
