//! "Why this article?" takes the open article's BM25 score apart in the
//! browser: its shares add up, in query order, to the score the `nomos`
//! CLI gives the article natively, to the last bit.

use anyhow::{ensure, Context, Result};
use nomos_e2e::app::{finish, App};
use nomos_e2e::paths::{dist_dir, served_blob};
use nomos_e2e::server::StaticServer;
use nomos_e2e::{cli, one_at_a_time};

use crate::search::EL_QUERY;

#[tokio::test]
async fn the_explanation_adds_up_to_the_clis_score() -> Result<()> {
    let _turn = one_at_a_time().await;
    let blob = served_blob("el-syntagma.blob")?;
    let server = StaticServer::start(&dist_dir()?)?;
    let app = App::open(&server.url()).await?;
    let outcome = async {
        app.choose_pool("el-syntagma.blob").await?;
        app.choose_method("bm25").await?;
        app.search(EL_QUERY).await?;
        let best = cli::search(&blob, EL_QUERY, 1)?
            .into_iter()
            .next()
            .context("the CLI found nothing")?;
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
        // Okapi sums the shares in f64 in query order, as the scorer does.
        let sum = explained.terms.iter().fold(0.0, |acc, (_, c)| acc + c);
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
        app.client()
            .execute(
                "document.querySelector('.article-pane .explain').scrollIntoView()",
                Vec::new(),
            )
            .await?;
        app.screenshot("explain-greek").await?;
        Ok(())
    }
    .await;
    finish(app, outcome).await
}
