//! Markup and bidi characters in a pool and a query stay text: a pool
//! built by `nomos build` whose titles, texts, ids, notes and benchmark
//! query hold `<img onerror>`, `</mark>` and U+202E (right-to-left
//! override), searched with such a query. No element is created, the
//! handler never runs, and every piece reads as typed: in the results, the
//! marked matches, the article, the notes and Evaluate's query list.

use std::path::Path;

use anyhow::{ensure, Result};
use nomos_e2e::app::{finish, App};
use nomos_e2e::paths::dist_dir;
use nomos_e2e::server::StaticServer;
use nomos_e2e::{cli, one_at_a_time};
use serde_json::{json, Value};

/// Sets a flag if it ever runs as a handler.
const IMG: &str = "<img src=x onerror=\"window.__nomosInjected=1\">";
const RLO: char = '\u{202E}';

fn title() -> String {
    format!("{IMG}{RLO} Afgift af indkomst")
}

fn text() -> String {
    format!("Skat </mark>{IMG} betales {RLO}af <b>indkomst</b> hvert år.")
}

fn query() -> String {
    format!("{IMG} skat </mark> {RLO}indkomst")
}

#[tokio::test]
async fn markup_and_bidi_characters_stay_text() -> Result<()> {
    let _turn = one_at_a_time().await;
    let dir = tempfile::tempdir()?;
    let blob = build_pool(dir.path())?;
    let server = StaticServer::start(&dist_dir()?)?;
    let app = App::open(&server.url()).await?;
    let outcome = async {
        app.open_file(&blob).await?;
        app.poll(
            "the hostile pool to load",
            "return document.getElementById('search-box')?.placeholder.endsWith(' in hostile.blob')
                ? true : null;",
            vec![],
        )
        .await?;
        let rows = app.search(&query()).await?;
        ensure!(
            rows.first().map(|r| r.title.clone()) == Some(title()),
            "the first result should be titled as typed: {rows:?}"
        );
        let shown = read(
            &app,
            "return {
                snippet: document.querySelector('#result-0 .snippet').textContent,
                marks: Array.from(document.querySelectorAll('#result-0 .snippet mark'),
                                  m => m.textContent),
                ids: Array.from(document.querySelectorAll('.result-meta .doc-id'),
                                e => e.textContent),
                notes: Array.from(document.querySelectorAll('.note'), n => n.textContent),
                box: document.getElementById('search-box').value,
            };",
        )
        .await?;
        let snippet = shown["snippet"].as_str().unwrap_or_default();
        ensure!(snippet.contains(&text()), "the snippet reads {snippet:?}");
        // The query's words are marked wherever the text has them, inside
        // the markup too.
        let marks = strings(&shown["marks"]);
        ensure!(
            ["skat", "mark", "img", "onerror", "indkomst"]
                .iter()
                .all(|w| marks.iter().any(|m| m.eq_ignore_ascii_case(w))),
            "marks: {marks:?}"
        );
        ensure!(
            shown["box"] == json!(query()),
            "the box holds {}",
            shown["box"]
        );
        ensure!(
            strings(&shown["ids"]).contains(&IMG.to_owned()),
            "ids: {}",
            shown["ids"]
        );
        let notes = strings(&shown["notes"]);
        ensure!(
            notes.iter().any(|n| n.contains(IMG)),
            "a note should quote the stray id as text: {notes:?}"
        );
        no_element_made(&app).await?;

        let article = app.open_result(0).await?;
        ensure!(
            article.title == title(),
            "the article is titled {:?}",
            article.title
        );
        ensure!(
            article.text.contains(&text()),
            "the article reads {:?}",
            article.text
        );
        ensure!(
            article.marks.contains(&"img".to_owned())
                && article.marks.contains(&"indkomst".to_owned()),
            "article marks: {:?}",
            article.marks
        );
        no_element_made(&app).await?;

        app.client()
            .find(fantoccini::Locator::Css("nav.tabs .tab:nth-child(2)"))
            .await?
            .click()
            .await?;
        app.client()
            .find(fantoccini::Locator::Css("[data-testid=run-evaluation]"))
            .await?
            .click()
            .await?;
        let queries = app
            .poll(
                "Evaluate's query list",
                "const cells = document.querySelectorAll('td.query-text');
                 return cells.length ? Array.from(cells, c => c.textContent) : null;",
                vec![],
            )
            .await?;
        ensure!(
            strings(&queries) == [query()],
            "Evaluate lists the query as {queries}"
        );
        no_element_made(&app).await
    }
    .await;
    finish(app, outcome).await
}

/// A BEIR directory of three documents, one query and a stray augmented
/// text (which `nomos build` names in the pool's notes), built into
/// `hostile.blob`.
fn build_pool(dir: &Path) -> Result<std::path::PathBuf> {
    let lines = |rows: &[Value]| -> String { rows.iter().map(|r| format!("{r}\n")).collect() };
    let src = dir.join("src");
    std::fs::create_dir_all(src.join("qrels"))?;
    std::fs::write(
        src.join("corpus.jsonl"),
        lines(&[
            json!({"_id": "d1", "title": title(), "text": text()}),
            json!({"_id": IMG, "title": "Andet", "text": "Afgifter og skat opkræves af staten."}),
            json!({"_id": "d3", "title": "Tredje", "text": "Loven træder i kraft i dag."}),
        ]),
    )?;
    std::fs::write(
        src.join("queries.jsonl"),
        lines(&[json!({"_id": "q1", "text": query()})]),
    )?;
    std::fs::write(
        src.join("qrels/test.tsv"),
        "query-id\tcorpus-id\tscore\nq1\td1\t1\n",
    )?;
    let augmented = dir.join("augmented.jsonl");
    std::fs::write(
        &augmented,
        lines(&[json!({"chunk_id": format!("{IMG}-stray"), "chunk": "stray"})]),
    )?;
    let blob = dir.join("hostile.blob");
    cli::build([
        "--format".as_ref(),
        "beir".as_ref(),
        "--analyzer".as_ref(),
        "da".as_ref(),
        "--augmented".as_ref(),
        augmented.as_os_str(),
        "-o".as_ref(),
        blob.as_os_str(),
        src.as_os_str(),
    ])?;
    Ok(blob)
}

/// Nothing from the pool or the query became an element, and no handler
/// ran.
async fn no_element_made(app: &App) -> Result<()> {
    let found = read(
        app,
        "return {
            injected: window.__nomosInjected ?? null,
            img: document.querySelectorAll('img').length,
            b: document.querySelectorAll('b').length,
            marks: Array.from(document.querySelectorAll('mark'), m => m.textContent)
                .filter(t => t.includes('<')).length,
        };",
    )
    .await?;
    ensure!(
        found == json!({"injected": null, "img": 0, "b": 0, "marks": 0}),
        "markup from the pool or query reached the page: {found}"
    );
    Ok(())
}

async fn read(app: &App, script: &str) -> Result<Value> {
    Ok(app.client().execute(script, vec![]).await?)
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}
