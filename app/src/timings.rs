//! Loading milestones as `performance.now()` marks (milliseconds since
//! navigation started) in `window.__nomosTimings`, for the end-to-end
//! tests' loading benchmark: `start` (the wasm runs), `manifest` (fetched),
//! `pool` (the first pool validated and searchable) and `results` (the
//! first results are in the page). Each is recorded once per page load.

use js_sys::{Object, Reflect};
use leptos::prelude::window;
use wasm_bindgen::JsValue;

const GLOBAL: &str = "__nomosTimings";

/// Records `name` now, unless it already was.
pub fn mark(name: &str) {
    let window = window();
    let now = window.performance().map_or(0.0, |p| p.now());
    let global = JsValue::from_str(GLOBAL);
    let marks = match Reflect::get(&window, &global) {
        Ok(m) if m.is_object() => m,
        _ => {
            let m: JsValue = Object::new().into();
            let _ = Reflect::set(&window, &global, &m);
            m
        }
    };
    let key = JsValue::from_str(name);
    if !Reflect::has(&marks, &key).unwrap_or(true) {
        let _ = Reflect::set(&marks, &key, &now.into());
    }
}
