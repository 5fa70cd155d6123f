//! `fetch_hf` against a hub-shaped HTTP server on 127.0.0.1 that serves the
//! GBR Parquet fixture (no network needed). The fake hub answers the two
//! endpoints the fetcher uses, redirects LFS files to a CDN path (as the hub
//! does) and records every request.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::*;
use crate::error::exit_code;
use crate::sources::gbr::read_gbr;
use nomos_core::digest::sha256_hex;

const REPO: &str = "AUEB-NLP/greek-bar-bench";
const REVISION: &str = "v2.0";
const COMMIT: &str = "0123456789abcdef0123456789abcdef01234567";

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/gbr-hub/parquet")
}

/// A file as the fake hub holds it.
struct HubFile {
    bytes: Vec<u8>,
    /// Stored in LFS: listed with a SHA-256, served through a redirect.
    lfs: bool,
}

#[derive(Default)]
struct Behaviour {
    /// Bearer token the hub demands (401 `RepoNotFound` without it, as for
    /// private repos).
    token: Option<String>,
    /// Serve these bytes instead of the real ones for one path.
    corrupt: Option<(String, Vec<u8>)>,
    /// Send the headers and half the body of this path's LFS download, then
    /// nothing while the client waits.
    stall: Option<String>,
    /// Rewrites each listed file's JSON before the listing is sent.
    edit_listing: Option<fn(&mut serde_json::Value)>,
}

/// One request the fake hub saw: path and Authorization header.
type Seen = Arc<Mutex<Vec<(String, Option<String>)>>>;

struct FakeHub {
    endpoint: String,
    seen: Seen,
    /// Body bytes the client accepted (written before it hung up).
    sent: Arc<AtomicU64>,
}

impl FakeHub {
    fn start(files: BTreeMap<String, HubFile>, behaviour: Behaviour) -> FakeHub {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let endpoint = format!("http://{}", listener.local_addr().unwrap());
        let seen: Seen = Arc::default();
        let sent = Arc::new(AtomicU64::new(0));
        let (log, count) = (seen.clone(), sent.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                match stream {
                    Ok(stream) => answer(stream, &files, &behaviour, &log, &count),
                    Err(_) => return,
                }
            }
        });
        FakeHub {
            endpoint,
            seen,
            sent,
        }
    }

    fn requests(&self) -> Vec<(String, Option<String>)> {
        self.seen.lock().unwrap().clone()
    }

    fn downloads(&self) -> usize {
        self.requests()
            .iter()
            .filter(|(p, _)| p.contains("/resolve/"))
            .count()
    }
}

/// The fixture's files (recursively), LFS-stored if Parquet as on the hub.
fn fixture_files() -> BTreeMap<String, HubFile> {
    fn walk(dir: &Path, prefix: &str, out: &mut BTreeMap<String, HubFile>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let name = format!("{prefix}{}", entry.file_name().to_str().unwrap());
            if entry.file_type().unwrap().is_dir() {
                walk(&entry.path(), &format!("{name}/"), out);
            } else {
                let bytes = std::fs::read(entry.path()).unwrap();
                let lfs = name.ends_with(".parquet");
                out.insert(name, HubFile { bytes, lfs });
            }
        }
    }
    let mut files = BTreeMap::new();
    walk(&fixture_dir(), "", &mut files);
    files
}

fn answer(
    stream: TcpStream,
    files: &BTreeMap<String, HubFile>,
    how: &Behaviour,
    seen: &Seen,
    sent: &AtomicU64,
) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).is_err() {
        return;
    }
    let mut auth = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("authorization") {
                auth = Some(value.trim().to_string());
            }
        }
    }
    let target = request_line.split(' ').nth(1).unwrap_or("").to_string();
    seen.lock().unwrap().push((target.clone(), auth.clone()));
    let authorized = how
        .token
        .as_ref()
        .is_none_or(|t| auth.as_deref() == Some(&format!("Bearer {t}")));
    let (status, headers, body) = route(&target, files, how, authorized);
    let mut out = stream;
    let mut head = format!(
        "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    let _ = out.write_all(head.as_bytes());
    let stalls = how
        .stall
        .as_ref()
        .is_some_and(|p| target == format!("/cdn/{p}"));
    let body = if stalls {
        &body[..body.len() / 2]
    } else {
        &body[..]
    };
    for chunk in body.chunks(64 * 1024) {
        if out.write_all(chunk).is_err() {
            return;
        }
        sent.fetch_add(chunk.len() as u64, Ordering::Relaxed);
    }
    if stalls {
        let _ = out.flush();
        std::thread::sleep(Duration::from_secs(30));
    }
}

type Reply = (&'static str, Vec<(&'static str, String)>, Vec<u8>);

fn route(
    target: &str,
    files: &BTreeMap<String, HubFile>,
    how: &Behaviour,
    authorized: bool,
) -> Reply {
    let not_found = |code: &str| {
        (
            "404 Not Found",
            vec![("X-Error-Code", code.to_string())],
            Vec::new(),
        )
    };
    if let Some(rest) = target.strip_prefix("/api/datasets/") {
        let Some((repo, rest)) = rest.split_once("/revision/") else {
            return not_found("RepoNotFound");
        };
        if repo != REPO {
            return not_found("RepoNotFound");
        }
        if !authorized {
            return (
                "401 Unauthorized",
                vec![("X-Error-Code", "RepoNotFound".into())],
                Vec::new(),
            );
        }
        if rest != format!("{REVISION}?blobs=true") {
            return not_found("RevisionNotFound");
        }
        let siblings: Vec<serde_json::Value> = files
            .iter()
            .map(|(path, f)| {
                let mut s =
                    serde_json::json!({"rfilename": path, "size": f.bytes.len(), "blobId": "0"});
                if f.lfs {
                    s["lfs"] = serde_json::json!({
                        "sha256": sha256_hex(&f.bytes), "size": f.bytes.len(), "pointerSize": 134
                    });
                }
                if let Some(edit) = how.edit_listing {
                    edit(&mut s);
                }
                s
            })
            .collect();
        let info = serde_json::json!({"id": REPO, "sha": COMMIT, "siblings": siblings});
        return ("200 OK", Vec::new(), info.to_string().into_bytes());
    }
    let resolve = format!("/datasets/{REPO}/resolve/{COMMIT}/");
    if let Some(path) = target.strip_prefix(&resolve) {
        let path = percent_decode(path);
        return match files.get(&path) {
            _ if !authorized => ("401 Unauthorized", Vec::new(), Vec::new()),
            Some(f) if f.lfs => (
                "302 Found",
                vec![("Location", format!("/cdn/{path}"))],
                Vec::new(),
            ),
            Some(f) => ("200 OK", Vec::new(), f.bytes.clone()),
            None => not_found("EntryNotFound"),
        };
    }
    if let Some(path) = target.strip_prefix("/cdn/") {
        let path = percent_decode(path);
        if let Some((p, bytes)) = &how.corrupt {
            if *p == path {
                return ("200 OK", Vec::new(), bytes.clone());
            }
        }
        if let Some(f) = files.get(&path) {
            return ("200 OK", Vec::new(), f.bytes.clone());
        }
    }
    not_found("EntryNotFound")
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            out.push(u8::from_str_radix(&s[i + 1..i + 3], 16).unwrap());
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

fn fetch(hub: &FakeHub, out: &Path, token: Option<&str>) -> Result<FetchReport> {
    fetch_hf(REPO, REVISION, out, &hub.endpoint, token, false)
}

/// Every file under `dir`, relative, sorted.
fn local_files(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path.strip_prefix(dir).unwrap().to_str().unwrap();
                out.push(rel.replace('\\', "/"));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn fetched_repo_reads_like_the_fixture() {
    let hub = FakeHub::start(fixture_files(), Behaviour::default());
    let out = tempfile::tempdir().unwrap();
    let report = fetch(&hub, out.path(), None).unwrap();
    assert_eq!(report.commit, COMMIT);
    let expected: Vec<String> = fixture_files().into_keys().collect();
    let got: Vec<&str> = report.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(got, expected);
    assert!(report.files.iter().all(|f| f.downloaded));
    assert_eq!(local_files(out.path()), expected);
    for f in &report.files {
        let local = std::fs::read(out.path().join(&f.path)).unwrap();
        assert_eq!(
            local,
            std::fs::read(fixture_dir().join(&f.path)).unwrap(),
            "{}",
            f.path
        );
        assert_eq!(f.size, local.len() as u64);
    }

    let fetched = read_gbr(out.path()).unwrap();
    let original = read_gbr(&fixture_dir()).unwrap();
    assert_eq!(fetched.articles, original.articles);
    assert_eq!(fetched.queries, original.queries);
    assert_eq!(fetched.judgments, original.judgments);
    assert_eq!(fetched.files, original.files);
}

#[test]
fn files_present_with_the_right_size_are_not_fetched_again() {
    let hub = FakeHub::start(fixture_files(), Behaviour::default());
    let out = tempfile::tempdir().unwrap();
    fetch(&hub, out.path(), None).unwrap();
    let first = hub.downloads();
    assert_eq!(first, fixture_files().len());

    let again = fetch(&hub, out.path(), None).unwrap();
    assert!(again.files.iter().all(|f| !f.downloaded));
    assert_eq!(hub.downloads(), first);

    let damaged = "queries/test-00000-of-00001.parquet";
    std::fs::write(out.path().join(damaged), b"short").unwrap();
    let repaired = fetch(&hub, out.path(), None).unwrap();
    let refetched: Vec<&str> = repaired
        .files
        .iter()
        .filter(|f| f.downloaded)
        .map(|f| f.path.as_str())
        .collect();
    assert_eq!(refetched, [damaged]);
    assert_eq!(
        std::fs::read(out.path().join(damaged)).unwrap(),
        std::fs::read(fixture_dir().join(damaged)).unwrap()
    );
}

#[test]
fn the_token_goes_to_the_hub_but_not_through_redirects() {
    let hub = FakeHub::start(
        fixture_files(),
        Behaviour {
            token: Some("hf_secret".into()),
            ..Behaviour::default()
        },
    );
    let out = tempfile::tempdir().unwrap();
    let err = fetch(&hub, out.path(), None).unwrap_err();
    assert!(err.to_string().contains("not found (HTTP 401)"), "{err}");
    assert!(err.to_string().contains("set HF_TOKEN"), "{err}");
    assert_eq!(exit_code(&err), 2);

    fetch(&hub, out.path(), Some("hf_secret")).unwrap();
    let bearer = Some("Bearer hf_secret".to_string());
    for (path, auth) in hub.requests().iter().skip(1) {
        if path.starts_with("/cdn/") {
            assert_eq!(*auth, None, "{path}");
        } else {
            assert_eq!(*auth, bearer, "{path}");
        }
    }
}

#[test]
fn wrong_names_and_unreachable_hubs_explain_themselves() {
    let hub = FakeHub::start(fixture_files(), Behaviour::default());
    let out = tempfile::tempdir().unwrap();
    let err = fetch_hf(
        "nobody/nothing",
        REVISION,
        out.path(),
        &hub.endpoint,
        None,
        false,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "dataset repository `nobody/nothing` not found (HTTP 404); if it is private or gated, set HF_TOKEN"
    );
    assert_eq!(exit_code(&err), 2);
    let err = fetch_hf(REPO, "v9.9", out.path(), &hub.endpoint, None, false).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("revision `v9.9` not found in dataset `{REPO}` (HTTP 404)")
    );
    let err = fetch_hf(
        "not a repo",
        REVISION,
        out.path(),
        &hub.endpoint,
        None,
        false,
    )
    .unwrap_err();
    assert!(err.to_string().contains("not a hub repository id"), "{err}");

    let closed = {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", listener.local_addr().unwrap())
    };
    let err = fetch_hf(REPO, REVISION, out.path(), &closed, None, false).unwrap_err();
    assert!(
        err.to_string()
            .starts_with(&format!("cannot reach {closed} (")),
        "{err}"
    );
    assert_eq!(exit_code(&err), 1);
    assert!(local_files(out.path()).is_empty());
}

#[test]
fn a_corrupt_download_is_refused_and_leaves_nothing_behind() {
    let victim = "corpus/test-00001-of-00002.parquet";
    let mut bytes = std::fs::read(fixture_dir().join(victim)).unwrap();
    bytes[100] ^= 0xff;
    let hub = FakeHub::start(
        fixture_files(),
        Behaviour {
            corrupt: Some((victim.into(), bytes)),
            ..Behaviour::default()
        },
    );
    let out = tempfile::tempdir().unwrap();
    let err = fetch(&hub, out.path(), None).unwrap_err().to_string();
    assert!(err.starts_with(&format!("{victim}: SHA-256 ")), "{err}");
    assert!(!local_files(out.path())
        .iter()
        .any(|f| f.contains("00001-of-00002")));
}

#[test]
fn paths_that_would_escape_the_output_are_refused() {
    let mut files = BTreeMap::new();
    files.insert(
        "../escape.txt".to_string(),
        HubFile {
            bytes: b"x".to_vec(),
            lfs: false,
        },
    );
    let hub = FakeHub::start(files, Behaviour::default());
    let parent = tempfile::tempdir().unwrap();
    let out = parent.path().join("out");
    let err = fetch(&hub, &out, None).unwrap_err().to_string();
    assert_eq!(
        err,
        "refusing unsafe file path `../escape.txt` from the hub"
    );
    assert_eq!(local_files(parent.path()), Vec::<String>::new());
}

#[test]
fn safe_relative_accepts_only_plain_segments() {
    assert_eq!(
        download::safe_relative("a/b.parquet").unwrap(),
        Path::new("a/b.parquet")
    );
    for bad in [
        "",
        "/etc/passwd",
        "a//b",
        "a/./b",
        "a/../b",
        "..",
        "C:/x",
        "a\\b",
        "a/",
    ] {
        assert!(download::safe_relative(bad).is_err(), "{bad}");
    }
}

#[test]
fn present_files_are_checked_against_the_lfs_hash() {
    let hub = FakeHub::start(fixture_files(), Behaviour::default());
    let out = tempfile::tempdir().unwrap();
    fetch(&hub, out.path(), None).unwrap();
    // Same size, one byte changed: only the hash can tell.
    let damaged = "qrels/test-00000-of-00001.parquet";
    let mut bytes = std::fs::read(out.path().join(damaged)).unwrap();
    bytes[200] ^= 1;
    std::fs::write(out.path().join(damaged), &bytes).unwrap();
    let again = fetch(&hub, out.path(), None).unwrap();
    let refetched: Vec<&str> = again
        .files
        .iter()
        .filter(|f| f.downloaded)
        .map(|f| f.path.as_str())
        .collect();
    assert_eq!(refetched, [damaged]);
    assert_eq!(
        std::fs::read(out.path().join(damaged)).unwrap(),
        std::fs::read(fixture_dir().join(damaged)).unwrap()
    );
}

#[test]
fn a_body_longer_than_listed_is_cut_off_while_streaming() {
    let victim = "queries/test-00000-of-00001.parquet";
    let mut bytes = std::fs::read(fixture_dir().join(victim)).unwrap();
    let listed = bytes.len();
    bytes.resize(listed + (64 << 20), b'x');
    let hub = FakeHub::start(
        fixture_files(),
        Behaviour {
            corrupt: Some((victim.into(), bytes)),
            ..Behaviour::default()
        },
    );
    let out = tempfile::tempdir().unwrap();
    let err = fetch(&hub, out.path(), None).unwrap_err().to_string();
    assert_eq!(
        err,
        format!("{victim}: the server sent more than the {listed} bytes the hub listed")
    );
    // The client hung up after a byte too many: the server could only fill
    // the socket buffers, far short of the 64 MiB it tried to send.
    let sent = hub.sent.load(Ordering::Relaxed);
    assert!(sent < 32 << 20, "{sent} bytes were sent");
    assert!(!local_files(out.path())
        .iter()
        .any(|f| f.contains("queries")));
}

#[test]
fn a_stalled_body_times_out() {
    let victim = "corpus/test-00000-of-00002.parquet";
    let hub = FakeHub::start(
        fixture_files(),
        Behaviour {
            stall: Some(victim.into()),
            ..Behaviour::default()
        },
    );
    let out = tempfile::tempdir().unwrap();
    let client = Hub::new(&hub.endpoint, None, Duration::from_secs(1)).unwrap();
    let start = Instant::now();
    let err = fetch_from(&client, REPO, REVISION, out.path(), false).unwrap_err();
    // The server holds the connection open for 30 s.
    assert!(start.elapsed() < Duration::from_secs(15), "{err:#}");
    assert!(
        format!("{err:#}").ends_with(&format!("{victim}: the server sent nothing for 1 s")),
        "{err:#}"
    );
    assert!(!local_files(out.path())
        .iter()
        .any(|f| f.contains("00000-of-00002")));
}

#[test]
fn a_path_listed_as_file_and_folder_is_refused_before_any_download() {
    let mut files = BTreeMap::new();
    for path in ["a", "a/b"] {
        let bytes = path.as_bytes().to_vec();
        files.insert(path.to_string(), HubFile { bytes, lfs: false });
    }
    let hub = FakeHub::start(files, Behaviour::default());
    let out = tempfile::tempdir().unwrap();
    let err = fetch(&hub, out.path(), None).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the hub lists `a` both as a file and as a folder (of `a/b`)"
    );
    assert_eq!(exit_code(&err), 2);
    assert_eq!(hub.downloads(), 0);
    assert!(local_files(out.path()).is_empty());
}

#[test]
fn a_listing_without_sizes_is_refused_unless_lfs_gives_them() {
    let null_size: fn(&mut serde_json::Value) = |f| f["size"] = serde_json::Value::Null;
    // The Parquet shards are LFS files: their `lfs.size` stands in.
    let out = tempfile::tempdir().unwrap();
    let hub = FakeHub::start(
        fixture_files(),
        Behaviour {
            edit_listing: Some(|f| {
                if f.get("lfs").is_some() {
                    f["size"] = serde_json::Value::Null;
                }
            }),
            ..Behaviour::default()
        },
    );
    let report = fetch(&hub, out.path(), None).unwrap();
    assert_eq!(report.files.len(), fixture_files().len());

    // README.md is not: nothing would bound its download.
    let out = tempfile::tempdir().unwrap();
    let hub = FakeHub::start(
        fixture_files(),
        Behaviour {
            edit_listing: Some(null_size),
            ..Behaviour::default()
        },
    );
    let err = fetch(&hub, out.path(), None).unwrap_err().to_string();
    assert!(
        err.ends_with("unexpected file list: no size for `README.md`"),
        "{err}"
    );
    assert_eq!(hub.downloads(), 0);
}
