//! Bytes from the network with progress (into the app's memory, or into a
//! browser `Blob` for large files), or from a file the user picked; every
//! read within its [`Limit`].

use std::convert::Infallible;
use std::fmt;

use js_sys::{Array, Reflect, Uint8Array};
use leptos::prelude::window;
use sha2::{Digest, Sha256};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, BlobPropertyBag, ReadableStream, ReadableStreamDefaultReader, Response};

use super::js_message;
use super::limit::{Limit, TooLarge};

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
    /// The browser would not give the app the memory for the download.
    Memory { url: String, bytes: u64 },
    /// Past its limit: the read was stopped there.
    TooLarge(TooLarge),
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
            FetchError::Memory { url, bytes } => write!(
                f,
                "could not download {url}: the browser could not give the app {bytes} bytes \
                 of memory"
            ),
            FetchError::TooLarge(e) => e.fmt(f),
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

/// Where streamed bytes go ([`fetch_into`], [`read_into`]): told the size
/// known before the first byte, then handed each chunk, within the read's
/// [`Limit`]. A refusal stops the read at once (the stream is cancelled),
/// so a file refused by its size or first bytes is never read whole.
pub trait Sink {
    type Refusal;
    fn announce(&mut self, bytes: u64) -> Result<(), Self::Refusal>;
    fn take(&mut self, chunk: &[u8]) -> Result<(), Self::Refusal>;
}

/// Why streamed bytes did not all reach their [`Sink`].
#[derive(Debug)]
pub enum StreamError<R> {
    /// Reading failed.
    Read(FetchError),
    /// The sink refused them.
    Refused(R),
}

/// GETs `url` within `limit`, reporting `(bytes received, expected
/// total)` after every chunk. A listed size beats Content-Length, which
/// is the compressed size when the server compresses. Memory for a listed
/// size is asked for up front, and refused as an error.
pub async fn fetch_bytes(
    url: &str,
    limit: Limit,
    progress: impl Fn(u64, Option<u64>),
) -> Result<Vec<u8>, FetchError> {
    let memory = |bytes: u64| FetchError::Memory {
        url: url.to_owned(),
        bytes,
    };
    let mut bytes = Vec::new();
    if let Limit::Listed(n) = limit {
        let n = usize::try_from(n).map_err(|_| memory(n))?;
        bytes.try_reserve_exact(n).map_err(|_| memory(n as u64))?;
    }
    let grown = fetch_chunks(url, limit, progress, |data| {
        let at = bytes.len();
        let more = data.length() as usize;
        bytes
            .try_reserve(more)
            .map_err(|_| memory((at + more) as u64))?;
        bytes.resize(at + more, 0);
        data.copy_to(&mut bytes[at..]);
        Ok(())
    })
    .await;
    match grown {
        Ok(()) => Ok(bytes),
        Err(StreamError::Read(e) | StreamError::Refused(e)) => Err(e),
    }
}

/// GETs `url` into `sink` within `limit`, progress as [`fetch_bytes`];
/// `sink` is told the expected size (listed, else Content-Length) first.
pub async fn fetch_into<S: Sink>(
    url: &str,
    limit: Limit,
    progress: impl Fn(u64, Option<u64>),
    sink: &mut S,
) -> Result<(), StreamError<S::Refusal>> {
    let response = fetch_response(url).await.map_err(StreamError::Read)?;
    if let Some(total) = limit.total(content_length(&response)) {
        sink.announce(total).map_err(StreamError::Refused)?;
    }
    let mut buffer = Vec::new();
    read_response(url, &response, limit, progress, |data| {
        buffer.resize(data.length() as usize, 0);
        data.copy_to(&mut buffer);
        sink.take(&buffer)
    })
    .await
}

/// Reads a file the user picked into `sink` chunk by chunk, reporting
/// `(bytes read, file size)`; `sink` is told the file's size first, and
/// refuses it by its own cap (a blob's, `blob_intake`). The read stops at
/// the file's size, should the file grow meanwhile.
pub async fn read_into<S: Sink>(
    file: &web_sys::File,
    progress: impl Fn(u64, Option<u64>),
    sink: &mut S,
) -> Result<(), StreamError<S::Refusal>> {
    let size = file.size() as u64;
    sink.announce(size).map_err(StreamError::Refused)?;
    let limit = Limit::Listed(size);
    let unreadable = |e: JsValue| FetchError::File {
        name: file.name(),
        message: js_message(&e),
    };
    let mut buffer = Vec::new();
    let name = file.name();
    read_stream(
        file.stream(),
        unreadable,
        (&name, limit),
        Some(size),
        progress,
        |data| {
            buffer.resize(data.length() as usize, 0);
            data.copy_to(&mut buffer);
            sink.take(&buffer)
        },
    )
    .await
}

/// A download kept in the browser's memory, out of the app's: large files
/// (an LLM's weights) go to a `Blob` chunk by chunk, hashed on the way.
pub struct FetchedBlob {
    pub blob: Blob,
    pub bytes: u64,
    /// Lower-case hex SHA-256, as manifests write it.
    pub sha256: String,
}

/// GETs `url` within `limit` into a [`Blob`] of MIME type `mime`,
/// hashing it as it arrives; progress as [`fetch_bytes`]. The app's
/// memory holds one chunk at a time.
pub async fn fetch_blob(
    url: &str,
    mime: &str,
    limit: Limit,
    progress: impl Fn(u64, Option<u64>),
) -> Result<FetchedBlob, FetchError> {
    let chunks = Array::new();
    let mut hasher = Sha256::new();
    let mut buffer = Vec::new();
    let mut bytes = 0u64;
    fetch_chunks(url, limit, progress, |data| {
        buffer.resize(data.length() as usize, 0);
        data.copy_to(&mut buffer);
        hasher.update(&buffer);
        bytes += buffer.len() as u64;
        chunks.push(data);
        Ok::<(), Infallible>(())
    })
    .await
    .map_err(|e| match e {
        StreamError::Read(e) => e,
        StreamError::Refused(never) => match never {},
    })?;
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
async fn fetch_chunks<R>(
    url: &str,
    limit: Limit,
    progress: impl Fn(u64, Option<u64>),
    chunk: impl FnMut(&Uint8Array) -> Result<(), R>,
) -> Result<(), StreamError<R>> {
    let response = fetch_response(url).await.map_err(StreamError::Read)?;
    read_response(url, &response, limit, progress, chunk).await
}

/// Hands each chunk of `response`'s body (from `url`) to `chunk` within
/// `limit`, reporting progress after it. A body whose uncompressed size
/// the server states past the limit is refused before its first byte.
pub(super) async fn read_response<R>(
    url: &str,
    response: &Response,
    limit: Limit,
    progress: impl Fn(u64, Option<u64>),
    chunk: impl FnMut(&Uint8Array) -> Result<(), R>,
) -> Result<(), StreamError<R>> {
    let announced = content_length(response);
    if let Some(bytes) = announced.filter(|_| !compressed(response)) {
        limit
            .check(url, bytes, true)
            .map_err(|e| StreamError::Read(FetchError::TooLarge(e)))?;
    }
    let Some(body) = response.body() else {
        return Ok(());
    };
    let network = |e: JsValue| FetchError::Network {
        url: url.to_owned(),
        message: js_message(&e),
    };
    let total = limit.total(announced);
    read_stream(body, network, (url, limit), total, progress, chunk).await
}

/// The response to a GET of `url`, if it is a success.
async fn fetch_response(url: &str) -> Result<Response, FetchError> {
    let response: Response = JsFuture::from(window().fetch_with_str(url))
        .await
        .and_then(|r| r.dyn_into())
        .map_err(|e| FetchError::Network {
            url: url.to_owned(),
            message: js_message(&e),
        })?;
    if !response.ok() {
        return Err(FetchError::Status {
            url: url.to_owned(),
            status: response.status(),
            text: response.status_text(),
        });
    }
    Ok(response)
}

/// Whether the body is sent compressed (then Content-Length is not its
/// size).
fn compressed(response: &Response) -> bool {
    response
        .headers()
        .get("content-encoding")
        .ok()
        .flatten()
        .is_some_and(|e| !e.eq_ignore_ascii_case("identity"))
}

fn content_length(response: &Response) -> Option<u64> {
    response
        .headers()
        .get("content-length")
        .ok()
        .flatten()
        .and_then(|v| v.parse().ok())
}

/// Hands each chunk of `stream` (of the file `name`) to `chunk`,
/// reporting progress after it; cancels the stream when `chunk` refuses
/// one, or when it goes past `limit`.
async fn read_stream<R>(
    stream: ReadableStream,
    failed: impl Fn(JsValue) -> FetchError,
    (name, limit): (&str, Limit),
    total: Option<u64>,
    progress: impl Fn(u64, Option<u64>),
    mut chunk: impl FnMut(&Uint8Array) -> Result<(), R>,
) -> Result<(), StreamError<R>> {
    let reader: ReadableStreamDefaultReader = stream.get_reader().unchecked_into();
    let failed = |e: JsValue| StreamError::Read(failed(e));
    let mut received = 0u64;
    progress(0, total);
    loop {
        let read = JsFuture::from(reader.read()).await.map_err(failed)?;
        let done = Reflect::get(&read, &"done".into()).map_err(failed)?;
        if done.as_bool().unwrap_or(true) {
            break;
        }
        let value = Reflect::get(&read, &"value".into()).map_err(failed)?;
        let data: Uint8Array = value.dyn_into().map_err(failed)?;
        received += u64::from(data.length());
        let taken = match limit.check(name, received, false) {
            Ok(()) => chunk(&data).map_err(StreamError::Refused),
            Err(e) => Err(StreamError::Read(FetchError::TooLarge(e))),
        };
        if let Err(refused) = taken {
            // The refusal is the news; how the cancel ends does not matter.
            let _ = reader.cancel();
            return Err(refused);
        }
        progress(received, total);
    }
    Ok(())
}

/// The bytes of a file the user picked, refused unread when it is past
/// `limit`.
pub async fn read_file(file: &web_sys::File, limit: Limit) -> Result<Vec<u8>, FetchError> {
    limit
        .check(&file.name(), file.size() as u64, true)
        .map_err(FetchError::TooLarge)?;
    let buffer = JsFuture::from(file.array_buffer())
        .await
        .map_err(|e| FetchError::File {
            name: file.name(),
            message: js_message(&e),
        })?;
    Ok(Uint8Array::new(&buffer).to_vec())
}
