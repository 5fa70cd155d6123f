//! The page's side of the embedding model's dedicated worker
//! (`embed_worker.js`, compiled into the app and started from a `blob:`
//! URL): requests go out as messages, each answered by one reply, so the
//! forward pass never runs on the page's thread. One request at a time;
//! [`EmbedWorker::ask`] is awaited by one caller at once (the model's
//! lock).

use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

use futures::channel::oneshot;
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;
use web_sys::{ErrorEvent, MessageEvent, Worker, WorkerOptions};

use crate::web::{js_message, object_url, DomError};

/// The worker's script: ours, part of the app's own bytes.
const SCRIPT: &str = include_str!("embed_worker.js");

type Reply = oneshot::Sender<Result<JsValue, WorkerError>>;

/// Why the model's worker did not start or answer.
#[derive(Debug, Clone, PartialEq)]
pub enum WorkerError {
    /// Its script could not be given a `blob:` URL.
    Script(DomError),
    /// The browser refused a call (starting it, posting to it), with
    /// its message.
    Js(String),
    /// A request came while another was in flight.
    Busy,
    /// The worker answered that the request failed, with its message.
    Failed(String),
    /// The worker's script threw, with the browser's message.
    Crashed(String),
    /// The worker went away without answering.
    NoAnswer,
}

impl fmt::Display for WorkerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WorkerError::Script(e) => e.fmt(f),
            WorkerError::Js(message) | WorkerError::Failed(message) => f.write_str(message),
            WorkerError::Busy => f.write_str("the model's worker is busy"),
            WorkerError::Crashed(message) => write!(f, "the model's worker failed: {message}"),
            WorkerError::NoAnswer => f.write_str("the model's worker did not answer"),
        }
    }
}

impl std::error::Error for WorkerError {}

pub struct EmbedWorker {
    worker: Worker,
    /// The script's `blob:` URL, revoked with the worker.
    url: String,
    /// Where the reply to the request in flight goes.
    waiting: Rc<RefCell<Option<Reply>>>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

impl EmbedWorker {
    /// Starts the worker (it does nothing until asked).
    pub fn spawn() -> Result<EmbedWorker, WorkerError> {
        let url = object_url(SCRIPT.as_bytes(), "text/javascript").map_err(WorkerError::Script)?;
        let options = WorkerOptions::new();
        options.set_name("nomos-embed");
        let worker = Worker::new_with_options(&url, &options).map_err(|e| {
            let _ = web_sys::Url::revoke_object_url(&url);
            WorkerError::Js(js_message(&e))
        })?;
        let waiting: Rc<RefCell<Option<Reply>>> = Rc::default();
        let answer = {
            let waiting = waiting.clone();
            move |reply: Result<JsValue, WorkerError>| {
                if let Some(tx) = waiting.borrow_mut().take() {
                    let _ = tx.send(reply);
                }
            }
        };
        let on_message = {
            let answer = answer.clone();
            Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
                let data = event.data();
                let failed = field(&data, "type").as_string().as_deref() == Some("failed");
                answer(match failed {
                    true => Err(WorkerError::Failed(
                        field(&data, "message")
                            .as_string()
                            .unwrap_or_else(|| "the model's worker failed".into()),
                    )),
                    false => Ok(data),
                });
            })
        };
        let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(move |event: ErrorEvent| {
            answer(Err(WorkerError::Crashed(event.message())));
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(EmbedWorker {
            worker,
            url,
            waiting,
            _on_message: on_message,
            _on_error: on_error,
        })
    }

    /// Sends `request` (its `transfer` buffers moved, not copied) and
    /// awaits the worker's reply.
    pub async fn ask(&self, request: &Object, transfer: &Array) -> Result<JsValue, WorkerError> {
        let (tx, rx) = oneshot::channel();
        if self.waiting.borrow_mut().replace(tx).is_some() {
            return Err(WorkerError::Busy);
        }
        if let Err(e) = self.worker.post_message_with_transfer(request, transfer) {
            self.waiting.borrow_mut().take();
            return Err(WorkerError::Js(js_message(&e)));
        }
        rx.await.unwrap_or_else(|_| Err(WorkerError::NoAnswer))
    }
}

impl Drop for EmbedWorker {
    fn drop(&mut self) {
        self.worker.terminate();
        let _ = web_sys::Url::revoke_object_url(&self.url);
    }
}

/// `value[key]`, or `undefined`.
pub fn field(value: &JsValue, key: &str) -> JsValue {
    Reflect::get(value, &key.into()).unwrap_or(JsValue::UNDEFINED)
}
