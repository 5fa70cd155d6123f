//! A damaged blob, downloaded or opened from disk, ends in a clear error
//! on the load line (the core's own diagnosis), and the app stays usable:
//! another pool loads and searches.

use anyhow::{ensure, Result};
use nomos_core::blob::Blob;
use nomos_e2e::app::{finish, App};
use nomos_e2e::one_at_a_time;
use nomos_e2e::paths::{dist_dir, served_blob};
use nomos_e2e::server::StaticServer;

use crate::search::{DA_QUERY, EL_QUERY};

const FILE: &str = "el-syntagma.blob";

#[tokio::test]
async fn corrupted_download_shows_an_error_and_the_app_goes_on() -> Result<()> {
    let _turn = one_at_a_time().await;
    served_blob(FILE)?; // says so if the built app lacks it
    let server = StaticServer::start(&dist_dir()?)?;
    let diagnosis = core_error(&server.damage(&format!("indexes/{FILE}"))?);
    let app = App::open(&server.url()).await?;
    let outcome = async {
        app.pick_pool(FILE).await?;
        let message = app.load_error().await?;
        let title = app.title(FILE)?;
        ensure!(
            message.contains(title) && message.contains(&diagnosis),
            "the error {message:?} should name {title:?} and say {diagnosis:?}"
        );
        app.screenshot("damaged-blob").await?;

        app.choose_pool("da-acts.blob").await?;
        ensure!(
            !app.search(DA_QUERY).await?.is_empty(),
            "no results after the error"
        );
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

#[tokio::test]
async fn truncated_file_from_disk_shows_an_error_and_the_app_goes_on() -> Result<()> {
    let _turn = one_at_a_time().await;
    let whole = std::fs::read(served_blob(FILE)?)?;
    let truncated = &whole[..whole.len() / 2];
    let diagnosis = core_error(truncated);
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("truncated-syntagma.blob");
    std::fs::write(&path, truncated)?;

    let server = StaticServer::start(&dist_dir()?)?;
    let app = App::open(&server.url()).await?;
    let outcome = async {
        app.open_file(&path).await?;
        let message = app.load_error().await?;
        ensure!(
            message.contains("truncated-syntagma.blob") && message.contains(&diagnosis),
            "the error {message:?} should name the file and say {diagnosis:?}"
        );

        app.choose_pool(FILE).await?;
        ensure!(
            !app.search(EL_QUERY).await?.is_empty(),
            "no results after the error"
        );
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

/// Why `nomos-core` rejects `bytes`: the app must show this.
fn core_error(bytes: &[u8]) -> String {
    match Blob::load(bytes) {
        Ok(_) => panic!("the damaged blob still loads; the test damages it wrongly"),
        Err(e) => e.to_string(),
    }
}
