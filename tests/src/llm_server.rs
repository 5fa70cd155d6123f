//! The real LLM the LLM methods' tests ask: an OpenAI-compatible server
//! on loopback. `$NOMOS_LLM_URL` names it (e.g. `http://127.0.0.1:9000/v1`,
//! which must answer); without it the tests use `scripts/llm-server.sh`'s
//! (Qwen2.5-Coder-0.5B-Instruct behind llama.cpp on port 8089) and start it
//! when it does not answer, as `scripts/test.sh` does before them.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::time::Duration;

use anyhow::{bail, ensure, Context, Result};

use crate::paths::repo_root;

/// The model name llm-server.sh's server answers to.
pub const DEFAULT_MODEL: &str = "qwen2.5-coder-0.5b-instruct";
const DEFAULT_URL: &str = "http://127.0.0.1:8089/v1";

/// The base URL (`…/v1`) of an answering server, started if need be.
pub fn llm_base_url() -> Result<String> {
    if let Ok(url) = std::env::var("NOMOS_LLM_URL") {
        ensure!(
            healthy(&url)?,
            "NOMOS_LLM_URL={url} does not answer at /health; start the server or unset it"
        );
        return Ok(url.trim_end_matches('/').to_owned());
    }
    if !healthy(DEFAULT_URL)? {
        let status = Command::new(repo_root().join("scripts/llm-server.sh"))
            .arg("--background")
            .status()
            .context("running scripts/llm-server.sh --background")?;
        ensure!(
            status.success(),
            "scripts/llm-server.sh --background failed: {status}"
        );
        ensure!(
            healthy(DEFAULT_URL)?,
            "the LLM server started but does not answer"
        );
    }
    Ok(DEFAULT_URL.to_owned())
}

/// Whether `GET <host>/health` answers 200 (llama.cpp's readiness).
fn healthy(base: &str) -> Result<bool> {
    let rest = base
        .strip_prefix("http://")
        .with_context(|| format!("{base}: only a plain http:// loopback server is supported"))?;
    let host = rest.split('/').next().unwrap_or(rest);
    let Ok(mut stream) = TcpStream::connect(host) else {
        return Ok(false);
    };
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    write!(
        stream,
        "GET /health HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )?;
    let mut head = [0u8; 12];
    if stream.read_exact(&mut head).is_err() {
        return Ok(false);
    }
    match std::str::from_utf8(&head) {
        Ok(line) => Ok(line.ends_with(" 200")),
        Err(_) => bail!("{host} does not speak HTTP"),
    }
}
