//! A static file server for `dist/` on 127.0.0.1, on std threads so it
//! works under any async runtime. Tests can replace a file's bytes (e.g. a
//! damaged blob) and stop the server to take the network away.
//!
//! Every response closes its connection, so once [`StaticServer::stop`]
//! returns the browser cannot reach anything: new connections are refused.

use std::collections::HashMap;
use std::io::{self, BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Bytes served instead of files, by URL path without the leading `/`.
type Overrides = Arc<Mutex<HashMap<String, Vec<u8>>>>;

pub struct StaticServer {
    addr: SocketAddr,
    overrides: Overrides,
    stopping: Arc<AtomicBool>,
    acceptor: Option<JoinHandle<()>>,
}

impl StaticServer {
    /// Serves `root` on a free port of 127.0.0.1.
    pub fn start(root: &Path) -> io::Result<StaticServer> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let addr = listener.local_addr()?;
        let overrides = Overrides::default();
        let stopping = Arc::new(AtomicBool::new(false));
        let acceptor = {
            let root = root.to_path_buf();
            let overrides = overrides.clone();
            let stopping = stopping.clone();
            std::thread::spawn(move || accept_loop(listener, root, overrides, stopping))
        };
        Ok(StaticServer {
            addr,
            overrides,
            stopping,
            acceptor: Some(acceptor),
        })
    }

    /// The site's root URL, e.g. `http://127.0.0.1:40123/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Serves `bytes` at `path` (relative to the root, e.g.
    /// `indexes/el-syntagma.blob`) instead of the file.
    pub fn replace(&self, path: &str, bytes: Vec<u8>) {
        self.overrides
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(path.to_owned(), bytes);
    }

    /// Stops accepting connections and closes the listening socket; from
    /// then on the browser's requests fail as if the network were gone.
    pub fn stop(&mut self) {
        let Some(acceptor) = self.acceptor.take() else {
            return;
        };
        self.stopping.store(true, Ordering::SeqCst);
        // Wake the blocking accept so the loop sees the flag.
        let _ = TcpStream::connect(self.addr);
        let _ = acceptor.join();
    }
}

impl Drop for StaticServer {
    fn drop(&mut self) {
        self.stop();
    }
}

fn accept_loop(
    listener: TcpListener,
    root: PathBuf,
    overrides: Overrides,
    stopping: Arc<AtomicBool>,
) {
    for stream in listener.incoming() {
        if stopping.load(Ordering::SeqCst) {
            break;
        }
        let Ok(stream) = stream else { continue };
        let root = root.clone();
        let overrides = overrides.clone();
        // Browsers fetch several files at once; one thread per connection.
        std::thread::spawn(move || {
            let _ = serve(stream, &root, &overrides);
        });
    }
}

/// Answers one request on `stream`, then closes it.
fn serve(mut stream: TcpStream, root: &Path, overrides: &Overrides) -> io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    // Skip the headers: nothing in them changes the answer.
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" || line == "\n" {
            break;
        }
    }
    let mut parts = request_line.split_whitespace();
    let method = parts.next().unwrap_or_default();
    let target = parts.next().unwrap_or_default();

    let (status, content_type, body) = match method {
        "GET" | "HEAD" => match lookup(root, overrides, target) {
            Some((path, bytes)) => ("200 OK", content_type(&path), bytes),
            None => ("404 Not Found", "text/plain", b"not found\n".to_vec()),
        },
        _ => ("405 Method Not Allowed", "text/plain", Vec::new()),
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nCross-Origin-Opener-Policy: same-origin\r\n\
         Cross-Origin-Embedder-Policy: require-corp\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    if method != "HEAD" {
        stream.write_all(&body)?;
    }
    stream.flush()
}

/// The bytes for a request target (`/indexes/x.blob?v=1`), from the
/// overrides or the file under `root`. Paths that leave `root` are not found.
fn lookup(root: &Path, overrides: &Overrides, target: &str) -> Option<(String, Vec<u8>)> {
    let path = target.split(['?', '#']).next().unwrap_or_default();
    let mut path = percent_decode(path.trim_start_matches('/'))?;
    if path.is_empty() || path.ends_with('/') {
        path.push_str("index.html");
    }
    if let Some(bytes) = overrides
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&path)
    {
        return Some((path, bytes.clone()));
    }
    let relative = Path::new(&path);
    if !relative
        .components()
        .all(|c| matches!(c, Component::Normal(_)))
    {
        return None;
    }
    let bytes = std::fs::read(root.join(relative)).ok()?;
    Some((path, bytes))
}

/// `%C2%A7` → `§`; `None` for malformed escapes or non-UTF-8 results.
fn percent_decode(s: &str) -> Option<String> {
    let mut out = Vec::with_capacity(s.len());
    let mut bytes = s.bytes();
    while let Some(b) = bytes.next() {
        if b == b'%' {
            let hex = [bytes.next()?, bytes.next()?];
            out.push(u8::from_str_radix(std::str::from_utf8(&hex).ok()?, 16).ok()?);
        } else {
            out.push(b);
        }
    }
    String::from_utf8(out).ok()
}

/// The MIME type browsers need: `application/wasm` for streaming
/// compilation, JavaScript modules by type.
fn content_type(path: &str) -> &'static str {
    let ext = path.rsplit_once('.').map_or("", |(_, ext)| ext);
    match ext {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "webmanifest" => "application/manifest+json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_percent_escapes() {
        assert_eq!(percent_decode("a%C2%A7b").as_deref(), Some("a§b"));
        assert_eq!(percent_decode("bad%2"), None);
    }

    #[test]
    fn refuses_paths_outside_the_root() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("index.html"), "hi").unwrap();
        let overrides = Overrides::default();
        assert!(lookup(dir.path(), &overrides, "/../etc/passwd").is_none());
        assert!(lookup(dir.path(), &overrides, "/%2e%2e/etc/passwd").is_none());
        assert_eq!(lookup(dir.path(), &overrides, "/?q=x").unwrap().1, b"hi");
    }
}
