//! Ranking a blob's augmented field: on the CRAwLeR-format sample, BM25
//! on the text, then the field picker switched to augmented, ranks as
//! `nomos search --field augmented` on the served blob; the link says
//! `field=augmented` and restores it in a fresh browser; and Evaluate's
//! Context card then says what `nomos eval --field augmented --context`
//! prints.
//!
//! Hooks: the picker `select#field`, the Search status line's `.timing`
//! (`bm25 on augmented: …`), and the Context card's `.context-summary`.

use anyhow::{ensure, Result};
use fantoccini::Locator;
use nomos_e2e::app::{finish, App, Row};
use nomos_e2e::paths::{dist_dir, served_blob};
use nomos_e2e::server::StaticServer;
use nomos_e2e::{cli, one_at_a_time};
use serde_json::{json, Value};

const FILE: &str = "da-crawler-sample.blob";
/// The sample's first query (gold `forvaltningsloven_§4_stk1`): its top
/// ten differ between the fields.
const QUERY: &str = "Hvornår må en inhabil sagsbehandler alligevel blive på sagen, \
                     fordi det er umuligt at finde en anden til at overtage den?";
const DEPTH: usize = 10;

#[tokio::test]
async fn the_field_picker_ranks_the_augmented_texts_as_the_cli_does() -> Result<()> {
    let _turn = one_at_a_time().await;
    let server = StaticServer::start(&dist_dir()?)?;
    let blob = served_blob(FILE)?;
    let app = App::open(&server.url()).await?;
    let outcome = async {
        app.choose_pool(FILE).await?;
        app.choose_method("bm25").await?;
        let text = top(&app.search(QUERY).await?);
        ensure!(
            text == expected(&blob, "text")?,
            "the text field's top {DEPTH} differ from the CLI's: {text:?}"
        );
        choose_field(&app, "augmented").await?;
        wait_for_timing(&app, "bm25 on augmented:").await?;
        let augmented = top(&app.results(QUERY).await?);
        let native = expected(&blob, "augmented")?;
        ensure!(
            augmented == native,
            "the augmented field's top {DEPTH} differ from the CLI's\n\
             app: {augmented:?}\ncli: {native:?}"
        );
        ensure!(augmented != text, "both fields rank alike: {text:?}");

        let link = app.client().current_url().await?.to_string();
        ensure!(
            link.contains("field=augmented"),
            "the link does not say the field: {link}"
        );
        Ok(link)
    }
    .await;
    let link = match outcome {
        Ok(link) => {
            finish(app, Ok(())).await?;
            link
        }
        Err(e) => return finish(app, Err(e)).await,
    };

    // A fresh browser restores the field from the link, then evaluates it.
    let app = App::start(&link).await?;
    let outcome = async {
        app.wait_for_pool(FILE).await?;
        wait_for_timing(&app, "bm25 on augmented:").await?;
        let restored = top(&app.results(QUERY).await?);
        ensure!(
            restored == expected(&blob, "augmented")?,
            "the link did not restore the augmented ranking: {restored:?}"
        );
        let field = app
            .client()
            .execute(
                "return document.getElementById('field')?.value ?? null;",
                vec![],
            )
            .await?;
        ensure!(field == json!("augmented"), "the picker shows {field}");

        app.client()
            .find(Locator::XPath(
                "//nav[contains(@class,'tabs')]//button[normalize-space(.)='Evaluate']",
            ))
            .await?
            .click()
            .await?;
        app.wait_for_evaluate(FILE).await?;
        app.client()
            .find(Locator::Css("[data-testid=run-evaluation]"))
            .await?
            .click()
            .await?;
        let dir = tempfile::tempdir()?;
        let native = cli::eval_context(&blob, "augmented", dir.path())?;
        let on_text = cli::eval_context(&blob, "text", dir.path())?;
        ensure!(
            native != on_text,
            "both fields' context summaries are {native:?}"
        );
        let shown = app
            .poll(
                "the Context card",
                "return document.querySelector('.context-summary')?.textContent || null;",
                vec![],
            )
            .await?;
        ensure!(
            shown == Value::String(format!("{native}.")),
            "the Context card says {shown}, nomos eval --field augmented --context {native:?}"
        );
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

/// The top rows' ids and scores as the app shows them.
fn top(rows: &[Row]) -> Vec<(String, String)> {
    rows.iter()
        .take(DEPTH)
        .map(|r| (r.id.clone(), r.score.clone()))
        .collect()
}

/// `nomos search --field <field>`'s top rows, scores as the app rounds them.
fn expected(blob: &std::path::Path, field: &str) -> Result<Vec<(String, String)>> {
    let hits = cli::search_field(blob, QUERY, DEPTH, field)?;
    ensure!(
        hits.len() == DEPTH,
        "the CLI found fewer than {DEPTH} results"
    );
    Ok(hits
        .into_iter()
        .map(|h| (h.id, format!("{:.2}", h.score)))
        .collect())
}

/// Chooses a field in the method panel's picker.
async fn choose_field(app: &App, field: &str) -> Result<()> {
    let script = "const [field] = arguments;
        const select = document.getElementById('field');
        if (!select) return false;
        select.value = field;
        select.dispatchEvent(new Event('change', { bubbles: true }));
        return true;";
    let chosen = app.client().execute(script, vec![json!(field)]).await?;
    ensure!(chosen == json!(true), "no field picker for {FILE}");
    Ok(())
}

/// Waits until the Search status line's timing starts with `prefix`.
async fn wait_for_timing(app: &App, prefix: &str) -> Result<()> {
    let script = "const [prefix] = arguments;
        const t = document.querySelector('.status .timing')?.textContent ?? '';
        return t.startsWith(prefix) ? true : null;";
    app.poll(
        &format!("the status line to say {prefix:?}"),
        script,
        vec![json!(prefix)],
    )
    .await
    .map(drop)
}
