//! A scripted HTTP server on 127.0.0.1 for the LLM transport's tests: a
//! handler answers each request (given its number), every request is
//! kept, each connection gets one answer and is closed. Shared by the
//! transport's unit tests (`src/llm/tests.rs`) and the CLI tests. It only
//! answers what the test sends, and stops when dropped.

// Each test crate that includes this uses part of it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A request as the server read it.
#[derive(Debug, Clone)]
pub struct Request {
    /// E.g. `/v1/chat/completions`.
    pub path: String,
    /// Names lower-cased.
    pub headers: Vec<(String, String)>,
    /// The body as JSON (`Null` if it is not).
    pub body: serde_json::Value,
}

impl Request {
    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The last message's content.
    pub fn last_message(&self) -> &str {
        self.body["messages"]
            .as_array()
            .and_then(|m| m.last())
            .and_then(|m| m["content"].as_str())
            .unwrap_or_default()
    }
}

/// What the server answers.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub body: String,
    pub headers: Vec<(String, String)>,
    /// Waits this long first (to outlast a client's timeout).
    pub delay: Duration,
}

impl Reply {
    /// `status` with `body` as JSON.
    pub fn new(status: u16, body: impl Into<String>) -> Reply {
        Reply {
            status,
            body: body.into(),
            headers: vec![],
            delay: Duration::ZERO,
        }
    }

    /// A chat completion whose message content is `content`, in the
    /// OpenAI shape every compatible server shares.
    pub fn completion(content: &str) -> Reply {
        let body = serde_json::json!({
            "id": "chatcmpl-loopback",
            "object": "chat.completion",
            "model": "loopback",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110},
        });
        Reply::new(200, body.to_string())
    }

    pub fn header(mut self, name: &str, value: &str) -> Reply {
        self.headers.push((name.into(), value.into()));
        self
    }

    pub fn after(mut self, delay: Duration) -> Reply {
        self.delay = delay;
        self
    }
}

type Handler = dyn Fn(&Request, usize) -> Reply + Send + Sync;

/// A running server.
pub struct Loopback {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    seen: Arc<Mutex<Vec<Request>>>,
    stop: Arc<AtomicBool>,
}

impl Loopback {
    /// Starts a server answering with `handler(request, n)` for the n-th
    /// request (from 0).
    pub fn start(handler: impl Fn(&Request, usize) -> Reply + Send + Sync + 'static) -> Loopback {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        let base = format!("http://{}", listener.local_addr().unwrap());
        let seen: Arc<Mutex<Vec<Request>>> = Arc::default();
        let stop = Arc::new(AtomicBool::new(false));
        let handler: Arc<Handler> = Arc::new(handler);
        let count = Arc::new(AtomicUsize::new(0));
        let (log, stopped) = (seen.clone(), stop.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stopped.load(Ordering::Relaxed) {
                    return;
                }
                let Ok(stream) = stream else { return };
                let (handler, log, count) = (handler.clone(), log.clone(), count.clone());
                std::thread::spawn(move || answer(stream, &*handler, &log, &count));
            }
        });
        Loopback { base, seen, stop }
    }

    /// Every request so far, in arrival order.
    pub fn requests(&self) -> Vec<Request> {
        self.seen.lock().unwrap().clone()
    }
}

impl Drop for Loopback {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // Wakes the accept loop so it sees the flag.
        let _ = TcpStream::connect(self.base.trim_start_matches("http://"));
    }
}

fn answer(stream: TcpStream, handler: &Handler, log: &Mutex<Vec<Request>>, count: &AtomicUsize) {
    let Some(request) = read_request(&stream) else {
        return;
    };
    let n = {
        let mut log = log.lock().unwrap();
        log.push(request.clone());
        count.fetch_add(1, Ordering::SeqCst)
    };
    let reply = handler(&request, n);
    std::thread::sleep(reply.delay);
    let mut head = format!(
        "HTTP/1.1 {} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
        reply.status,
        reply.body.len()
    );
    for (name, value) in &reply.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let mut stream = stream;
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(reply.body.as_bytes());
    let _ = stream.flush();
}

fn read_request(stream: &TcpStream) -> Option<Request> {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let path = line.split_whitespace().nth(1)?.to_owned();
    let mut headers = Vec::new();
    loop {
        line.clear();
        reader.read_line(&mut line).ok()?;
        let trimmed = line.trim_end();
        if trimmed.is_empty() {
            break;
        }
        let (name, value) = trimmed.split_once(':')?;
        headers.push((name.trim().to_lowercase(), value.trim().to_owned()));
    }
    let length: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(Request {
        path,
        headers,
        body: serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null),
    })
}
