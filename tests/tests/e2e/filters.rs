//! The filters beside the results count and narrow a ranking as `nomos
//! search --facets` and its filters do, on a blob and on a fragmented pool
//! of the same documents (the demo's Danish law sample), by one function:
//! every facet's values and counts, then a document type and a year
//! chosen, the rows that remain, and a link that brings them back.

use std::path::Path;

use anyhow::{ensure, Context, Result};
use nomos_core::facets::kind_label;
use nomos_e2e::app::{finish, App};
use nomos_e2e::cli;
use nomos_e2e::one_at_a_time;
use nomos_e2e::paths::{dist_dir, served_blob};
use nomos_e2e::server::StaticServer;
use serde_json::{json, Value};

/// Placing a child outside its home: stykker of 60 documents, of three
/// types and seven years.
const QUERY: &str = "anbringelse uden for hjemmet";
/// The filters chosen, as the facets and the CLI name them.
const KIND: &str = "BEK";
const YEAR: &str = "2025";
/// How many rows are compared with the CLI's (a fragmented pool shows 10
/// at first).
const DEPTH: usize = 10;

/// The facet groups by their legends, as the CLI names them.
const GROUPS: [(&str, &str); 4] = [
    ("Source", "source"),
    ("Legal area", "area"),
    ("Type", "type"),
    ("Year", "year"),
];

#[tokio::test]
async fn filters_count_and_narrow_as_the_cli_on_a_blob_and_a_fragmented_pool() -> Result<()> {
    let _turn = one_at_a_time().await;
    let server = StaticServer::start(&dist_dir()?)?;
    let app = App::open(&server.url()).await?;
    let outcome = async {
        let blob = served_blob("da-law-sample.blob")?;
        filters_like_cli(&app, "da-law-sample.blob", &blob).await?;
        app.screenshot("filters-blob").await?;
        let dir = dist_dir()?.join("indexes/da-law-sample");
        filters_like_cli(&app, "da-law-sample/meta", &dir).await?;
        app.screenshot("filters-fragmented").await?;
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

/// On pool `file` (served from `pool`, a blob or a fragments directory):
/// the facets equal the CLI's counts; choosing a type and a year shows the
/// CLI's narrowed top rows; the link keeps both filters.
async fn filters_like_cli(app: &App, file: &str, pool: &Path) -> Result<()> {
    app.choose_pool(file).await?;
    app.choose_method("bm25").await?;
    app.search(QUERY).await?;
    let (_, native) = cli::search_narrowed(pool, QUERY, 1, &["--facets"])?;
    let shown = facets(app).await?;
    for (legend, name) in GROUPS {
        let expected: Vec<(String, usize)> = native
            .iter()
            .filter(|(f, _, _)| f == name)
            .map(|(_, v, n)| (v.clone(), *n))
            .collect();
        // A group with one value narrows nothing and is not shown.
        let expected = if expected.len() > 1 {
            expected
        } else {
            Vec::new()
        };
        let on_page = shown.get(legend).cloned().unwrap_or_default();
        ensure!(
            on_page == expected,
            "{file}: the {legend} facet shows {on_page:?}, the CLI counts {expected:?}"
        );
    }
    ensure!(
        shown.get("Type").is_some_and(|t| t.len() == 3) && shown.contains_key("Year"),
        "{file}: no type or year facet: {shown:?}"
    );

    choose(app, "type", KIND).await?;
    choose(app, "year", YEAR).await?;
    let rows = narrowed_rows(app).await?;
    let (hits, _) = cli::search_narrowed(pool, QUERY, DEPTH, &["--type", KIND, "--year", YEAR])?;
    let want: Vec<(String, String)> = hits
        .into_iter()
        .map(|h| (h.id, format!("{:.2}", h.score)))
        .collect();
    ensure!(
        want.len() == DEPTH,
        "the CLI narrowed to fewer than {DEPTH} hits"
    );
    ensure!(
        rows.iter().take(DEPTH).cloned().collect::<Vec<_>>() == want,
        "{file}: narrowed rows {rows:?}, the CLI's {want:?}"
    );

    // The link brings the filters back.
    let link = app.client().current_url().await?.to_string();
    ensure!(
        link.contains(&format!("type={KIND}")) && link.contains(&format!("year={YEAR}")),
        "the link {link} lacks the filters"
    );
    app.client().goto("about:blank").await?;
    app.client().goto(&link).await?;
    app.wait_for_pool(file).await?;
    let again = narrowed_rows(app).await?;
    ensure!(
        again == rows,
        "{file}: the link shows {again:?}, not {rows:?}"
    );
    // Clear them for the next pool.
    choose(app, "type", "").await?;
    choose(app, "year", "").await?;
    Ok(())
}

/// Each shown facet group's values and counts, in the page's order, the
/// folded ones included ("All" left out).
async fn facets(app: &App) -> Result<std::collections::HashMap<String, Vec<(String, usize)>>> {
    let script = "return Array.from(document.querySelectorAll('fieldset.filter')).map(f => [
            f.querySelector('legend').textContent,
            Array.from(f.querySelectorAll('input[type=radio]')).filter(i => i.value !== '')
                .map(i => [i.value, i.closest('label').querySelector('.count').textContent])
        ]);";
    let groups: Value = app.client().execute(script, vec![]).await?;
    let mut out = std::collections::HashMap::new();
    for group in groups.as_array().context("facet groups")? {
        let legend = group[0].as_str().context("a legend")?.to_owned();
        let values = group[1]
            .as_array()
            .context("facet values")?
            .iter()
            .map(|v| {
                let count: String = v[1].as_str().unwrap_or_default().replace(',', "");
                Ok((v[0].as_str().unwrap_or_default().to_owned(), count.parse()?))
            })
            .collect::<Result<Vec<_>>>()?;
        out.insert(legend, values);
    }
    Ok(out)
}

/// Chooses `value` of facet `name` (`""`: All).
async fn choose(app: &App, name: &str, value: &str) -> Result<()> {
    let script = "const [name, value] = arguments;
        const input = document.querySelector(`input[name=${name}][value='${value}']`);
        if (!input) return false;
        input.click();
        return true;";
    let clicked = app
        .client()
        .execute(script, vec![json!(name), json!(value)])
        .await?;
    ensure!(
        clicked == json!(true),
        "no {name} filter {value:?} to choose"
    );
    Ok(())
}

/// The rows (id, score) once the status line says they are narrowed to
/// the type (as the filters name it) and the year.
async fn narrowed_rows(app: &App) -> Result<Vec<(String, String)>> {
    let script = "const [q, by] = arguments;
        const status = document.getElementById('search-status')?.textContent ?? '';
        if (!status.includes('\u{2068}' + q + '\u{2069}') || !status.endsWith(' in ' + by)) return null;
        if (document.querySelector('ol.results[aria-busy=true]')) return null;
        return Array.from(document.querySelectorAll('ol.results .result')).map(b => [
            (b.querySelector('.result-meta .doc-id') ?? b.querySelector('.result-title')).textContent,
            b.querySelector('.score').textContent,
        ]);";
    let rows = app
        .poll(
            "rows narrowed by type and year",
            script,
            vec![json!(QUERY), json!(format!("{}, {YEAR}", kind_label(KIND)))],
        )
        .await?;
    Ok(rows
        .as_array()
        .context("rows")?
        .iter()
        .map(|r| {
            let text = |i: usize| r[i].as_str().unwrap_or_default().to_owned();
            (text(0), text(1))
        })
        .collect())
}
