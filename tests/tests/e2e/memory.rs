//! Memory and size caps. What loading the Danish acts costs the page: the
//! app's WebAssembly memory (which never shrinks, so it is the load's
//! peak) and the JS heap; BENCHMARKS.md reports them (`cargo test -p
//! nomos-e2e --test e2e memory -- --nocapture`). And "Open blob…" refusing
//! an empty file, a 2 GiB file and a blob of another format version, each
//! with a clear message and without reading it whole; the page goes on
//! searching after each.

use anyhow::{bail, ensure, Context, Result};
use nomos_core::blob::{BlobError, FORMAT_VERSION};
use nomos_e2e::app::{finish, App};
use nomos_e2e::one_at_a_time;
use nomos_e2e::paths::{dist_dir, served_blob};
use nomos_e2e::server::StaticServer;
use serde_json::Value;

use crate::search::DA_QUERY;

/// The app's WebAssembly memory and the JS heap, in bytes. The app's
/// module (wasm-bindgen's glue) hands out its instance again when asked
/// to start a second time.
async fn heap(app: &App) -> Result<(f64, f64)> {
    let script = "const done = arguments[arguments.length - 1];
        const glue = [...document.querySelectorAll('link[rel=modulepreload]')]
            .map(l => l.href).find(h => /\\/nomos-app-[0-9a-f]+\\.js$/.test(h));
        import(glue).then(m => m.default()).then(
            wasm => done({ wasm: wasm.memory.buffer.byteLength,
                           js: performance.memory.usedJSHeapSize }),
            e => done({ error: String(e) }));";
    let got: Value = app.client().execute_async(script, vec![]).await?;
    if let Some(error) = got["error"].as_str() {
        bail!("could not measure the heap: {error}");
    }
    let bytes = |k: &str| got[k].as_f64().with_context(|| format!("no {k} in {got}"));
    Ok((bytes("wasm")?, bytes("js")?))
}

fn mb(bytes: f64) -> String {
    format!("{:.1} MB", bytes / 1e6)
}

#[tokio::test]
async fn memory_after_loading_the_danish_acts() -> Result<()> {
    let _turn = one_at_a_time().await;
    let server = StaticServer::start(&dist_dir()?)?;
    // The manifest's first pool, loaded on start.
    let app = App::open(&server.url()).await?;
    let outcome = async {
        ensure!(!app.search(DA_QUERY).await?.is_empty(), "no results");
        let (wasm, js) = heap(&app).await?;
        let blob = std::fs::metadata(served_blob("da-acts.blob")?)?.len() as f64;
        println!(
            "memory after loading da-acts.blob ({}) and one search: WebAssembly memory {} \
             ({wasm} bytes), JS heap {} ({js} bytes)",
            mb(blob),
            mb(wasm),
            mb(js)
        );
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

#[tokio::test]
async fn open_blob_refuses_empty_huge_and_other_version_files() -> Result<()> {
    let _turn = one_at_a_time().await;
    let dir = tempfile::tempdir()?;
    let empty = dir.path().join("empty.blob");
    std::fs::write(&empty, b"")?;
    // Sparse: takes no disk space.
    let huge = dir.path().join("huge.blob");
    std::fs::File::create(&huge)?.set_len(2 << 30)?;
    // A real blob with the next format version, padded (sparse) to 100 MB
    // so that reading it whole would show in the page's memory.
    let other = dir.path().join("next-version.blob");
    let mut bytes = std::fs::read(served_blob("el-syntagma.blob")?)?;
    bytes[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    std::fs::write(&other, &bytes)?;
    std::fs::OpenOptions::new()
        .write(true)
        .open(&other)?
        .set_len(100_000_000)?;
    let version = BlobError::UnsupportedVersion {
        found: FORMAT_VERSION + 1,
        supported: FORMAT_VERSION,
    }
    .to_string();

    let server = StaticServer::start(&dist_dir()?)?;
    let app = App::open(&server.url()).await?;
    let outcome = async {
        let (before, _) = heap(&app).await?;
        // The Danish acts again after each: a pool with vectors would
        // fetch the embedding model into the memory measured.
        for (path, says) in [
            (
                &empty,
                "empty.blob cannot be opened: the file is empty".to_owned(),
            ),
            (
                &huge,
                "huge.blob cannot be opened: it is 2147.5 MB; the app opens blobs of at most \
                 250.0 MB"
                    .to_owned(),
            ),
            (
                &other,
                format!("next-version.blob cannot be opened: {version}"),
            ),
        ] {
            app.open_file(path).await?;
            let message = app.load_error().await?;
            ensure!(message == says, "the error {message:?} should be {says:?}");
            app.choose_pool("da-acts.blob").await?;
            ensure!(
                !app.search(DA_QUERY).await?.is_empty(),
                "no results after {says:?}"
            );
        }
        let (after, _) = heap(&app).await?;
        ensure!(
            after - before < 16e6,
            "the WebAssembly memory grew from {} to {}: a refused file was read",
            mb(before),
            mb(after)
        );
        Ok(())
    }
    .await;
    finish(app, outcome).await
}
