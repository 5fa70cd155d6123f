//! What the page's Content-Security-Policy refused. A fetch the policy
//! blocks fails exactly as one to a server that is down or that does not
//! allow this origin (CORS); the policy's violation event is the only
//! way to tell, and telling matters: the fixes differ (ask the host to
//! widen `connect-src`, start the server, or set its allowed origins).

use std::cell::RefCell;

use leptos::prelude::document;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::SecurityPolicyViolationEvent;

/// Violations kept (the latest); older ones are dropped.
const KEPT: usize = 32;

thread_local! {
    /// (blocked URL, violated directive), oldest first.
    static SEEN: RefCell<Vec<(String, String)>> = const { RefCell::new(Vec::new()) };
}

/// Starts listening; call once, early. The listener lives as long as the
/// page.
pub fn watch_csp_violations() {
    let listener =
        Closure::<dyn Fn(SecurityPolicyViolationEvent)>::new(|ev: SecurityPolicyViolationEvent| {
            SEEN.with(|seen| {
                let mut seen = seen.borrow_mut();
                if seen.len() == KEPT {
                    seen.remove(0);
                }
                seen.push((ev.blocked_uri(), ev.effective_directive()));
            });
        });
    let _ = document().add_event_listener_with_callback(
        "securitypolicyviolation",
        listener.as_ref().unchecked_ref(),
    );
    listener.forget();
}

/// The directive that blocked a request to `origin` (`http://host:port`),
/// if the policy blocked one.
pub fn csp_blocked(origin: &str) -> Option<String> {
    SEEN.with(|seen| {
        seen.borrow()
            .iter()
            .rev()
            .find(|(uri, _)| {
                uri == origin
                    || uri
                        .strip_prefix(origin)
                        .is_some_and(|rest| rest.starts_with('/'))
            })
            .map(|(_, directive)| directive.clone())
    })
}
