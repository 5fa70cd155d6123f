//! Memory and size caps. What loading the Danish acts costs the page: the
//! app's WebAssembly memory (which never shrinks, so it is the load's
//! peak) and the JS heap; docs/benchmarks/ reports them (`cargo test -p
//! nomos-e2e --test e2e memory -- --nocapture`). That switching pools
//! frees the pool left. And "Open blob…" refusing
//! an empty file, a 2 GiB file and a blob of another format version, each
//! with a clear message and without reading it whole; the page goes on
//! searching after each.

use anyhow::{ensure, Result};
use nomos_core::blob::{BlobError, FORMAT_VERSION};
use nomos_e2e::app::{finish, App};
use nomos_e2e::one_at_a_time;
use nomos_e2e::paths::{dist_dir, served_blob};
use nomos_e2e::server::StaticServer;

use crate::search::DA_QUERY;

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
        let (wasm, js) = app.heap().await?;
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

/// Switching pools frees the one left: its engine, fragments and results
/// lived as long as the page before each pool's state got an owner of its
/// own (`app/src/pool/scope.rs`), about 9–11 MB a switch here. The memory
/// never shrinks and grows in steps as the allocator settles, so the check
/// is on many rounds after two to warm up.
#[tokio::test]
async fn switching_pools_frees_the_pool_left() -> Result<()> {
    const ROUNDS: usize = 8;
    const POOLS: [&str; 3] = ["el-nomothesia.blob", "synth-da-1e5/meta", "da-acts.blob"];
    let _turn = one_at_a_time().await;
    let server = StaticServer::start(&dist_dir()?)?;
    let app = App::open(&server.url()).await?;
    let outcome = async {
        ensure!(!app.search(DA_QUERY).await?.is_empty(), "no results");
        let mut warm = 0.0;
        for round in 0..ROUNDS {
            if round == 2 {
                warm = app.heap().await?.0;
            }
            for pool in POOLS {
                app.choose_pool(pool).await?;
                app.search(DA_QUERY).await?;
            }
        }
        let (after, _) = app.heap().await?;
        println!(
            "WebAssembly memory after {} switches: {} (after 6: {})",
            ROUNDS * POOLS.len(),
            mb(after),
            mb(warm)
        );
        // Keeping every pool left added 68 MB over these 18 switches
        // (32.6 to 100.3 MB); freeing them, 6 MB (21.2 to 27.1 MB).
        ensure!(
            after - warm < 20e6,
            "the WebAssembly memory grew from {} to {} over {} switches: pools left are kept",
            mb(warm),
            mb(after),
            (ROUNDS - 2) * POOLS.len()
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
        let (before, _) = app.heap().await?;
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
        let (after, _) = app.heap().await?;
        // Reading the smallest refused file would add 100 MB. Choosing the
        // Danish acts three times adds what the loads' peaks take (each
        // load's download and index, and its BM25 scorer's 2.2 MB of
        // precomputed contributions), which the memory, never shrinking,
        // keeps: 22 MB when every pool left was kept.
        ensure!(
            after - before < 50e6,
            "the WebAssembly memory grew from {} to {}: a refused file was read",
            mb(before),
            mb(after)
        );
        Ok(())
    }
    .await;
    finish(app, outcome).await
}
