//! The two Hugging Face hub endpoints a fetch needs, and turning the hub's
//! failures into messages that say what to do.

use std::time::Duration;

use anyhow::Result;
use serde::Deserialize;
use ureq::http::Response;
use ureq::{Agent, Body};

use crate::error::bad_input;

/// Largest repo listing accepted (the hub sends a few hundred bytes a file).
const LISTING_LIMIT: u64 = 64 * 1024 * 1024;

/// How long a response may send nothing before the download is abandoned
/// (a stalled body would otherwise hang the fetch for ever).
pub const STALL_TIMEOUT: Duration = Duration::from_secs(60);

/// A hub endpoint plus the HTTP agent and credentials to talk to it.
pub struct Hub {
    agent: Agent,
    /// Longest silence accepted from a response.
    pub stall: Duration,
    endpoint: String,
    token: Option<String>,
}

/// A revision resolved to a commit, with its files.
pub struct Listing {
    pub commit: String,
    pub files: Vec<RemoteFile>,
}

/// One file of the repo as the hub lists it.
pub struct RemoteFile {
    pub path: String,
    /// Bytes, as listed; a download may not send more.
    pub size: u64,
    /// Content SHA-256 of LFS-stored files (Parquet shards usually are).
    pub lfs_sha256: Option<String>,
}

#[derive(Deserialize)]
struct RevisionInfo {
    sha: String,
    siblings: Vec<Sibling>,
}

#[derive(Deserialize)]
struct Sibling {
    rfilename: String,
    size: Option<u64>,
    lfs: Option<Lfs>,
}

#[derive(Deserialize)]
struct Lfs {
    sha256: String,
    size: Option<u64>,
}

impl Hub {
    /// A hub client that gives up on a response silent for `stall`
    /// ([`STALL_TIMEOUT`] outside tests).
    pub fn new(endpoint: &str, token: Option<&str>, stall: Duration) -> Result<Hub> {
        let endpoint = endpoint.trim().trim_end_matches('/');
        if !(endpoint.starts_with("https://") || endpoint.starts_with("http://")) {
            return Err(bad_input(format!(
                "hub endpoint `{endpoint}` must start with https:// or http://"
            )));
        }
        let agent: Agent = Agent::config_builder()
            .http_status_as_error(false)
            .timeout_connect(Some(Duration::from_secs(30)))
            .timeout_recv_response(Some(Duration::from_secs(120)))
            .timeout_per_read(Some(stall))
            .user_agent(concat!("nomos/", env!("CARGO_PKG_VERSION")))
            .build()
            .into();
        Ok(Hub {
            agent,
            stall,
            endpoint: endpoint.to_string(),
            token: token.map(str::to_string),
        })
    }

    /// Resolves `revision` of dataset `repo` and lists its files.
    pub fn list(&self, repo: &str, revision: &str) -> Result<Listing> {
        check_repo_id(repo)?;
        let url = format!(
            "{}/api/datasets/{repo}/revision/{}?blobs=true",
            self.endpoint,
            encode(revision, false)
        );
        let mut resp = self.get(&url, repo, revision)?;
        let text = resp
            .body_mut()
            .with_config()
            .limit(LISTING_LIMIT)
            .read_to_string()
            .map_err(|e| anyhow::anyhow!("reading the file list from {url}: {e}"))?;
        let info: RevisionInfo = serde_json::from_str(&text)
            .map_err(|e| anyhow::anyhow!("{url}: unexpected file list: {e}"))?;
        let files = info
            .siblings
            .into_iter()
            .map(|s| {
                // Asked with `blobs=true`, the hub lists every size; without
                // one a download could not be bounded.
                let size = s
                    .size
                    .or(s.lfs.as_ref().and_then(|l| l.size))
                    .ok_or_else(|| {
                        anyhow::anyhow!(
                            "{url}: unexpected file list: no size for `{}`",
                            s.rfilename
                        )
                    })?;
                Ok(RemoteFile {
                    path: s.rfilename,
                    size,
                    lfs_sha256: s.lfs.map(|l| l.sha256),
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Listing {
            commit: info.sha,
            files,
        })
    }

    /// The download URL of `path` at `commit`.
    pub fn resolve_url(&self, repo: &str, commit: &str, path: &str) -> String {
        format!(
            "{}/datasets/{repo}/resolve/{}/{}",
            self.endpoint,
            encode(commit, false),
            encode(path, true)
        )
    }

    /// GETs `url` (following redirects, e.g. to the LFS CDN; the token is not
    /// forwarded off-host) and returns the response if it is a success.
    pub fn get(&self, url: &str, repo: &str, revision: &str) -> Result<Response<Body>> {
        let mut req = self.agent.get(url);
        if let Some(token) = &self.token {
            req = req.header("Authorization", format!("Bearer {token}"));
        }
        let resp = req.call().map_err(|e| self.transport_error(url, &e))?;
        if resp.status().is_success() {
            Ok(resp)
        } else {
            Err(status_error(&resp, url, repo, revision))
        }
    }

    fn transport_error(&self, url: &str, err: &ureq::Error) -> anyhow::Error {
        match err {
            ureq::Error::HostNotFound
            | ureq::Error::ConnectionFailed
            | ureq::Error::Timeout(_)
            | ureq::Error::Io(_) => anyhow::anyhow!(
                "cannot reach {} ({err}) while getting {url}: is the network up? \
                 (HF_ENDPOINT selects another hub or mirror)",
                self.endpoint
            ),
            _ => anyhow::anyhow!("request to {url} failed: {err}"),
        }
    }
}

/// Explains a non-success response, using the hub's `X-Error-Code` header.
/// Wrong names and missing access are the user's to fix (exit 2).
fn status_error(resp: &Response<Body>, url: &str, repo: &str, revision: &str) -> anyhow::Error {
    let header = |name: &str| {
        resp.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string()
    };
    let status = resp.status().as_u16();
    let code = header("x-error-code");
    let detail = match header("x-error-message") {
        m if m.is_empty() => String::new(),
        m => format!(": {m}"),
    };
    match (code.as_str(), status) {
        ("RepoNotFound", _) => repo_not_found(repo, status, &detail),
        ("", 401 | 404) if url.contains("/api/") => repo_not_found(repo, status, &detail),
        ("RevisionNotFound", _) => bad_input(format!(
            "revision `{revision}` not found in dataset `{repo}` (HTTP {status}{detail})"
        )),
        ("GatedRepo", _) => bad_input(format!(
            "dataset `{repo}` is gated (HTTP {status}{detail}): accept its terms on the hub \
             and set HF_TOKEN"
        )),
        (_, 401 | 403) => bad_input(format!(
            "access denied to {url} (HTTP {status}{detail}); check HF_TOKEN"
        )),
        (_, 429) => {
            anyhow::anyhow!("the hub is rate-limiting requests (HTTP 429) for {url}; retry later")
        }
        _ => anyhow::anyhow!("HTTP {status} for {url}{detail}"),
    }
}

fn repo_not_found(repo: &str, status: u16, detail: &str) -> anyhow::Error {
    bad_input(format!(
        "dataset repository `{repo}` not found (HTTP {status}{detail}); \
         if it is private or gated, set HF_TOKEN"
    ))
}

/// Hub repo ids are `owner/name` of `[A-Za-z0-9._-]`; checking keeps the
/// id from rewriting the request path.
fn check_repo_id(repo: &str) -> Result<()> {
    let part_ok = |p: &str| {
        !p.is_empty()
            && p != "."
            && p != ".."
            && p.chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
    };
    match repo.split_once('/') {
        Some((owner, name)) if part_ok(owner) && part_ok(name) => Ok(()),
        _ => Err(bad_input(format!(
            "`{repo}` is not a hub repository id (expected owner/name)"
        ))),
    }
}

/// Percent-encodes everything but RFC 3986 unreserved characters (and `/`
/// when `keep_slash`): revisions like `refs/convert/parquet` become one
/// segment, file paths keep their directories.
fn encode(s: &str, keep_slash: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) || (keep_slash && b == b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_revisions_as_one_segment_and_paths_by_segment() {
        assert_eq!(
            encode("refs/convert/parquet", false),
            "refs%2Fconvert%2Fparquet"
        );
        assert_eq!(encode("v2.0", false), "v2.0");
        assert_eq!(encode("data/corpus 1.csv", true), "data/corpus%201.csv");
        assert_eq!(encode("άρθρο", true), "%CE%AC%CF%81%CE%B8%CF%81%CE%BF");
    }

    #[test]
    fn repo_ids_are_owner_slash_name() {
        assert!(check_repo_id("AUEB-NLP/greek-bar-bench").is_ok());
        for bad in [
            "greek-bar-bench",
            "a/b/c",
            "../x",
            "a/..",
            "a/b?x=1",
            "/b",
            "a/",
        ] {
            assert!(check_repo_id(bad).is_err(), "{bad}");
        }
    }
}
