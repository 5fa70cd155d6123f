//! "Why this article?" takes the open article's BM25 score apart in the
//! browser: its shares add up, in query order, to the score the `nomos`
//! CLI gives the article natively, to the last bit. The same function
//! checks a blob and a fragmented pool (against `nomos search
//! --fragments`).

use anyhow::{ensure, Context, Result};
use nomos_core::blob::Blob;
use nomos_core::fragments::Meta;
use nomos_core::search::Bm25Variant;
use nomos_e2e::app::{finish, App};
use nomos_e2e::cli::{self, CliHit};
use nomos_e2e::one_at_a_time;
use nomos_e2e::paths::{dist_dir, served_blob};
use nomos_e2e::server::StaticServer;

use crate::fragmented_pool;
use crate::search::EL_QUERY;

#[tokio::test]
async fn the_explanation_adds_up_to_the_clis_score_on_a_blob_and_a_fragmented_pool() -> Result<()> {
    let _turn = one_at_a_time().await;
    let blob = served_blob("el-syntagma.blob")?;
    let blob_variant = Blob::load(&std::fs::read(&blob)?)?.bm25_params().variant;
    let dir = dist_dir()?.join(fragmented_pool::DIR);
    let cut_variant = Meta::load(&std::fs::read(dir.join("meta"))?)?
        .bm25_params()
        .variant;
    let server = StaticServer::start(&dist_dir()?)?;
    let app = App::open(&server.url()).await?;
    let outcome = async {
        app.choose_pool("el-syntagma.blob").await?;
        let best = cli::search(&blob, EL_QUERY, 1)?;
        explain_the_best(&app, EL_QUERY, best, blob_variant).await?;
        app.client()
            .execute(
                "document.querySelector('.article-pane .explain').scrollIntoView()",
                Vec::new(),
            )
            .await?;
        app.screenshot("explain-greek").await?;

        app.choose_pool(fragmented_pool::POOL).await?;
        let query = fragmented_pool::QUERY;
        let best = cli::search_fragments_bm25(&dir, query, 1)?;
        explain_the_best(&app, query, best, cut_variant).await
    }
    .await;
    finish(app, outcome).await
}

/// Searches `query` with BM25, opens the first result, which must be the
/// CLI's `best`, and checks that its explanation totals the CLI's score
/// to the bit, as the shares of at least two terms summed in query order
/// as `variant`'s reference sums them (okapi in f64, lucene in f32).
async fn explain_the_best(
    app: &App,
    query: &str,
    best: Vec<CliHit>,
    variant: Bm25Variant,
) -> Result<()> {
    let best = best.into_iter().next().context("the CLI found nothing")?;
    app.choose_method("bm25").await?;
    app.search(query).await?;
    let article = app.open_result(0).await?;
    ensure!(
        article.id == best.id,
        "the browser's best is {}, the CLI's {}",
        article.id,
        best.id
    );
    let explained = app.explain().await?;
    ensure!(
        explained.total.to_bits() == best.score.to_bits(),
        "explained score {} but the CLI scores {} {}",
        explained.total,
        best.id,
        best.score
    );
    let sum = explained
        .terms
        .iter()
        .fold(0.0, |acc, (_, c)| match variant {
            Bm25Variant::Okapi => acc + c,
            Bm25Variant::Lucene => f64::from(acc as f32 + *c as f32),
        });
    ensure!(
        sum.to_bits() == explained.total.to_bits(),
        "the shares {:?} add up to {sum}, not {}",
        explained.terms,
        explained.total
    );
    ensure!(
        explained.terms.iter().filter(|(_, c)| *c > 0.0).count() >= 2,
        "fewer than two terms explain the best match: {:?}",
        explained.terms
    );
    Ok(())
}
