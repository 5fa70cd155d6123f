//! Talking to the service worker (`public/sw.js`): registering it, and
//! its messages, each answered through a port once done.

use std::fmt;

use js_sys::{Array, Object, Promise, Reflect, Uint8Array};
use leptos::prelude::window;
use leptos::task::spawn_local;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{MessageChannel, ServiceWorkerContainer, ServiceWorkerRegistration};

use super::js_message;

/// Why the service worker did not do what the page asked.
#[derive(Debug, Clone, PartialEq)]
pub enum ServiceWorkerError {
    /// Service workers are not allowed here (not a secure context).
    Unavailable,
    /// No service worker is active yet.
    NoActiveWorker,
    /// A call to the browser failed, with its message.
    Js(String),
    /// The worker answered that it failed, with its message.
    Refused(String),
    /// The worker could not keep a file: the origin's storage is full
    /// (the browser's message).
    Full(String),
    /// The worker answered neither yes nor why not, to a `kind` message.
    NotDone { kind: String },
}

impl fmt::Display for ServiceWorkerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServiceWorkerError::Unavailable => f.write_str("service workers are unavailable"),
            ServiceWorkerError::NoActiveWorker => f.write_str("no active service worker"),
            ServiceWorkerError::Js(message) | ServiceWorkerError::Refused(message) => {
                f.write_str(message)
            }
            ServiceWorkerError::Full(message) => {
                write!(f, "the browser's storage for this site is full ({message})")
            }
            ServiceWorkerError::NotDone { kind } => {
                write!(f, "the service worker did not {kind} them")
            }
        }
    }
}

impl std::error::Error for ServiceWorkerError {}

/// A failed browser call, as [`ServiceWorkerError::Js`].
fn message(e: JsValue) -> ServiceWorkerError {
    ServiceWorkerError::Js(js_message(&e))
}

/// The page's service worker container, when service workers are allowed
/// (a secure context: https, or http on localhost / 127.0.0.1).
fn container() -> Option<ServiceWorkerContainer> {
    let window = window();
    let navigator = window.navigator();
    let allowed = window.is_secure_context()
        && Reflect::has(&navigator, &JsValue::from_str("serviceWorker")).unwrap_or(false);
    allowed.then(|| navigator.service_worker())
}

/// Registers `sw.js`; false where service workers are unavailable.
pub fn register_service_worker() -> bool {
    let Some(container) = container() else {
        return false;
    };
    spawn_local(async move {
        if let Err(e) = JsFuture::from(container.register("sw.js")).await {
            leptos::logging::warn!("service worker not registered: {}", js_message(&e));
        }
    });
    true
}

/// Whether a service worker controls the page: only then do the page's
/// fetches pass through it, which holds their answers for the app's
/// "keep" (a first visit's page is not controlled until it takes over).
pub fn worker_controls_page() -> bool {
    container().is_some_and(|c| c.controller().is_some())
}

/// Waits up to `ms` for the service worker to control the page (on a
/// first visit it takes over once installed), and says whether it does.
pub async fn worker_controls_page_within(ms: i32) -> bool {
    let mut waited = 0;
    while !worker_controls_page() {
        if waited >= ms || container().is_none() {
            return false;
        }
        super::sleep(100).await;
        waited += 100;
    }
    true
}

/// Sends the active service worker `{ kind: items }` (`keep`: blob file
/// names; `keepAssets`, `keepFragments`, `keepOnlyFragments`, `forget`: URLs relative to the
/// page) and waits for its answer.
pub async fn ask_service_worker(kind: &str, items: &[String]) -> Result<(), ServiceWorkerError> {
    ask(kind, items, None).await
}

/// Asks the service worker to keep the fragmented pool's file at `url`
/// with `bytes`, which the app fetched past it (see
/// [`worker_controls_page`]) and checked.
pub async fn keep_fragment_bytes(url: &str, bytes: &[u8]) -> Result<(), ServiceWorkerError> {
    keep_with_bytes("keepFragments", &[(url.to_owned(), Some(bytes))]).await
}

/// [`ask_service_worker`] with the bytes of the files the app fetched
/// past the worker and checked (`None` where the worker held its own
/// copy of the app's download): the worker keeps nothing it cannot tell
/// was checked, and does not fetch such a file again.
pub async fn keep_with_bytes(
    kind: &str,
    files: &[(String, Option<&[u8]>)],
) -> Result<(), ServiceWorkerError> {
    let names: Vec<String> = files.iter().map(|(name, _)| name.clone()).collect();
    let bodies: Array = files
        .iter()
        .map(|(_, bytes)| bytes.map_or(JsValue::NULL, |b| Uint8Array::from(b).buffer().into()))
        .collect();
    ask(kind, &names, Some(bodies)).await
}

/// `url` with the hash the app checked its bytes against, for
/// `keepAssets` where the URL names none (`…/ort-wasm-simd-threaded.wasm#sha384-…`):
/// a copy the worker must fetch again is then checked too. `algorithm`
/// is `sha256` (hex) or `sha384` (base64), as Subresource Integrity
/// writes them.
pub fn pinned(url: &str, algorithm: &str, value: &str) -> String {
    format!("{url}#{algorithm}-{value}")
}

/// [`ask_service_worker`], with `bodies` (ArrayBuffers, one per item) if
/// given.
async fn ask(
    kind: &str,
    items: &[String],
    bodies: Option<Array>,
) -> Result<(), ServiceWorkerError> {
    let container = container().ok_or(ServiceWorkerError::Unavailable)?;
    let ready = container.ready().map_err(message)?;
    let registration: ServiceWorkerRegistration = JsFuture::from(ready)
        .await
        .map_err(message)?
        .unchecked_into();
    let worker = registration
        .active()
        .ok_or(ServiceWorkerError::NoActiveWorker)?;

    let channel = MessageChannel::new().map_err(message)?;
    let answer = Promise::new(&mut |resolve, _| channel.port1().set_onmessage(Some(&resolve)));
    let request = Object::new();
    let names: Array = items.iter().map(|f| JsValue::from_str(f)).collect();
    Reflect::set(&request, &kind.into(), &names).map_err(message)?;
    if let Some(bodies) = bodies {
        Reflect::set(&request, &"bodies".into(), &bodies).map_err(message)?;
    }
    worker
        .post_message_with_transferable(&request, &Array::of1(&channel.port2()))
        .map_err(message)?;

    let event = JsFuture::from(answer).await.map_err(message)?;
    let data = Reflect::get(&event, &"data".into()).map_err(message)?;
    let flag = |key: &str| {
        Reflect::get(&data, &key.into())
            .ok()
            .and_then(|v| v.as_bool())
    };
    if flag("ok") == Some(true) {
        return Ok(());
    }
    let error = Reflect::get(&data, &"error".into())
        .ok()
        .and_then(|e| e.as_string());
    Err(match (error, flag("full")) {
        (Some(message), Some(true)) => ServiceWorkerError::Full(message),
        (Some(message), _) => ServiceWorkerError::Refused(message),
        (None, _) => ServiceWorkerError::NotDone {
            kind: kind.to_owned(),
        },
    })
}

/// Tells the service worker to drop `urls` (relative to the page) from
/// its caches: they failed a check, and the next attempt must fetch them
/// anew. Does nothing where there is no worker.
pub fn forget_cached(urls: Vec<String>) {
    if container().is_none() || urls.is_empty() {
        return;
    }
    spawn_local(async move {
        if let Err(e) = ask_service_worker("forget", &urls).await {
            leptos::logging::warn!("the service worker did not forget {urls:?}: {e}");
        }
    });
}

#[cfg(test)]
mod tests {
    use super::ServiceWorkerError;

    #[test]
    fn errors_read_as_the_messages_users_saw() {
        let not_done = ServiceWorkerError::NotDone {
            kind: "keep".into(),
        };
        assert_eq!(not_done.to_string(), "the service worker did not keep them");
        assert_eq!(
            ServiceWorkerError::Refused("quota exceeded".into()).to_string(),
            "quota exceeded"
        );
        assert_eq!(
            ServiceWorkerError::Full("Quota exceeded.".into()).to_string(),
            "the browser's storage for this site is full (Quota exceeded.)"
        );
    }
}
