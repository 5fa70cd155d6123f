//! Drives core's async LLM functions to completion on the current thread.
//!
//! Every [`Chat`](nomos_core::llm::Chat) the CLI has answers before its
//! future returns (blocking HTTP, a replayed transcript), so the futures
//! are ready at their first poll and no executor is needed: a no-op waker
//! suffices, and no dependency is added for it. Were a future ever to
//! pend, polling it again after yielding is still correct (no wake-up can
//! be missed when nothing waits for one), only busy.

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

/// Runs `future` to its output.
pub fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            return output;
        }
        std::thread::yield_now();
    }
}
