//! A static file server for `dist/` on 127.0.0.1, on std threads so it
//! works under any async runtime. Tests can replace a file's bytes (e.g. a
//! damaged blob) and stop the server to take the network away.
//!
//! Tests can also hide a file (404), have answers brotli-compressed, and
//! hold a file's answers until they release them, to act while the page
//! waits for it ([`StaticServer::held`], which waits on tokio's timer).
//!
//! Every response closes its connection, so once [`StaticServer::stop`]
//! returns the browser cannot reach anything: new connections are refused.
//!
//! [`StaticServer::start`] answers as `scripts/serve.py` does (the page
//! cross-origin isolated); [`StaticServer::start_plain_under`] as a plain
//! static host does, under a subpath and with no headers of its own.

use std::collections::{HashMap, HashSet};
use std::io::{self, BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Bytes served instead of files, by URL path without the leading `/`;
/// `None`: not found.
type Overrides = Arc<Mutex<HashMap<String, Option<Vec<u8>>>>>;

pub struct StaticServer {
    addr: SocketAddr,
    site: Arc<Site>,
    overrides: Overrides,
    stopping: Arc<AtomicBool>,
    acceptor: Option<JoinHandle<()>>,
}

/// Where the files are and how they are answered.
#[derive(Default)]
struct Site {
    root: PathBuf,
    /// The URL path the site is served under: `/` or `/some/sub/path/`.
    prefix: String,
    /// Send COOP and COEP (and `no-store`), and the build's
    /// Content-Security-Policy with `nosniff`, as `scripts/serve.py` does.
    isolated: bool,
    /// Answer brotli-compressed (quality 11) when the browser accepts it.
    brotli: AtomicBool,
    /// Compressed answers, by path and length, made once.
    compressed: Mutex<HashMap<(String, usize), Vec<u8>>>,
    /// Each answer's request target and body length, in order.
    sent: Mutex<Vec<(String, u64)>>,
    /// Paths whose answers wait, and the requests waiting.
    holds: Mutex<Holds>,
    /// Signalled when a path is released.
    released: Condvar,
}

/// Paths held (see [`StaticServer::hold`]) and, by path, how many
/// requests wait for them.
#[derive(Default)]
struct Holds {
    held: HashSet<String>,
    waiting: HashMap<String, usize>,
}

impl StaticServer {
    /// Serves `root` at the site root of a free port of 127.0.0.1, the page
    /// cross-origin isolated.
    pub fn start(root: &Path) -> io::Result<StaticServer> {
        Self::start_site(Site {
            root: root.to_path_buf(),
            prefix: "/".into(),
            isolated: true,
            ..Site::default()
        })
    }

    /// Serves `root` under `prefix` (`/some/sub/path/`) as a plain static
    /// host would (GitHub Pages, a university's web space): nothing outside
    /// the prefix, and no headers beyond type and length, so the page is
    /// not cross-origin isolated until the service worker makes it so.
    pub fn start_plain_under(root: &Path, prefix: &str) -> io::Result<StaticServer> {
        assert!(
            prefix.starts_with('/') && prefix.ends_with('/'),
            "a prefix starts and ends with /"
        );
        Self::start_site(Site {
            root: root.to_path_buf(),
            prefix: prefix.into(),
            ..Site::default()
        })
    }

    fn start_site(site: Site) -> io::Result<StaticServer> {
        let site = Arc::new(site);
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let addr = listener.local_addr()?;
        let overrides = Overrides::default();
        let stopping = Arc::new(AtomicBool::new(false));
        let acceptor = {
            let site = site.clone();
            let overrides = overrides.clone();
            let stopping = stopping.clone();
            std::thread::spawn(move || accept_loop(listener, site, overrides, stopping))
        };
        Ok(StaticServer {
            addr,
            site,
            overrides,
            stopping,
            acceptor: Some(acceptor),
        })
    }

    /// The site's URL, e.g. `http://127.0.0.1:40123/` or
    /// `http://127.0.0.1:40123/some/sub/path/`.
    pub fn url(&self) -> String {
        format!("http://{}{}", self.addr, self.site.prefix)
    }

    /// Serves `bytes` at `path` (relative to the site, e.g.
    /// `indexes/el-syntagma.blob`) instead of the file.
    pub fn replace(&self, path: &str, bytes: Vec<u8>) {
        self.overrides
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(path.to_owned(), Some(bytes));
    }

    /// Serves the site's file at `path` with the byte in its middle
    /// flipped, as a host or a link may damage it, and returns those
    /// bytes; [`Self::restore`] undoes it.
    pub fn damage(&self, path: &str) -> io::Result<Vec<u8>> {
        let mut bytes = std::fs::read(self.site.root.join(path))?;
        let middle = bytes.len() / 2;
        bytes[middle] ^= 0xff;
        self.replace(path, bytes.clone());
        Ok(bytes)
    }

    /// Answers `path` with 404 Not Found, as if the file were missing.
    pub fn hide(&self, path: &str) {
        self.overrides
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(path.to_owned(), None);
    }

    /// From now on, requests for `path` (as for [`Self::replace`]) wait
    /// for their answer until [`Self::release`]: the page waits for that
    /// step while the test acts.
    pub fn hold(&self, path: &str) {
        self.site.holds().held.insert(path.to_owned());
    }

    /// Waits until `n` requests for the held `path` wait, or fails after
    /// `limit`.
    pub async fn held(&self, path: &str, n: usize, limit: Duration) -> io::Result<()> {
        let started = Instant::now();
        loop {
            let waiting = self.site.holds().waiting.get(path).copied().unwrap_or(0);
            if waiting >= n {
                return Ok(());
            }
            if started.elapsed() > limit {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!("{waiting} requests for {path} came in {limit:?}, not {n}"),
                ));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Answers the requests waiting for `path`, and those to come.
    pub fn release(&self, path: &str) {
        self.site.holds().held.remove(path);
        self.site.released.notify_all();
    }

    /// Every answer so far: the request's target (`/indexes/x.blob`) and
    /// the bytes of its body as sent (compressed, when it was).
    pub fn sent(&self) -> Vec<(String, u64)> {
        self.site
            .sent
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// From now on, answers compressed with brotli (quality 11, as
    /// `nomos info` measures) to requests that accept it, as a host that
    /// compresses would: what the browser then reports as transferred is
    /// what a visitor downloads.
    /// Quality 11 is slow (half a minute for the app's wasm on a busy
    /// machine), so the app's files and `indexes/` files named in
    /// `ahead` are compressed here, before any request, on a thread each;
    /// the others (pools, models, runtimes) when first asked for.
    pub fn send_brotli(&self, ahead: &[&str]) -> io::Result<()> {
        let mut files = Vec::new();
        let mut dirs = vec![self.site.root.clone()];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir)? {
                let path = entry?.path();
                let relative = path.strip_prefix(&self.site.root).unwrap_or(&path);
                let name = relative.to_string_lossy().replace('\\', "/");
                let on_use = [
                    "indexes/",
                    "models/",
                    "ort/",
                    "wllama/",
                    "transcripts/",
                    ".stage",
                ];
                if on_use.iter().any(|p| name.starts_with(p)) && !ahead.contains(&name.as_str()) {
                    continue;
                }
                match path.is_dir() {
                    true => dirs.push(path),
                    false => files.push(name),
                }
            }
        }
        let site = &self.site;
        std::thread::scope(|scope| {
            let jobs: Vec<_> = files
                .iter()
                .map(|name| {
                    scope.spawn(move || {
                        let body = std::fs::read(site.root.join(name))?;
                        compressed(site, name, &body).map(drop)
                    })
                })
                .collect();
            jobs.into_iter().try_for_each(|job| {
                job.join()
                    .unwrap_or_else(|_| Err(io::Error::other("panic")))
            })
        })?;
        self.site.brotli.store(true, Ordering::SeqCst);
        Ok(())
    }

    /// Serves the file at `path` again, not the bytes [`StaticServer::replace`]
    /// put there (the host is fixed).
    pub fn restore(&self, path: &str) {
        self.overrides
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(path);
    }

    /// Stops accepting connections and closes the listening socket; from
    /// then on the browser's requests fail as if the network were gone.
    pub fn stop(&mut self) {
        let Some(acceptor) = self.acceptor.take() else {
            return;
        };
        self.stopping.store(true, Ordering::SeqCst);
        self.site.holds().held.clear();
        self.site.released.notify_all();
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

impl Site {
    fn holds(&self) -> std::sync::MutexGuard<'_, Holds> {
        self.holds.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Returns once `path` is not held (at once if it is not).
    fn wait_while_held(&self, path: &str) {
        let mut holds = self.holds();
        if !holds.held.contains(path) {
            return;
        }
        *holds.waiting.entry(path.to_owned()).or_default() += 1;
        let mut holds = self
            .released
            .wait_while(holds, |h| h.held.contains(path))
            .unwrap_or_else(|e| e.into_inner());
        if let Some(n) = holds.waiting.get_mut(path) {
            *n -= 1;
        }
    }
}

fn accept_loop(
    listener: TcpListener,
    site: Arc<Site>,
    overrides: Overrides,
    stopping: Arc<AtomicBool>,
) {
    for stream in listener.incoming() {
        if stopping.load(Ordering::SeqCst) {
            break;
        }
        let Ok(stream) = stream else { continue };
        let site = site.clone();
        let overrides = overrides.clone();
        // Browsers fetch several files at once; one thread per connection.
        std::thread::spawn(move || {
            let _ = serve(stream, &site, &overrides);
        });
    }
}

/// Answers one request on `stream`, then closes it.
fn serve(mut stream: TcpStream, site: &Site, overrides: &Overrides) -> io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    // Of the headers, only Accept-Encoding can change the answer.
    let mut accepts_brotli = false;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" || line == "\n" {
            break;
        }
        let lower = line.to_ascii_lowercase();
        if let Some(value) = lower.strip_prefix("accept-encoding:") {
            accepts_brotli = value.split(',').any(|e| e.trim().starts_with("br"));
        }
    }
    let mut parts = request_line.split_whitespace();
    let method = parts.next().unwrap_or_default();
    let target = parts.next().unwrap_or_default();

    let path = target
        .strip_prefix(site.prefix.as_str())
        .and_then(site_path);
    if let Some(path) = &path {
        site.wait_while_held(path);
    }
    let (status, content_type, body, path) = match method {
        "GET" | "HEAD" => match path.and_then(|path| lookup(&site.root, overrides, path)) {
            Some((path, bytes)) => ("200 OK", content_type(&path), bytes, path),
            None => (
                "404 Not Found",
                "text/plain",
                b"not found\n".to_vec(),
                String::new(),
            ),
        },
        _ => (
            "405 Method Not Allowed",
            "text/plain",
            Vec::new(),
            String::new(),
        ),
    };
    let isolation = match site.isolated {
        true => {
            // scripts/csp-hashes.py writes it at build time.
            let policy = std::fs::read_to_string(site.root.join("content-security-policy.txt"))?;
            format!(
                "Cache-Control: no-store\r\nCross-Origin-Opener-Policy: same-origin\r\n\
                 Cross-Origin-Embedder-Policy: require-corp\r\n\
                 Content-Security-Policy: {}\r\nX-Content-Type-Options: nosniff\r\n",
                policy.trim()
            )
        }
        false => String::new(),
    };
    let (body, encoding) =
        match status == "200 OK" && accepts_brotli && site.brotli.load(Ordering::SeqCst) {
            true => (compressed(site, &path, &body)?, "Content-Encoding: br\r\n"),
            false => (body, ""),
        };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         {encoding}{isolation}Connection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    if method != "HEAD" {
        stream.write_all(&body)?;
    }
    stream.flush()?;
    site.sent
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push((target.to_owned(), body.len() as u64));
    Ok(())
}

/// `body` (the file at `path`) compressed with brotli at quality 11, made
/// once per path and length.
fn compressed(site: &Site, path: &str, body: &[u8]) -> io::Result<Vec<u8>> {
    let key = (path.to_owned(), body.len());
    if let Some(done) = site
        .compressed
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&key)
    {
        return Ok(done.clone());
    }
    let mut out = Vec::new();
    {
        let mut encoder = brotli::CompressorWriter::new(&mut out, 1 << 16, 11, 22);
        encoder.write_all(body)?;
    }
    site.compressed
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, out.clone());
    Ok(out)
}

/// The file a request below the site's prefix (`indexes/x.blob?v=1`)
/// asks for (`indexes/x.blob`), `index.html` for a directory; `None` for
/// malformed escapes.
fn site_path(target: &str) -> Option<String> {
    let path = target.split(['?', '#']).next().unwrap_or_default();
    let mut path = percent_decode(path)?;
    if path.is_empty() || path.ends_with('/') {
        path.push_str("index.html");
    }
    Some(path)
}

/// The bytes for `path` (see [`site_path`]), from the overrides or the
/// file under `root`. Paths that leave `root` are not found.
fn lookup(root: &Path, overrides: &Overrides, path: String) -> Option<(String, Vec<u8>)> {
    if let Some(bytes) = overrides
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&path)
    {
        return bytes.clone().map(|bytes| (path, bytes));
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
        let get = |target| lookup(dir.path(), &overrides, site_path(target)?);
        assert!(get("../etc/passwd").is_none());
        assert!(get("%2e%2e/etc/passwd").is_none());
        assert!(get("/etc/passwd").is_none());
        assert_eq!(get("?q=x").unwrap().1, b"hi");
    }

    /// The answer to `GET path` from the server at `addr`.
    fn get(addr: SocketAddr, path: &str) -> String {
        use std::io::Read;
        let mut stream = TcpStream::connect(addr).unwrap();
        write!(stream, "GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        answer
    }

    #[test]
    fn a_plain_site_answers_only_under_its_prefix_without_isolation() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("index.html"), "hi").unwrap();
        let server = StaticServer::start_plain_under(dir.path(), "/some/sub/path/").unwrap();
        let get = |path: &str| get(server.addr, path);
        let page = get("/some/sub/path/");
        assert!(
            page.starts_with("HTTP/1.1 200") && page.ends_with("hi"),
            "{page}"
        );
        assert!(!page.contains("Cross-Origin"), "{page}");
        assert!(get("/index.html").starts_with("HTTP/1.1 404"));
        assert!(get("/some/sub/index.html").starts_with("HTTP/1.1 404"));
    }

    #[tokio::test]
    async fn a_held_file_is_answered_once_released() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "a").unwrap();
        let server = StaticServer::start_plain_under(dir.path(), "/").unwrap();
        server.hold("a.txt");
        let addr = server.addr;
        let asked = std::thread::spawn(move || get(addr, "/a.txt"));
        server
            .held("a.txt", 1, Duration::from_secs(10))
            .await
            .unwrap();
        assert!(
            get(addr, "/").starts_with("HTTP/1.1 404"),
            "others are answered"
        );
        assert!(!asked.is_finished() && server.sent().len() == 1);
        server.release("a.txt");
        let answer = asked.join().unwrap();
        assert!(
            answer.starts_with("HTTP/1.1 200") && answer.ends_with('a'),
            "{answer}"
        );
    }
}
