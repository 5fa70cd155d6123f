//! Bytes from the network with progress (into the app's memory, or into a
//! browser `Blob` for large files), or from a file the user picked.

use std::fmt;

use js_sys::{Array, Reflect, Uint8Array};
use leptos::prelude::window;
use sha2::{Digest, Sha256};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, BlobPropertyBag, ReadableStreamDefaultReader, Response};

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

/// Says that the file at `url` is not the one a manifest lists: the
/// semantic model and the in-page LLM refuse such a download alike.
pub fn damaged_message(url: &str, bytes: u64, listed_bytes: u64, listed_sha256: &str) -> String {
    format!(
        "{url}: {bytes} bytes that do not match the model manifest ({listed_bytes} bytes, \
         SHA-256 {listed_sha256}); the download was damaged or the site is inconsistent"
    )
}

/// GETs `url`, reporting `(bytes received, expected total)` after every
/// chunk. `expected` (from a manifest) beats Content-Length, which is
/// the compressed size when the server compresses.
pub async fn fetch_bytes(
    url: &str,
    expected: Option<u64>,
    progress: impl Fn(u64, Option<u64>),
) -> Result<Vec<u8>, FetchError> {
    let mut bytes = Vec::with_capacity(expected.unwrap_or(0).min(1 << 30) as usize);
    fetch_chunks(url, expected, progress, |data| {
        let at = bytes.len();
        bytes.resize(at + data.length() as usize, 0);
        data.copy_to(&mut bytes[at..]);
    })
    .await?;
    Ok(bytes)
}

/// A download kept in the browser's memory, out of the app's: large files
/// (an LLM's weights) go to a `Blob` chunk by chunk, hashed on the way.
pub struct FetchedBlob {
    pub blob: Blob,
    pub bytes: u64,
    /// Lower-case hex SHA-256, as manifests write it.
    pub sha256: String,
}

/// GETs `url` into a [`Blob`] of MIME type `mime`, hashing it as it
/// arrives; progress as [`fetch_bytes`]. The app's memory holds one chunk
/// at a time.
pub async fn fetch_blob(
    url: &str,
    mime: &str,
    expected: Option<u64>,
    progress: impl Fn(u64, Option<u64>),
) -> Result<FetchedBlob, FetchError> {
    let chunks = Array::new();
    let mut hasher = Sha256::new();
    let mut buffer = Vec::new();
    let mut bytes = 0u64;
    fetch_chunks(url, expected, progress, |data| {
        buffer.resize(data.length() as usize, 0);
        data.copy_to(&mut buffer);
        hasher.update(&buffer);
        bytes += buffer.len() as u64;
        chunks.push(data);
    })
    .await?;
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    let blob = Blob::new_with_u8_array_sequence_and_options(&chunks, &options).map_err(|e| {
        FetchError::Network {
            url: url.to_owned(),
            message: js_message(&e),
        }
    })?;
    let sha256 = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Ok(FetchedBlob {
        blob,
        bytes,
        sha256,
    })
}

/// GETs `url`, handing each chunk of the body to `chunk` and reporting
/// progress after it.
async fn fetch_chunks(
    url: &str,
    expected: Option<u64>,
    progress: impl Fn(u64, Option<u64>),
    mut chunk: impl FnMut(&Uint8Array),
) -> Result<(), FetchError> {
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
        return Ok(());
    };
    let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let mut received = 0u64;
    progress(0, total);
    loop {
        let read = JsFuture::from(reader.read()).await.map_err(network)?;
        let done = Reflect::get(&read, &"done".into()).map_err(network)?;
        if done.as_bool().unwrap_or(true) {
            break;
        }
        let value = Reflect::get(&read, &"value".into()).map_err(network)?;
        let data: Uint8Array = value.dyn_into().map_err(network)?;
        received += u64::from(data.length());
        chunk(&data);
        progress(received, total);
    }
    Ok(())
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
