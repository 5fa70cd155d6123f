//! A run made elsewhere, in Evaluate: `nomos eval --method rrf` writes
//! STARD's hybrid run natively; the browser evaluates BM25 (A), opens the
//! run file as B through the file input, and shows B's means equal to the
//! CLI's metrics of that run to the bit. A malformed file is refused with
//! its file name and line; the link names the run by its SHA-256; after a
//! reload the run comes back from IndexedDB. The significance table under
//! the comparison gives the p-values `nomos compare` gives for the same two
//! runs (BM25's written by `nomos eval`, the qrels the blob's own).
//!
//! Hooks: `[data-testid=run-file-input]` (the file input), the report
//! `[data-testid=run-report]`, the error `[data-testid=run-error]`, the
//! kept list `[data-testid=run-files]`, and the means table as in
//! `evaluate.rs` (B's mean in the row's second `td[data-value]`), and
//! the significance table's rows `[data-testid=significance-table]
//! tr[data-measure]` with their p-values in `data-t-p`, `data-t-holm`,
//! `data-rand-p` and `data-rand-holm`.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use anyhow::{ensure, Context, Result};
use fantoccini::Locator;
use nomos_core::blob::Blob;
use nomos_core::digest::sha256_hex;
use nomos_core::eval::format_trec_qrels;
use nomos_core::pool::{Benchmark, Pool};
use nomos_e2e::app::{finish, App};
use nomos_e2e::paths::{dist_dir, model_dir, nomos_cli, query_cache, served_blob};
use nomos_e2e::server::StaticServer;
use nomos_e2e::{cli, one_at_a_time};
use serde_json::Value;

/// BM25 over STARD's 1,543 queries, and checking a run file, take well
/// under a second each.
const SHORT_JOB: Duration = Duration::from_secs(60);

#[tokio::test]
async fn a_run_file_is_compared_with_our_method() -> Result<()> {
    let _turn = one_at_a_time().await;
    let dir = tempfile::tempdir()?;
    let run_path = dir.path().join("stard-rrf.trec");
    let metrics_path = dir.path().join("stard-rrf.json");
    let status = Command::new(nomos_cli()?)
        .arg("eval")
        .arg("--index")
        .arg(served_blob("stard.blob")?)
        .args(["--method", "rrf", "--model"])
        .arg(model_dir()?)
        .arg("--embed-cache")
        .arg(query_cache("stard")?)
        .arg("--run")
        .arg(&run_path)
        .arg("--metrics")
        .arg(&metrics_path)
        .status()?;
    ensure!(status.success(), "nomos eval failed: {status}");
    let native = cli::metrics_means(&std::fs::read_to_string(&metrics_path)?)?;
    let run = std::fs::read(&run_path)?;
    let sha = sha256_hex(&run);
    let bad_path = dir.path().join("bad.trec");
    let mut bad = run.clone();
    bad.splice(..0, b"q1 Q0 d1 1 2.5 x\nq1 Q0 d2 2 two x\n".iter().copied());
    std::fs::write(&bad_path, bad)?;

    let server = StaticServer::start(&dist_dir()?)?;
    let link = format!("{}#view=evaluate&pool=stard.blob&rank=bm25", server.url());
    let app = App::start(&link).await?;
    let outcome = async {
        app.wait_for_evaluate("stard.blob").await?;
        run_a(&app).await?;
        open_run(&app, &bad_path).await?;
        let error = app
            .poll_for(
                "the run file's error",
                "return document.querySelector('[data-testid=run-error]')?.textContent ?? null;",
                vec![],
                SHORT_JOB,
            )
            .await?;
        ensure!(
            error.as_str() == Some("bad.trec:2: score 'two' is not a number"),
            "the malformed file's error: {error}"
        );

        open_run(&app, &run_path).await?;
        let shown = b_means(&app).await?;
        same_means(&shown, &native)?;
        let report = app
            .poll_for(
                "the run file's report",
                "return document.querySelector('[data-testid=run-report]')?.textContent ?? null;",
                vec![],
                SHORT_JOB,
            )
            .await?;
        let report = report.as_str().unwrap_or_default();
        ensure!(
            report.contains("stard-rrf.trec")
                && report.contains("for 1,543 of 1,543 benchmark queries, shown as B")
                && report.contains(&sha[..12]),
            "the report: {report}"
        );
        same_p_values(&app, dir.path(), &run_path).await?;
        let url = app.client().current_url().await?;
        ensure!(
            url.fragment()
                .is_some_and(|f| f.contains(&format!("runb={sha}"))),
            "the link does not name the run: {url}"
        );

        // After a reload the run comes back from IndexedDB, as B.
        app.client().refresh().await?;
        app.wait_for_evaluate("stard.blob").await?;
        run_a(&app).await?;
        let shown = b_means(&app).await?;
        same_means(&shown, &native)?;
        let kept = app
            .poll_for(
                "the kept run files",
                "return document.querySelector('[data-testid=run-files]')?.textContent ?? null;",
                vec![],
                SHORT_JOB,
            )
            .await?;
        ensure!(
            kept.as_str().is_some_and(|k| k.contains("stard-rrf.trec")),
            "the kept list: {kept}"
        );
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

/// The significance table's p-values equal those of `nomos compare` on
/// BM25's run (A, as the browser ranked it) and the run file (B): the
/// t-test's to 1e-12 (the browser's `ln`/`exp` are not the native libm's),
/// the randomization test's exactly (same seed, same sign flips, same
/// counts), Holm's as they follow.
async fn same_p_values(app: &App, dir: &Path, run_b: &Path) -> Result<()> {
    let blob_path = served_blob("stard.blob")?;
    let mut blob = Blob::load(&std::fs::read(&blob_path)?)?;
    let analyzer = Pool::from_blob(&mut blob)?.analyzer();
    let bench = Benchmark::from_blob(&blob, &analyzer)?;
    let qrels = dir.join("stard.qrels");
    std::fs::write(&qrels, format_trec_qrels(&bench.qrels))?;
    let run_a = dir.join("stard-bm25.trec");
    let status = Command::new(nomos_cli()?)
        .arg("eval")
        .arg("--index")
        .arg(&blob_path)
        .args(["--method", "bm25", "--run"])
        .arg(&run_a)
        .arg("--metrics")
        .arg(dir.join("stard-bm25.json"))
        .status()?;
    ensure!(status.success(), "nomos eval failed: {status}");
    let out = Command::new(nomos_cli()?)
        .arg("compare")
        .arg("--qrels")
        .arg(&qrels)
        .arg(&run_a)
        .arg(run_b)
        .output()?;
    ensure!(
        out.status.success(),
        "nomos compare failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let native: Value = serde_json::from_slice(&out.stdout)?;
    let script = "const rows = document.querySelectorAll('[data-testid=significance-table] tr[data-measure]');
        return rows.length ? Array.from(rows, r => [r.dataset.measure, r.dataset.tP, r.dataset.tHolm,
            r.dataset.randP, r.dataset.randHolm]) : null;";
    let shown = app
        .poll_for("the significance table", script, vec![], SHORT_JOB)
        .await?;
    let shown = shown.as_array().context("significance rows")?;
    let measures = native["measures"]
        .as_array()
        .context("compare's measures")?;
    ensure!(
        shown.len() == measures.len(),
        "the table has {} measures, nomos compare {}",
        shown.len(),
        measures.len()
    );
    let number = |v: &Value| -> Result<f64> {
        Ok(match v {
            Value::Null => f64::NAN,
            Value::String(s) => s.parse()?,
            v => v.as_f64().with_context(|| format!("not a number: {v}"))?,
        })
    };
    let mut significant = 0;
    for (row, m) in shown.iter().zip(measures) {
        let name = m["measure"].as_str().unwrap_or_default();
        ensure!(row[0].as_str() == Some(name), "row {row} against {name}");
        let pairs = [
            (&row[1], &m["t_test"]["p"], 1e-12),
            (&row[2], &m["t_test"]["p_holm"], 1e-12),
            (&row[3], &m["randomization"]["p"], 0.0),
            (&row[4], &m["randomization"]["p_holm"], 0.0),
        ];
        for (browser, cli, tolerance) in pairs {
            let (browser, cli) = (number(browser)?, number(cli)?);
            ensure!(
                (browser - cli).abs() <= tolerance || (browser.is_nan() && cli.is_nan()),
                "{name}: the browser's p {browser}, nomos compare's {cli}"
            );
        }
        significant += usize::from(m["t_test"]["significant"] == Value::Bool(true));
    }
    // RRF against BM25 on 1,543 queries: a comparison that finds nothing
    // would not show that the small p-values agree.
    ensure!(
        significant > 0,
        "no measure differs significantly: {native}"
    );
    Ok(())
}

/// Runs every query with the current method (A) and waits for its means
/// (a run file opens only between jobs).
async fn run_a(app: &App) -> Result<()> {
    app.client()
        .find(Locator::Css("[data-testid=run-evaluation]"))
        .await?
        .click()
        .await?;
    let script =
        "const done = document.querySelector('[data-testid=metric-means] tr[data-measure]')
            && !document.querySelector('.job');
        return done ? true : null;";
    app.poll_for("A's means", script, vec![], SHORT_JOB).await?;
    Ok(())
}

/// Opens `path` through the run files' input (as B, the default).
async fn open_run(app: &App, path: &Path) -> Result<()> {
    let path = path.to_str().context("non-UTF-8 temp path")?;
    app.client()
        .find(Locator::Css("[data-testid=run-file-input]"))
        .await?
        .send_keys(path)
        .await?;
    Ok(())
}

/// B's means by measure, once the table shows them.
async fn b_means(app: &App) -> Result<Value> {
    let script = "const rows = document.querySelectorAll('[data-testid=metric-means] tr[data-measure]');
        const b = Array.from(rows, r => [r.dataset.measure, r.querySelector('td[data-value]')?.dataset.value]);
        return b.length && b.every(([, v]) => v) ? Object.fromEntries(b) : null;";
    app.poll_for("B's means", script, vec![], SHORT_JOB).await
}

/// The means shown equal the CLI's to the bit.
fn same_means(shown: &Value, expected: &[(String, f64)]) -> Result<()> {
    for (measure, want) in expected {
        let value: f64 = shown[measure]
            .as_str()
            .with_context(|| format!("no {measure} for B: {shown}"))?
            .parse()?;
        ensure!(
            value == *want,
            "{measure}: B shows {value}, nomos eval of the run {want}"
        );
    }
    Ok(())
}
