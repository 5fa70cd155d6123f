//! Your own judgments make a test collection of a pool without a
//! benchmark: on the Greek Constitution, five results are judged (by
//! click and by key), exported as TREC qrels and BEIR queries.jsonl,
//! forgotten, imported back, and evaluated with "my judgments"; the means
//! equal `nomos eval --queries --qrels` on the exported files.
//!
//! Hooks: `.judging-toggle` turns judging mode on; then each result's `li`
//! holds `.judge-relevant`, `.judge-not` and `.judge-clear` buttons
//! (`aria-pressed` shows the mark); R, N and X on a focused result; the "My judgments (N)" button opens the dialog with
//! its export buttons and `[data-testid=judgments-import]`.

use std::process::Command;
use std::time::Duration;

use anyhow::{ensure, Context, Result};
use fantoccini::Locator;
use nomos_e2e::app::{finish, App};
use nomos_e2e::paths::{dist_dir, nomos_cli, served_blob};
use nomos_e2e::server::StaticServer;
use nomos_e2e::{cli, one_at_a_time};
use serde_json::json;

const POOL: &str = "el-syntagma.blob";

use crate::evaluate::run_evaluation;

#[tokio::test]
async fn judged_results_export_import_and_evaluate_as_the_cli() -> Result<()> {
    let _turn = one_at_a_time().await;
    let server = StaticServer::start(&dist_dir()?)?;
    let app = App::open(&server.url()).await?;
    let dir = tempfile::tempdir()?;
    let outcome = async {
        app.choose_pool(POOL).await?;
        // nomos eval without --model ranks with BM25.
        app.choose_method("bm25").await?;
        let first = app.search("ελευθερία του τύπου").await?;
        ensure!(first.len() >= 2, "too few results: {first:?}");
        // The buttons clutter a reader's list: they come with judging mode.
        let buttons = "return Array.from(document.querySelectorAll('ol.results .judge-button'))
            .filter(b => b.offsetParent !== null).length;";
        let shown = app.client().execute(buttons, vec![]).await?;
        ensure!(shown == json!(0), "{shown} judging buttons before judging mode");
        app.client()
            .find(Locator::Css(".judging-toggle"))
            .await?
            .click()
            .await?;
        app.poll(
            "the judging buttons",
            "return Array.from(document.querySelectorAll('ol.results .judge-button'))
                .some(b => b.offsetParent !== null) ? true : null;",
            vec![],
        )
        .await?;
        press(&app, 0, "judge-relevant").await?;
        press(&app, 1, "judge-not").await?;
        let second = app.search("μορφή του πολιτεύματος").await?;
        ensure!(second.len() >= 3, "too few results: {second:?}");
        press(&app, 0, "judge-relevant").await?;
        // A key can go astray if the list is re-rendered between focusing
        // a row and the key press (seen on a busy machine): the marks set
        // a grade (not toggle it), so the keys are sent again until shown.
        let marked = "const li = document.querySelectorAll('ol.results > li');
             const p = (i, c) => li[i]?.querySelector(c)?.getAttribute('aria-pressed');
             return p(1, '.judge-not') === 'true' && p(2, '.judge-relevant') === 'true' ? true : null;";
        let mut pressed = json!(null);
        for attempt in 0..3 {
            for (i, key) in [(1, "n"), (2, "r")] {
                app.client()
                    .find(Locator::Id(&format!("result-{i}")))
                    .await?
                    .send_keys(key)
                    .await?;
            }
            let wait = Duration::from_secs(if attempt == 2 { 45 } else { 10 });
            match app.poll_for("the keyboard's marks", marked, vec![], wait).await {
                Ok(shown) => {
                    pressed = shown;
                    break;
                }
                Err(e) if attempt == 2 => return Err(e),
                Err(_) => continue,
            }
        }
        ensure!(pressed == json!(true));
        wait_for_count(&app, 2).await?;

        let [qrels, queries] = export(&app).await?;
        ensure!(qrels.lines().count() == 5, "qrels: {qrels}");
        for (q, row, grade) in [
            (1, &first[0], 1),
            (1, &first[1], 0),
            (2, &second[0], 1),
            (2, &second[1], 0),
            (2, &second[2], 1),
        ] {
            let line = format!("my-{q} 0 {} {grade}", row.id);
            ensure!(qrels.lines().any(|l| l == line), "no {line:?} in the qrels: {qrels}");
        }
        ensure!(
            queries
                == "{\"_id\":\"my-1\",\"text\":\"ελευθερία του τύπου\"}\n\
                    {\"_id\":\"my-2\",\"text\":\"μορφή του πολιτεύματος\"}\n",
            "queries: {queries}"
        );
        let (q_path, r_path) = (dir.path().join("my-queries.jsonl"), dir.path().join("my-qrels.txt"));
        std::fs::write(&q_path, &queries)?;
        std::fs::write(&r_path, &qrels)?;

        // Forget, then import the two files back: the same judgments.
        click_text(&app, "Forget all").await?;
        wait_for_count(&app, 0).await?;
        let paths = format!("{}\n{}", r_path.display(), q_path.display());
        app.client()
            .find(Locator::Css("[data-testid=judgments-import]"))
            .await?
            .send_keys(&paths)
            .await?;
        wait_for_count(&app, 2).await?;
        let again = export(&app).await?;
        ensure!(again == [qrels.clone(), queries.clone()], "re-export differs: {again:?}");
        app.client()
            .execute("document.getElementById('my-judgments').close();", vec![])
            .await?;

        // Evaluate: the pool has no benchmark, so my judgments are used.
        run_evaluation(&app).await?;
        let shown = app
            .poll_for(
                "the metric means",
                "const rows = document.querySelectorAll('[data-testid=metric-means] tr[data-measure]');
                 if (rows.length === 0) return null;
                 return Object.fromEntries(Array.from(rows, r => [r.dataset.measure, r.dataset.value]));",
                vec![],
                Duration::from_secs(60),
            )
            .await?;
        let native = cli_means(&q_path, &r_path, dir.path())?;
        for (measure, want) in &native {
            let value: f64 = shown[measure]
                .as_str()
                .with_context(|| format!("no {measure} in the metric view: {shown}"))?
                .parse()?;
            ensure!(
                (value - want).abs() <= 1e-12,
                "{measure}: the app says {value}, nomos eval {want}"
            );
        }
        ensure!(native.iter().any(|(_, v)| *v > 0.0), "all means are 0: {native:?}");
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

/// Clicks a judgment button (`class`) of the `n`th result (0-based).
async fn press(app: &App, n: usize, class: &str) -> Result<()> {
    let xpath = format!(
        "(//ol[contains(@class,'results')]/li)[{}]//button[contains(@class,'{class}')]",
        n + 1
    );
    app.client()
        .find(Locator::XPath(&xpath))
        .await?
        .click()
        .await?;
    Ok(())
}

async fn click_text(app: &App, text: &str) -> Result<()> {
    let xpath = format!("//button[normalize-space(.)='{text}']");
    app.client()
        .find(Locator::XPath(&xpath))
        .await?
        .click()
        .await?;
    Ok(())
}

/// Waits until the "My judgments (N)" button counts `n` queries.
async fn wait_for_count(app: &App, n: usize) -> Result<()> {
    let script = "const [label] = arguments;
        return Array.from(document.querySelectorAll('.my-judgments-bar button'))
            .some(b => b.textContent.trim() === label) ? true : null;";
    app.poll(
        &format!("{n} judged queries"),
        script,
        vec![json!(format!("My judgments ({n})"))],
    )
    .await
    .map(drop)
}

/// Opens the dialog, clicks both exports and returns what would have been
/// downloaded (qrels, queries.jsonl).
async fn export(app: &App) -> Result<[String; 2]> {
    let client = app.client();
    app.catch_downloads().await?;
    client
        .execute(
            "const d = document.getElementById('my-judgments');
            if (!d.open) d.showModal();",
            vec![],
        )
        .await?;
    click_text(app, "Qrels (TREC)").await?;
    click_text(app, "Queries (JSONL)").await?;
    app.downloads()
        .await?
        .try_into()
        .map_err(|t: Vec<String>| anyhow::anyhow!("expected 2 exports, got {}", t.len()))
}

/// `nomos eval --queries --qrels` on the exported files: its means.
fn cli_means(
    queries: &std::path::Path,
    qrels: &std::path::Path,
    dir: &std::path::Path,
) -> Result<Vec<(String, f64)>> {
    let metrics_path = dir.join("metrics.json");
    let status = Command::new(nomos_cli()?)
        .arg("eval")
        .arg("--index")
        .arg(served_blob(POOL)?)
        .arg("--queries")
        .arg(queries)
        .arg("--qrels")
        .arg(qrels)
        .arg("--run")
        .arg(dir.join("run.trec"))
        .arg("--metrics")
        .arg(&metrics_path)
        .status()?;
    ensure!(status.success(), "nomos eval failed: {status}");
    let metrics = std::fs::read_to_string(metrics_path)?;
    cli::metrics_means(&metrics)
}
