//! A loopback proxy in front of the real LLM server that answers one
//! chat completion with `503 Service Unavailable`, as a busy endpoint
//! does, and passes everything else through: the tests see the browser's
//! transport retry and count it. The model is never stood in for.

use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};

/// How long one exchange with the server may take (a small model on a
/// busy machine reads a long prompt for minutes).
const EXCHANGE: Duration = Duration::from_secs(900);

/// A running proxy; stops when dropped.
pub struct FlakyProxy {
    port: u16,
    path: String,
    refused: Arc<AtomicUsize>,
    stopping: Arc<AtomicBool>,
}

impl FlakyProxy {
    /// Proxies `upstream` (`http://HOST:PORT/PATH`, plain HTTP on
    /// loopback); the `fail`-th `POST …/chat/completions` (from 1) is
    /// answered 503 and not passed on.
    pub fn start(upstream: &str, fail: usize) -> Result<FlakyProxy> {
        let rest = upstream
            .strip_prefix("http://")
            .with_context(|| format!("{upstream}: only plain http:// is proxied"))?;
        let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
        let host = host.to_owned();
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let port = listener.local_addr()?.port();
        let refused = Arc::new(AtomicUsize::new(0));
        let stopping = Arc::new(AtomicBool::new(false));
        let (counted, stop) = (refused.clone(), stopping.clone());
        std::thread::spawn(move || {
            let chats = Arc::new(AtomicUsize::new(0));
            for client in listener.incoming() {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(client) = client else { continue };
                let (host, chats, counted) = (host.clone(), chats.clone(), counted.clone());
                std::thread::spawn(move || {
                    if let Err(e) = exchange(client, &host, fail, &chats, &counted) {
                        eprintln!("flaky proxy: {e}");
                    }
                });
            }
        });
        Ok(FlakyProxy {
            port,
            path: format!("/{path}").trim_end_matches('/').to_owned(),
            refused,
            stopping,
        })
    }

    /// The base URL to give the app instead of the server's.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}{}", self.port, self.path)
    }

    /// Chat completions answered 503 so far.
    pub fn refused(&self) -> usize {
        self.refused.load(Ordering::SeqCst)
    }
}

impl Drop for FlakyProxy {
    fn drop(&mut self) {
        self.stopping.store(true, Ordering::SeqCst);
        // Wakes the accept loop so that it sees the flag.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

/// One request: refused when it is the chat completion to fail, else
/// sent on with `Connection: close` and answered with the server's reply.
fn exchange(
    mut client: TcpStream,
    host: &str,
    fail: usize,
    chats: &AtomicUsize,
    refused: &AtomicUsize,
) -> io::Result<()> {
    client.set_read_timeout(Some(EXCHANGE))?;
    let (head, body) = read_request(&mut client)?;
    let first = head.lines().next().unwrap_or_default().to_owned();
    if first.starts_with("POST ")
        && first.contains("/chat/completions")
        && chats.fetch_add(1, Ordering::SeqCst) + 1 == fail
    {
        refused.fetch_add(1, Ordering::SeqCst);
        let message = b"{\"error\":{\"message\":\"busy\"}}";
        write!(
            client,
            "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n\
             Access-Control-Allow-Origin: *\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            message.len()
        )?;
        client.write_all(message)?;
        return client.shutdown(Shutdown::Both);
    }
    let mut server = TcpStream::connect(host)?;
    server.set_read_timeout(Some(EXCHANGE))?;
    let head: String = head
        .lines()
        .filter(|l| !l.to_ascii_lowercase().starts_with("connection:"))
        .map(|l| format!("{l}\r\n"))
        .collect();
    server.write_all(head.as_bytes())?;
    server.write_all(b"Connection: close\r\n\r\n")?;
    server.write_all(&body)?;
    let mut reply = Vec::new();
    server.read_to_end(&mut reply)?;
    client.write_all(&reply)?;
    client.shutdown(Shutdown::Both)
}

/// The request's head (without its blank line) and its body, by
/// `Content-Length`.
fn read_request(client: &mut TcpStream) -> io::Result<(String, Vec<u8>)> {
    let mut bytes = Vec::new();
    let mut buf = [0u8; 8192];
    let end = loop {
        if let Some(i) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
            break i;
        }
        let n = client.read(&mut buf)?;
        if n == 0 {
            return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "no request"));
        }
        bytes.extend_from_slice(&buf[..n]);
    };
    let head = String::from_utf8_lossy(&bytes[..end]).into_owned();
    let length = head
        .lines()
        .filter_map(|l| l.split_once(':'))
        .find(|(k, _)| k.trim().eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.trim().parse::<usize>().ok())
        .unwrap_or(0);
    let mut body = bytes[end + 4..].to_vec();
    while body.len() < length {
        let n = client.read(&mut buf)?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&buf[..n]);
    }
    Ok((head, body))
}
