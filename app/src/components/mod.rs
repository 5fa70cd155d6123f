//! The views, one module each.

pub mod advanced;
pub mod article;
pub mod evaluate;
pub mod filters;
pub mod header;
pub mod link_notice;
pub mod marked;
pub mod model_line;
pub mod offline_badge;
pub mod pool_picker;
pub mod results;
pub mod search;

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Moves keyboard focus to the element with `id`, if it exists.
pub fn focus_id(id: &str) {
    if let Some(el) = document()
        .get_element_by_id(id)
        .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = el.focus();
    }
}

/// `12345` → `12,345`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `1` → `1 result`, `2` → `2 results`.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}
