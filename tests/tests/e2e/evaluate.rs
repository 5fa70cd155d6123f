//! The Evaluate view's means over STARD's 1,543 queries equal `nomos
//! eval`'s on the same blob, to 1e-12: the browser ranks to depth 100 with
//! zero-score fill and scores the run with core's trec_eval semantics, as
//! the CLI does.
//!
//! Hooks: the Evaluate tab (`nav.tabs button` "Evaluate"), the button that
//! runs every query (`[data-testid=run-evaluation]`), and the means table
//! `[data-testid=metric-means]` with one `tr[data-measure="<key>"]` per
//! key of `nomos eval --metrics` JSON, whose `data-value` is the mean at
//! full precision (Rust `{}` of the f64) while the cell shows it rounded.
//!
//! With hybrid search (RRF), the browser embeds STARD's queries itself
//! and the means equal `nomos eval --method rrf --model …` within 1e-4 (its
//! query embeddings agree with native ones to a cosine of 0.999999+, so
//! only a near-tie could swap; so far they have been identical).
//!
//! The exports match the CLI's files too: the metrics JSON byte for byte,
//! the TREC run line for line with the same scores to the last digit (the
//! browser takes the idf logarithms from the blob, which the builder
//! computed with the same `ln` as the references; the tag is the CLI's to
//! choose), and the CSV's summary row holds the same means.

use std::process::Command;
use std::time::Duration;

use anyhow::{ensure, Context, Result};
use fantoccini::Locator;
use nomos_e2e::app::{finish, App};
use nomos_e2e::paths::{dist_dir, model_dir, nomos_cli, query_cache, served_blob};
use nomos_e2e::server::StaticServer;
use nomos_e2e::{cli, one_at_a_time};
use serde_json::Value;

#[tokio::test]
async fn stard_metrics_equal_the_cli_eval() -> Result<()> {
    let _turn = one_at_a_time().await;
    let native = cli_eval("stard.blob")?;
    let server = StaticServer::start(&dist_dir()?)?;
    let app = App::open(&server.url()).await?;
    let outcome = async {
        app.choose_pool("stard.blob").await?;
        // STARD has vectors, so hybrid is the default; nomos eval without
        // --model ranks with BM25.
        app.choose_method("bm25").await?;
        run_evaluation(&app).await?;
        let shown = metric_means(&app, SHORT_JOB).await?;
        same_means(&shown, &native.means, 1e-12, "nomos eval")?;
        app.screenshot("stard-metrics").await?;

        let [run, metrics, csv] = exports(&app).await?;
        ensure!(
            metrics == native.metrics,
            "the exported metrics JSON differs from nomos eval's"
        );
        same_run(&run, &native.run)?;
        let summary = csv.lines().last().context("empty CSV export")?;
        let means: Vec<f64> = summary
            .strip_prefix("all,,")
            .with_context(|| format!("the CSV's last row is not the means: {summary}"))?
            .split(',')
            .map(str::parse)
            .collect::<Result<_, _>>()?;
        let expected: Vec<f64> = native.means.iter().map(|(_, v)| *v).collect();
        ensure!(
            means == expected,
            "CSV means {means:?}, nomos eval {expected:?}"
        );
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

#[tokio::test]
async fn stard_hybrid_metrics_match_the_cli_eval() -> Result<()> {
    let _turn = one_at_a_time().await;
    let model = model_dir()?;
    let cache = query_cache("stard")?;
    let native = cli_eval_with(
        "stard.blob",
        &[
            "--method",
            "rrf",
            "--model",
            &model.to_string_lossy(),
            "--embed-cache",
            &cache.to_string_lossy(),
        ],
    )?;
    let server = StaticServer::start(&dist_dir()?)?;
    let link = format!("{}#pool=stard.blob&rank=rrf", server.url());
    let app = App::open_at(&link, "stard.blob").await?;
    let outcome = async {
        run_evaluation(&app).await?;
        // The model's download and 1,543 query embeddings come first.
        let shown = metric_means(&app, LONG_JOB).await?;
        let worst = same_means(&shown, &native.means, 1e-4, "nomos eval --method rrf")?;
        println!("STARD rrf in the browser vs nomos eval: largest difference of a mean {worst:e}");
        app.screenshot("stard-hybrid-metrics").await?;

        // Compared with BM25 (B) on the same queries: B's means are nomos
        // eval's BM25 means, and the link says what B is.
        let bm25 = cli_eval("stard.blob")?;
        let chosen = app
            .client()
            .execute(
                "const select = document.getElementById('compare-method');
                select.value = 'bm25';
                select.dispatchEvent(new Event('change', { bubbles: true }));
                const button = Array.from(document.querySelectorAll('.compare-form button'))
                    .find(b => b.textContent.trim() === 'Compare');
                button.click();
                return true;",
                vec![],
            )
            .await?;
        ensure!(chosen == Value::Bool(true), "no compare form");
        let script = "const rows = document.querySelectorAll('[data-testid=metric-means] tr[data-measure]');
            const b = Array.from(rows, r => [r.dataset.measure, r.querySelector('td[data-value]')?.dataset.value]);
            return b.length && b.every(([, v]) => v) ? Object.fromEntries(b) : null;";
        let shown_b = app.poll_for("B's means", script, vec![], SHORT_JOB).await?;
        same_means(&shown_b, &bm25.means, 1e-12, "B vs nomos eval (bm25)")?;
        let link = app.client().current_url().await?;
        ensure!(
            link.fragment().is_some_and(|f| f.contains("rank=rrf") && f.contains("vsrank=bm25")),
            "the link does not say A and B: {link}"
        );
        app.screenshot("stard-compare-rrf-bm25").await?;
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

/// Opens the Evaluate view and runs every query with the current method.
pub(crate) async fn run_evaluation(app: &App) -> Result<()> {
    app.client()
        .find(Locator::XPath(
            "//nav[contains(@class,'tabs')]//button[normalize-space(.)='Evaluate']",
        ))
        .await?
        .click()
        .await?;
    app.client()
        .find(Locator::Css("[data-testid=run-evaluation]"))
        .await?
        .click()
        .await?;
    Ok(())
}

/// Every expected mean is shown within `tolerance`; returns the largest
/// difference. `against` names the expectation in messages.
fn same_means(
    shown: &Value,
    expected: &[(String, f64)],
    tolerance: f64,
    against: &str,
) -> Result<f64> {
    let mut worst = 0f64;
    for (measure, want) in expected {
        let value = mean_of(shown, measure)?;
        let diff = (value - want).abs();
        ensure!(
            diff <= tolerance,
            "{measure}: the app says {value}, {against} {want}"
        );
        worst = worst.max(diff);
    }
    Ok(worst)
}

/// Ranking STARD's queries with BM25 takes well under a second.
const SHORT_JOB: Duration = Duration::from_secs(45);
/// Embedding 1,543 queries one at a time takes minutes on a busy 2-core
/// machine.
const LONG_JOB: Duration = Duration::from_secs(900);

/// The means table, by measure key (`data-value`: the mean at full
/// precision), once the evaluation has filled it.
async fn metric_means(app: &App, limit: Duration) -> Result<Value> {
    let script =
        "const rows = document.querySelectorAll('[data-testid=metric-means] tr[data-measure]');
        if (rows.length === 0) return null;
        return Object.fromEntries(Array.from(rows, r => [r.dataset.measure, r.dataset.value]));";
    app.poll_for("the metric means", script, vec![], limit)
        .await
}

fn mean_of(shown: &Value, measure: &str) -> Result<f64> {
    Ok(shown[measure]
        .as_str()
        .with_context(|| format!("no {measure} in the metric view: {shown}"))?
        .parse()?)
}

/// What `nomos eval` wrote: the means (every key but `per_query`, in
/// order), the metrics JSON and the run file.
struct CliEval {
    means: Vec<(String, f64)>,
    metrics: String,
    run: String,
}

fn cli_eval(file: &str) -> Result<CliEval> {
    cli_eval_with(file, &[])
}

fn cli_eval_with(file: &str, extra: &[&str]) -> Result<CliEval> {
    let dir = tempfile::tempdir()?;
    let metrics_path = dir.path().join("metrics.json");
    let run_path = dir.path().join("run.trec");
    let status = Command::new(nomos_cli()?)
        .arg("eval")
        .arg("--index")
        .arg(served_blob(file)?)
        .arg("--run")
        .arg(&run_path)
        .arg("--metrics")
        .arg(&metrics_path)
        .args(extra)
        .status()?;
    ensure!(status.success(), "nomos eval failed: {status}");
    let metrics = std::fs::read_to_string(metrics_path)?;
    let means = cli::metrics_means(&metrics)?;
    Ok(CliEval {
        means,
        metrics,
        run: std::fs::read_to_string(run_path)?,
    })
}

/// Clicks the three export buttons and returns what would have been
/// downloaded (run, metrics JSON, CSV).
async fn exports(app: &App) -> Result<[String; 3]> {
    let client = app.client();
    app.catch_downloads().await?;
    for label in ["Run (TREC)", "Metrics (JSON)", "Metrics (CSV)"] {
        let xpath =
            format!("//div[contains(@class,'exports')]/button[normalize-space(.)='{label}']");
        client.find(Locator::XPath(&xpath)).await?.click().await?;
    }
    app.downloads()
        .await?
        .try_into()
        .map_err(|t: Vec<String>| anyhow::anyhow!("expected 3 exports, got {}", t.len()))
}

/// Same queries, documents, ranks and scores line for line; the tag is
/// not compared.
fn same_run(app: &str, cli: &str) -> Result<()> {
    let (app_lines, cli_lines): (Vec<_>, Vec<_>) = (app.lines().collect(), cli.lines().collect());
    ensure!(
        app_lines.len() == cli_lines.len(),
        "the exported run has {} lines, nomos eval's {}",
        app_lines.len(),
        cli_lines.len()
    );
    for (a, c) in app_lines.iter().zip(&cli_lines) {
        let (a_fields, c_fields): (Vec<_>, Vec<_>) =
            (a.split(' ').collect(), c.split(' ').collect());
        ensure!(
            a_fields.len() == 6 && c_fields.len() == 6 && a_fields[..5] == c_fields[..5],
            "run lines differ: {a:?} / {c:?}"
        );
    }
    Ok(())
}
