//! Whether the page runs inside another page (a frame).

use leptos::prelude::window;

/// The page is not the top of its tab. A top the page cannot see counts as
/// framed.
pub fn framed() -> bool {
    let own = window();
    match own.top() {
        Ok(Some(top)) => !js_sys::Object::is(&top, &own),
        Ok(None) | Err(_) => true,
    }
}
