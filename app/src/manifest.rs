//! `indexes/manifest.json`, as `nomos manifest` writes it: the pools a
//! site serves, and where it serves each pool's embedding model. Pure
//! data and lookups; fetching it is the pools store's.

use serde::Deserialize;

/// Where the blobs and their manifest are served, relative to the page.
pub const INDEX_DIR: &str = "indexes/";

/// The manifest (fields the app does not use are ignored).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Manifest {
    pub indexes: Vec<ManifestEntry>,
}

/// One pool the site serves.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ManifestEntry {
    pub file: String,
    pub title: String,
    pub analyzer: String,
    pub docs: u64,
    pub queries: u64,
    pub bytes: u64,
    /// The blob's content hash (xxh3-128 of its sections, 32 hex digits,
    /// as its header records it): a loaded blob must have it, so that a
    /// stale copy (an old HTTP or service-worker cache) is noticed.
    pub content_hash: String,
    /// The document vectors' model, when the blob has them.
    #[serde(default)]
    pub dense: Option<DenseEntry>,
    #[serde(default)]
    pub notes: Vec<String>,
    /// `fragmented`: `file` is a fragmented pool's meta file
    /// (`DIR/meta`, fragments beside it, `nomos build --fragments` or
    /// `nomos fragment`), not a blob; its `content_hash` is the meta's.
    #[serde(default)]
    pub format: Option<String>,
}

/// A blob's vectors: their model, and where the site serves it (`path`
/// relative to the manifest; none when the site lacks it).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct DenseEntry {
    pub model: String,
    pub manifest_sha256: String,
    pub path: Option<String>,
    pub bytes: Option<u64>,
}

/// The site does not serve the model of a pool's vectors.
#[derive(Debug, Clone, PartialEq)]
pub struct Unserved {
    /// The model's id, as the pool's vectors record it.
    pub model: String,
}

impl std::fmt::Display for Unserved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "this site does not serve the model of the pool's vectors ({})",
            self.model
        )
    }
}

impl std::error::Error for Unserved {}

/// An index manifest that does not parse.
#[derive(Debug, Clone, PartialEq)]
pub struct ManifestError {
    pub url: String,
    /// serde's message.
    pub message: String,
}

impl std::fmt::Display for ManifestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} is not a valid index manifest: {}",
            self.url, self.message
        )
    }
}

impl std::error::Error for ManifestError {}

/// Where a pool's model is served.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelSource {
    pub model: String,
    /// The directory's URL relative to the page, ending in `/`.
    pub dir: String,
    /// SHA-256 of its `manifest.json`, as the pool's vectors record it.
    pub manifest_sha256: String,
    /// The manifest and the files it lists.
    pub bytes: u64,
}

impl Manifest {
    /// Reads the manifest's JSON; `url` is for the message.
    pub fn from_json(bytes: &[u8], url: &str) -> Result<Manifest, ManifestError> {
        serde_json::from_slice(bytes).map_err(|e| ManifestError {
            url: url.to_owned(),
            message: e.to_string(),
        })
    }

    /// The entry named `file`.
    pub fn entry(&self, file: &str) -> Option<&ManifestEntry> {
        self.indexes.iter().find(|e| e.file == file)
    }

    /// Where the site serves the model `id` whose manifest hashes to
    /// `manifest_hash` (any entry with vectors from it will do, so a blob
    /// opened from disk, or a fragmented pool's lists, find it too).
    pub fn model_source(&self, id: &str, manifest_hash: &str) -> Result<ModelSource, Unserved> {
        self.indexes
            .iter()
            .find_map(|e| {
                let dense = e.dense.as_ref()?;
                let dir = relative_dir(dense.path.as_deref()?)?;
                (dense.manifest_sha256 == manifest_hash).then(|| ModelSource {
                    model: dense.model.clone(),
                    dir: format!("{INDEX_DIR}{dir}"),
                    manifest_sha256: dense.manifest_sha256.clone(),
                    bytes: dense.bytes.unwrap_or(0),
                })
            })
            .ok_or_else(|| Unserved {
                model: id.to_owned(),
            })
    }
}

impl ManifestEntry {
    /// The blob's URL relative to the page: its name escaped as
    /// `encodeURIComponent` does (`a&b c.blob` → `a%26b%20c.blob`), which
    /// the service worker's cache keys use too.
    pub fn url(&self) -> String {
        const KEPT: &[u8] = b"-_.!~*'()";
        let mut url = INDEX_DIR.to_owned();
        for b in self.file.bytes() {
            match b.is_ascii_alphanumeric() || KEPT.contains(&b) {
                true => url.push(char::from(b)),
                false => url.push_str(&format!("%{b:02X}")),
            }
        }
        url
    }

    /// The directory of a fragmented pool's meta file and fragments,
    /// relative to the page and ending in `/`; `None` for a blob (or a
    /// `file` that is not `DIR/meta` with a plain relative `DIR`).
    pub fn fragments_dir(&self) -> Option<String> {
        let dir = self.file.strip_suffix("/meta")?;
        let plain = !dir.is_empty()
            && dir.split('/').all(|p| {
                !p.is_empty()
                    && p != ".."
                    && p != "."
                    && p.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
            });
        (self.format.as_deref() == Some("fragmented") && plain)
            .then(|| format!("{INDEX_DIR}{dir}/"))
    }

    /// Whether a loaded blob whose header records `content_hash` (as
    /// `Engine::content_hash` writes it) is the one listed.
    pub fn is_listed_content(&self, content_hash: &str) -> bool {
        self.content_hash.eq_ignore_ascii_case(content_hash)
    }
}

/// `path` if it is a relative directory path on this site (the manifest
/// is data, and a model is code to run: no scheme, host or absolute path,
/// and no `..` above the app's directory, which on a shared origin is
/// another site's), ending in `/`. Relative to `indexes/`.
fn relative_dir(path: &str) -> Option<String> {
    let mut depth = 1usize;
    let inside = path.split('/').all(|part| match part {
        "" | "." => true,
        ".." => depth.checked_sub(1).map(|d| depth = d).is_some(),
        _ => {
            depth += 1;
            true
        }
    });
    let ok = inside
        && !path.is_empty()
        && !path.starts_with('/')
        && !path.contains(['\\', ':', '?', '#', '%']);
    ok.then(|| match path.ends_with('/') {
        true => path.to_owned(),
        false => format!("{path}/"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(path: Option<&str>) -> Manifest {
        let dense = path.map_or("null".to_owned(), |p| format!("{p:?}"));
        let json = format!(
            r#"{{"indexes": [{{"file": "a.blob", "title": "A", "analyzer": "da", "docs": 2,
                "queries": 0, "bytes": 10, "extra": 1, "content_hash": "0A1b",
                "dense": {{"model": "e5", "manifest_sha256": "ab", "path": {dense}, "bytes": 5}}}}]}}"#
        );
        Manifest::from_json(json.as_bytes(), "m.json").unwrap()
    }

    #[test]
    fn a_served_model_resolves_under_the_index_dir() {
        let m = manifest(Some("../models/e5"));
        assert_eq!(m.entry("a.blob").map(|e| e.docs), Some(2));
        assert!(m.entry("b.blob").is_none());
        assert_eq!(
            m.model_source("e5", "ab"),
            Ok(ModelSource {
                model: "e5".into(),
                dir: "indexes/../models/e5/".into(),
                manifest_sha256: "ab".into(),
                bytes: 5,
            })
        );
        assert_eq!(
            m.model_source("e5", "cd"),
            Err(Unserved { model: "e5".into() })
        );
    }

    #[test]
    fn a_blob_url_escapes_its_name_and_its_content_is_checked() {
        let mut entry = manifest(None).indexes.remove(0);
        assert_eq!(entry.url(), "indexes/a.blob");
        entry.file = "a&b+c d#é.blob".into();
        assert_eq!(entry.url(), "indexes/a%26b%2Bc%20d%23%C3%A9.blob");
        assert!(entry.is_listed_content("0a1B"));
        assert!(!entry.is_listed_content("0a1c"));
    }

    #[test]
    fn a_fragmented_entry_names_its_directory() {
        let mut entry = manifest(None).indexes.remove(0);
        assert_eq!(entry.fragments_dir(), None);
        entry.file = "synth/meta".into();
        assert_eq!(entry.fragments_dir(), None, "not marked fragmented");
        entry.format = Some("fragmented".into());
        assert_eq!(entry.fragments_dir().as_deref(), Some("indexes/synth/"));
        for bad in [
            "../x/meta",
            "/meta",
            "a b/meta",
            "x/../meta",
            "x?/meta",
            "meta",
        ] {
            entry.file = bad.into();
            assert_eq!(entry.fragments_dir(), None, "{bad}");
        }
    }

    #[test]
    fn an_entry_without_a_content_hash_is_refused() {
        let json = r#"{"indexes": [{"file": "a.blob", "title": "A", "analyzer": "da",
            "docs": 2, "queries": 0, "bytes": 10}]}"#;
        let e = Manifest::from_json(json.as_bytes(), "m.json")
            .unwrap_err()
            .to_string();
        assert!(e.contains("content_hash"), "{e}");
    }

    #[test]
    fn only_relative_paths_on_this_site_are_followed() {
        for bad in [
            "/abs",
            "https://x.org/m",
            "a\\b",
            "a?b",
            "a#b",
            "%2e%2e",
            "",
            "../../other-site/models/e5",
            "../models/../../e5",
        ] {
            assert_eq!(
                manifest(Some(bad)).model_source("e5", "ab"),
                Err(Unserved { model: "e5".into() }),
                "{bad}"
            );
        }
        assert_eq!(
            manifest(None).model_source("e5", "ab"),
            Err(Unserved { model: "e5".into() })
        );
        assert!(Manifest::from_json(b"{", "m.json")
            .unwrap_err()
            .to_string()
            .starts_with("m.json is not a valid index manifest: "));
    }
}
