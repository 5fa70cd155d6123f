//! Typing a query ranks the pool in the browser exactly as the `nomos`
//! CLI ranks it natively with BM25: same ids in the same order with the
//! same scores.

use anyhow::{ensure, Result};
use nomos_e2e::app::{finish, App, Row};
use nomos_e2e::paths::{dist_dir, served_blob};
use nomos_e2e::server::StaticServer;
use nomos_e2e::{cli, one_at_a_time};

/// The photographer's exclusive right to a photograph is § 70, stk. 1 of
/// the Danish copyright act (ophavsretsloven).
pub const DA_QUERY: &str = "ophavsret til fotografiske billeder";
pub const DA_EXPECTED: &str = "ophavsretsloven_§70_stk1";

/// Freedom of religious conscience is Article 13 of the Greek Constitution.
pub const EL_QUERY: &str = "ελευθερία της θρησκευτικής συνείδησης";
pub const EL_EXPECTED: &str = "Syntagma::13";

/// How many of the top results must agree with the CLI.
const PARITY_DEPTH: usize = 10;

#[tokio::test]
async fn danish_and_greek_queries_rank_as_the_cli_does() -> Result<()> {
    let _turn = one_at_a_time().await;
    let server = StaticServer::start(&dist_dir()?)?;
    let app = App::open(&server.url()).await?;
    let outcome = async {
        // The app opens the manifest's first pool, the Danish acts.
        let rows = search_like_cli(&app, "da-acts.blob", DA_QUERY).await?;
        expect_near_top(&rows, DA_EXPECTED)?;
        app.screenshot("search-danish").await?;

        app.choose_pool("el-syntagma.blob").await?;
        let rows = search_like_cli(&app, "el-syntagma.blob", EL_QUERY).await?;
        expect_near_top(&rows, EL_EXPECTED)?;
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

/// Searches in the app and checks its top results against `nomos search`
/// on the very blob the server sent.
async fn search_like_cli(app: &App, file: &str, query: &str) -> Result<Vec<Row>> {
    // Pools with vectors default to hybrid; the CLI without --model is BM25.
    app.choose_method("bm25").await?;
    let rows = app.search(query).await?;
    let native: Vec<(String, String)> = cli::search(&served_blob(file)?, query, PARITY_DEPTH)?
        .into_iter()
        .map(|h| (h.id, format!("{:.2}", h.score)))
        .collect();
    let shown: Vec<(String, String)> = rows
        .iter()
        .take(PARITY_DEPTH)
        .map(|r| (r.id.clone(), r.score.clone()))
        .collect();
    ensure!(
        native.len() == PARITY_DEPTH,
        "the CLI found fewer than {PARITY_DEPTH} results for {query:?}"
    );
    ensure!(
        shown == native,
        "{file}: the app's top {PARITY_DEPTH} for {query:?} differ from the CLI's\n\
         app: {shown:?}\ncli: {native:?}"
    );
    Ok(rows)
}

/// The expected article is among the first three results.
fn expect_near_top(rows: &[Row], expected: &str) -> Result<()> {
    let top: Vec<&str> = rows.iter().take(3).map(|r| r.id.as_str()).collect();
    ensure!(
        top.contains(&expected),
        "{expected} is not in the top 3: {top:?}"
    );
    Ok(())
}
