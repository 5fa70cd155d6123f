//! Bytes from the network with progress, or from a file the user picked.

use std::fmt;

use js_sys::{Reflect, Uint8Array};
use leptos::prelude::window;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{ReadableStreamDefaultReader, Response};

use super::js_message;

/// Why bytes could not be had.
#[derive(Debug, Clone, PartialEq)]
pub enum FetchError {
    /// The request or the body's stream failed (offline, refused, reset).
    Network { url: String, message: String },
    /// The server answered, but not with the file.
    Status {
        url: String,
        status: u16,
        text: String,
    },
    /// A file from disk could not be read.
    File { name: String, message: String },
}

impl fmt::Display for FetchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FetchError::Network { url, message } => {
                write!(f, "could not download {url}: {message}")
            }
            FetchError::Status { url, status, text } => write!(
                f,
                "could not download {url}: the server answered {status} {text}"
            ),
            FetchError::File { name, message } => write!(f, "could not read {name}: {message}"),
        }
    }
}

/// GETs `url`, reporting `(bytes received, expected total)` after every
/// chunk. `expected` (from a manifest) beats Content-Length, which is
/// the compressed size when the server compresses.
pub async fn fetch_bytes(
    url: &str,
    expected: Option<u64>,
    progress: impl Fn(u64, Option<u64>),
) -> Result<Vec<u8>, FetchError> {
    let network = |e: JsValue| FetchError::Network {
        url: url.to_owned(),
        message: js_message(&e),
    };
    let response: Response = JsFuture::from(window().fetch_with_str(url))
        .await
        .and_then(|r| r.dyn_into())
        .map_err(network)?;
    if !response.ok() {
        return Err(FetchError::Status {
            url: url.to_owned(),
            status: response.status(),
            text: response.status_text(),
        });
    }
    let total = expected.or_else(|| {
        response
            .headers()
            .get("content-length")
            .ok()
            .flatten()
            .and_then(|v| v.parse().ok())
    });
    let Some(body) = response.body() else {
        return Ok(Vec::new());
    };
    let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let mut bytes = Vec::with_capacity(total.unwrap_or(0).min(1 << 30) as usize);
    progress(0, total);
    loop {
        let chunk = JsFuture::from(reader.read()).await.map_err(network)?;
        let done = Reflect::get(&chunk, &"done".into()).map_err(network)?;
        if done.as_bool().unwrap_or(true) {
            break;
        }
        let value = Reflect::get(&chunk, &"value".into()).map_err(network)?;
        let data: Uint8Array = value.dyn_into().map_err(network)?;
        let at = bytes.len();
        bytes.resize(at + data.length() as usize, 0);
        data.copy_to(&mut bytes[at..]);
        progress(bytes.len() as u64, total);
    }
    Ok(bytes)
}

/// The bytes of a file the user picked.
pub async fn read_file(file: &web_sys::File) -> Result<Vec<u8>, FetchError> {
    let buffer = JsFuture::from(file.array_buffer())
        .await
        .map_err(|e| FetchError::File {
            name: file.name(),
            message: js_message(&e),
        })?;
    Ok(Uint8Array::new(&buffer).to_vec())
}
