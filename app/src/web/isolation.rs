//! Whether the page may run threads: WebAssembly threads need
//! `SharedArrayBuffer`, which browsers give only to a cross-origin isolated
//! page (COOP and COEP headers, from the host or the service worker).

use js_sys::Reflect;
use leptos::prelude::window;

/// The page is cross-origin isolated.
pub fn cross_origin_isolated() -> bool {
    Reflect::get(&window(), &"crossOriginIsolated".into())
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
}

/// The logical cores the browser reports (at least 1).
pub fn hardware_threads() -> u32 {
    (window().navigator().hardware_concurrency() as u32).max(1)
}
