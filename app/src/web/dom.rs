//! The few DOM operations the views share.

use leptos::prelude::{document, set_timeout};
use wasm_bindgen::{JsCast, JsValue};

/// Moves keyboard focus to the element with `id`, if it exists.
pub fn focus_id(id: &str) {
    if let Some(el) = document()
        .get_element_by_id(id)
        .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = el.focus();
    }
}

/// Opens the `<dialog>` with `id` as a modal (focus moves into it, Esc
/// closes it), if it exists and is closed.
pub fn show_dialog(id: &str) {
    if let Some(dialog) = document()
        .get_element_by_id(id)
        .and_then(|el| el.dyn_into::<web_sys::HtmlDialogElement>().ok())
    {
        if !dialog.open() {
            let _ = dialog.show_modal();
        }
    }
}

/// Closes the `<dialog>` `id` if it is open.
pub fn close_dialog(id: &str) {
    if let Some(dialog) = document()
        .get_element_by_id(id)
        .and_then(|el| el.dyn_into::<web_sys::HtmlDialogElement>().ok())
    {
        dialog.close();
    }
}

/// The markup of the element with `id`, if it exists.
pub fn outer_html(id: &str) -> Option<String> {
    document().get_element_by_id(id).map(|el| el.outer_html())
}

/// Offers `text` as a file download named `name`.
pub fn download(name: &str, mime: &str, text: &str) -> Result<(), String> {
    let fail = |e: JsValue| format!("could not save {name}: {e:?}");
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).map_err(fail)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(fail)?;
    let a: web_sys::HtmlAnchorElement = document()
        .create_element("a")
        .map_err(fail)?
        .unchecked_into();
    a.set_href(&url);
    a.set_download(name);
    a.click();
    // Revoking at once can cancel the download in some browsers.
    set_timeout(
        move || {
            let _ = web_sys::Url::revoke_object_url(&url);
        },
        std::time::Duration::from_secs(10),
    );
    Ok(())
}
