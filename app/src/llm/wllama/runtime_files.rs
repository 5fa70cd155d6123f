//! The files of @wllama/wllama 3.13.0 (npm, pinned in package-lock.json)
//! that the site serves under [`DIR`] (app/index.html copies them), with
//! the size and SHA-256 the app accepts. The app checks every byte before
//! running them, and a test checks these against the installed package.

/// Where the site serves wllama's files.
pub const DIR: &str = "wllama/3.13.0/";

/// A file of the runtime as the app accepts it.
pub struct RuntimeFile {
    pub name: &'static str,
    pub bytes: u64,
    pub sha256: &'static str,
    /// The MIME type its `Blob` gets: a module imports only from a
    /// JavaScript type, and wasm streams only from `application/wasm`.
    pub mime: &'static str,
}

/// The ES module (`esm/index.min.js`): the `Wllama` class, with the
/// worker's code inside it. It imports nothing.
pub const SCRIPT: RuntimeFile = RuntimeFile {
    name: "index.min.js",
    bytes: 219_295,
    sha256: "e7f3745ee508c111c22d178d23c52cc74016dd8cec39e4600d87e28d287d7981",
    mime: "text/javascript",
};

/// llama.cpp (build b12211-7d7f028) in wasm64 (`esm/wasm/wllama.wasm`),
/// one build for one thread or several.
pub const WASM: RuntimeFile = RuntimeFile {
    name: "wllama.wasm",
    bytes: 10_244_628,
    sha256: "79ac5be917b71d50571a4f584436a9f6baf6b6e57719d094ed8bd950e9a65780",
    mime: "application/wasm",
};

/// Bytes the runtime adds to a first load.
pub const BYTES: u64 = SCRIPT.bytes + WASM.bytes;

#[cfg(test)]
mod tests {
    use std::path::Path;

    use nomos_core::digest::sha256_hex;

    use super::*;

    /// The constants are the installed package's files, and the page
    /// copies them where the app looks (`npm ci` by scripts/setup.sh).
    #[test]
    fn constants_match_the_installed_package() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let package = root.join("node_modules/@wllama/wllama");
        let read = |path: &str| {
            std::fs::read(package.join(path)).unwrap_or_else(|e| {
                panic!(
                    "{}: {e}; run scripts/setup.sh (npm ci) first",
                    package.join(path).display()
                )
            })
        };
        let manifest: serde_json::Value = serde_json::from_slice(&read("package.json")).unwrap();
        assert_eq!(
            format!("wllama/{}/", manifest["version"].as_str().unwrap()),
            DIR
        );
        for (file, path) in [
            (&SCRIPT, "esm/index.min.js"),
            (&WASM, "esm/wasm/wllama.wasm"),
        ] {
            let bytes = read(path);
            assert_eq!(bytes.len() as u64, file.bytes, "{path}");
            assert_eq!(sha256_hex(&bytes), file.sha256, "{path}");
            let html = std::fs::read_to_string(root.join("app/index.html")).unwrap();
            let copy = format!(
                "href=\"../node_modules/@wllama/wllama/{path}\" data-target-path=\"{}\"",
                DIR.trim_end_matches('/')
            );
            assert!(
                html.contains(&copy),
                "app/index.html does not copy {path} to {DIR}"
            );
        }
    }
}
