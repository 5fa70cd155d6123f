//! The few DOM operations the views share, and `blob:` URLs over bytes.

use std::fmt;

use leptos::prelude::{document, set_timeout};
use wasm_bindgen::{JsCast, JsValue};

/// Why a file was not offered for download or text not copied.
#[derive(Debug, Clone, PartialEq)]
pub enum DomError {
    /// No `blob:` URL could be made, with the browser's message.
    ObjectUrl(String),
    /// The download of `name` could not start.
    Save { name: String, message: String },
    /// The page is not secure, so the browser offers no clipboard.
    NoClipboard,
    /// The clipboard refused the text, with the browser's message.
    Copy(String),
}

impl fmt::Display for DomError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DomError::ObjectUrl(message) => f.write_str(message),
            DomError::Save { name, message } => write!(f, "could not save {name}: {message}"),
            DomError::NoClipboard => {
                f.write_str("this page cannot use the clipboard (it needs https or localhost)")
            }
            DomError::Copy(message) => write!(f, "could not copy: {message}"),
        }
    }
}

impl std::error::Error for DomError {}

/// Moves keyboard focus to the element with `id`, if it exists.
pub fn focus_id(id: &str) {
    if let Some(el) = document()
        .get_element_by_id(id)
        .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = el.focus();
    }
}

/// Whether a key press goes to a field that takes text (a text input, a
/// text area, a select's type-ahead, an editable element): page-wide keys
/// leave those alone.
pub fn typing_in(ev: &web_sys::KeyboardEvent) -> bool {
    let Some(el) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok())
    else {
        return false;
    };
    match el.tag_name().as_str() {
        "TEXTAREA" | "SELECT" => true,
        "INPUT" => !matches!(
            el.get_attribute("type").as_deref(),
            Some("button" | "checkbox" | "radio" | "reset" | "submit" | "file" | "range" | "color")
        ),
        _ => el.is_content_editable(),
    }
}

/// Whether a modal dialog is open (it owns the keyboard meanwhile).
pub fn dialog_open() -> bool {
    document()
        .query_selector("dialog[open]")
        .ok()
        .flatten()
        .is_some()
}

/// Moves focus among the elements matching `selector`, to the position
/// `to` picks from the focused one's (none when focus is elsewhere) and
/// their count.
pub fn step_focus(selector: &str, to: impl Fn(Option<usize>, usize) -> Option<usize>) {
    let Ok(list) = document().query_selector_all(selector) else {
        return;
    };
    let items: Vec<web_sys::HtmlElement> = (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into().ok())
        .collect();
    let active = document().active_element();
    let current = items.iter().position(|el| {
        active
            .as_ref()
            .is_some_and(|a| a == el.unchecked_ref::<web_sys::Element>())
    });
    if let Some(el) = to(current, items.len()).and_then(|i| items.get(i)) {
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
pub fn download(name: &str, mime: &str, text: &str) -> Result<(), DomError> {
    let save = |message: String| DomError::Save {
        name: name.to_owned(),
        message,
    };
    let url = object_url(text.as_bytes(), mime).map_err(|e| save(e.to_string()))?;
    let a: web_sys::HtmlAnchorElement = document()
        .create_element("a")
        .map_err(|e| save(format!("{e:?}")))?
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

/// A `blob:` URL for a copy of `bytes` (already checked), of type `mime`;
/// the caller revokes it.
pub fn object_url(bytes: &[u8], mime: &str) -> Result<String, DomError> {
    let failed = |e: JsValue| DomError::ObjectUrl(super::js_message(&e));
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob =
        web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options).map_err(failed)?;
    web_sys::Url::create_object_url_with_blob(&blob).map_err(failed)
}

/// Puts `text` on the clipboard. Browsers offer the clipboard only to
/// secure pages (https, or a loopback address): elsewhere this says so.
pub async fn copy_text(text: &str) -> Result<(), DomError> {
    let navigator = leptos::prelude::window().navigator();
    let available = js_sys::Reflect::get(&navigator, &JsValue::from_str("clipboard"))
        .is_ok_and(|c| !c.is_undefined());
    if !available {
        return Err(DomError::NoClipboard);
    }
    wasm_bindgen_futures::JsFuture::from(navigator.clipboard().write_text(text))
        .await
        .map(drop)
        .map_err(|e| DomError::Copy(super::js_message(&e)))
}

/// Where keyboard focus was, to put it back after the element is
/// re-rendered: the focused element's value of an attribute, its id, and
/// its top edge in the viewport.
pub struct FocusAnchor {
    value: String,
    id: String,
    top: f64,
}

/// The focused element, if it carries `attr`.
pub fn focus_anchor(attr: &str) -> Option<FocusAnchor> {
    let el = document().active_element()?;
    Some(FocusAnchor {
        value: el.get_attribute(attr)?,
        id: el.id(),
        top: el.get_bounding_client_rect().top(),
    })
}

/// Focuses the element whose `attr` is the anchor's value (else the one
/// with the anchor's id) without scrolling to it, then scrolls its
/// scrolling ancestors and the window so that it sits where the anchor
/// was: what the user was on neither moves nor loses focus.
pub fn restore_focus(attr: &str, anchor: &FocusAnchor) {
    let doc = document();
    let same = doc
        .query_selector_all(&format!("[{attr}]"))
        .ok()
        .and_then(|all| {
            (0..all.length())
                .filter_map(|i| all.item(i)?.dyn_into::<web_sys::Element>().ok())
                .find(|el| el.get_attribute(attr).as_deref() == Some(anchor.value.as_str()))
        });
    let Some(el) = same
        .or_else(|| doc.get_element_by_id(&anchor.id))
        .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
    else {
        return;
    };
    if doc.active_element().as_ref() != Some(el.as_ref()) {
        let options = web_sys::FocusOptions::new();
        options.set_prevent_scroll(true);
        let _ = el.focus_with_options(&options);
    }
    let mut shift = el.get_bounding_client_rect().top() - anchor.top;
    let mut ancestor = el.parent_element();
    while let Some(a) = ancestor.filter(|_| shift.abs() >= 1.0) {
        if a.scroll_height() > a.client_height() {
            let before = a.scroll_top();
            a.set_scroll_top(before + shift.round() as i32);
            shift -= f64::from(a.scroll_top() - before);
        }
        ancestor = a.parent_element();
    }
    if shift.abs() >= 1.0 {
        leptos::prelude::window().scroll_by_with_x_and_y(0.0, shift);
    }
}
