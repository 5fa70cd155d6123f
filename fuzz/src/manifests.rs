//! The site's lists of what it serves: `indexes/manifest.json` (pools
//! and their models) and `transcripts/index.json`.

use nomos_app::manifest::Manifest;
use nomos_app::transcript_files::SiteIndex;

/// Both lists read from the bytes; every path a manifest gives stays
/// on the site (a pool under `indexes/`, a model's directory relative and
/// never climbing above the app with `..`: on a shared host, that is
/// another site's).
pub fn manifests(data: &[u8]) {
    if let Ok(manifest) = Manifest::from_json(data, "manifest.json") {
        for entry in &manifest.indexes {
            assert!(manifest.entry(&entry.file).is_some());
            let url = entry.url();
            assert!(
                url.starts_with("indexes/") && !url[8..].contains('/'),
                "{url}"
            );
            if let Some(dir) = entry.fragments_dir() {
                assert!(dir.starts_with("indexes/") && inside_site(&dir), "{dir}");
            }
            let _ = entry.is_listed_content(&entry.content_hash);
            if let Some(dense) = &entry.dense {
                if let Ok(source) = manifest.model_source(&dense.model, &dense.manifest_sha256) {
                    let dir = &source.dir;
                    assert!(!dir.contains(':') && inside_site(dir), "{dir}");
                }
            }
        }
    }
    if let Ok(index) = SiteIndex::from_json(data) {
        for entry in &index.transcripts {
            assert!(index.find(&entry.sha256).is_some());
        }
    }
}

/// Whether `path`, relative to the app's directory, stays in it.
fn inside_site(path: &str) -> bool {
    let mut depth = 0usize;
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return false,
            },
            _ => depth += 1,
        }
    }
    true
}
