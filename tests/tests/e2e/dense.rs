//! Semantic search in the browser: the model downloaded from the site and
//! run by onnxruntime-web embeds queries as the CLI's native ONNX Runtime
//! does (cosine ≥ 0.999 on real queries and articles in Greek, Danish and
//! Chinese), so hybrid search ranks as `nomos search --method rrf`; and a
//! damaged model download is reported while BM25 keeps working.
//!
//! Also prints, for docs/benchmarks/, the browser's embedding time for a
//! 64-token query and the dense ranking time per pool with vectors:
//! `cargo test -p nomos-e2e --test e2e dense -- --nocapture`.

use std::path::{Path, PathBuf};

use anyhow::{ensure, Context, Result};
use fantoccini::Locator;
use nomos_core::embed::{ModelManifest, Role, TextEncoder};
use nomos_e2e::app::{finish, App};
use nomos_e2e::paths::{dist_dir, model_dir, repo_root, served_blob, served_pool};
use nomos_e2e::server::StaticServer;
use nomos_e2e::{cli, one_at_a_time};
use serde_json::{json, Value};

use crate::search::{DA_QUERY, EL_QUERY};

const ZH_QUERY: &str = "盗窃公私财物";
/// The bound on browser-vs-native cosine.
const MIN_COSINE: f64 = 0.999;
const PARITY_DEPTH: usize = 10;
const TIMED_RUNS: usize = 15;
/// How long the model may take to download and load.
const MODEL_LOAD: std::time::Duration = std::time::Duration::from_secs(240);

#[tokio::test]
async fn browser_embeddings_match_native_and_hybrid_ranks_as_the_cli() -> Result<()> {
    let _turn = one_at_a_time().await;
    let server = StaticServer::start(&dist_dir()?)?;
    let file = "el-syntagma.blob";
    let app = open_hybrid_ready(&server, file, EL_QUERY).await?;
    let outcome = async {
        // Hybrid ranking, once the model is in: the same articles as the CLI.
        hybrid_ranks_as_the_cli(&app, &served_blob(file)?, EL_QUERY).await?;
        app.screenshot("search-hybrid").await?;

        // Query embeddings: the queries and whole articles (several windows).
        let blob = served_pool(file)?;
        let articles: Vec<String> = [0, 12, 100]
            .iter()
            .map(|&d| Ok(blob.article(d)?.text))
            .collect::<Result<_>>()?;
        let long = sixty_four_tokens(&articles[1])?;
        let mut texts = vec![EL_QUERY, DA_QUERY, ZH_QUERY, long.as_str()];
        texts.extend(articles.iter().map(String::as_str));
        let native = cli::embed_queries(&model_dir()?, &texts)?;
        let mut worst = f64::INFINITY;
        for (text, expected) in texts.iter().zip(&native) {
            let shown = embed_in_browser(&app, text).await?;
            let cos = cosine(&shown, expected);
            ensure!(
                cos >= MIN_COSINE,
                "cosine {cos} < {MIN_COSINE} for {text:.40?}"
            );
            worst = worst.min(cos);
        }
        println!(
            "browser vs native query embeddings: min cosine {worst:.6} over {} texts",
            texts.len()
        );

        let times = time_embedding(&app, &long).await?;
        let threads = app
            .client()
            .execute(
                "return [self.crossOriginIsolated, navigator.hardwareConcurrency];",
                vec![],
            )
            .await?;
        println!(
            "browser query embedding, 64 tokens: median {:.1} ms (min {:.1}, max {:.1}; \
             {TIMED_RUNS} runs, in the model's worker); cross-origin isolated, cores: {threads}",
            times[TIMED_RUNS / 2],
            times[0],
            times[TIMED_RUNS - 1]
        );
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

/// Long articles: a pool of one act of `data/el-nomothesia` (72 articles,
/// many longer than one window), embedded here with the build's default
/// pooling (one vector per window) and opened from disk, ranks in the
/// browser exactly as natively, and hits show the passage their best
/// window begins with. One act, not the demo's whole pool: embedding all
/// 772 articles takes minutes, which CI spends once here for 72.
#[tokio::test]
async fn long_articles_rank_in_the_browser_as_the_cli() -> Result<()> {
    let _turn = one_at_a_time().await;
    let dir = tempfile::tempdir()?;
    let blob = long_article_pool(dir.path())?;
    let server = StaticServer::start(&dist_dir()?)?;
    let query = "αφαίρεση άδειας οδήγησης για υπέρβαση του ορίου ταχύτητας";
    let app = App::open(&server.url()).await?;
    let outcome = async {
        app.open_file(&blob).await?;
        app.poll(
            "the long-article pool to load",
            "return document.getElementById('search-box')?.placeholder.endsWith(' in long.blob')
                ? true : null;",
            vec![],
        )
        .await?;
        app.choose_method("rrf").await?;
        app.client()
            .find(Locator::Id("search-box"))
            .await?
            .send_keys(query)
            .await?;
        // The model loads on the first query; BM25 stands in meanwhile.
        app.poll_for(
            "hybrid results once the semantic model has loaded",
            "const [q] = arguments;
            const status = document.getElementById('search-status')?.textContent ?? '';
            if (!status.includes(q)) return null;
            return document.querySelector('.fallback')?.textContent ? null : true;",
            vec![json!(query)],
            MODEL_LOAD,
        )
        .await?;
        hybrid_ranks_as_the_cli(&app, &blob, query).await?;
        let passages = app
            .client()
            .execute(
                "return [...document.querySelectorAll('ol.results .passage')]
                    .map((p) => p.textContent);",
                vec![],
            )
            .await?;
        let labels: Vec<String> = serde_json::from_value(passages)?;
        ensure!(
            labels.iter().any(|l| l.starts_with("closest passage: ")),
            "no hit shows its closest passage: {labels:?}"
        );
        app.screenshot("search-hybrid-long-articles").await
    }
    .await;
    finish(app, outcome).await
}

/// The driving-licence act of `data/el-nomothesia`, built with vectors by
/// `nomos build --embed` into `dir/long.blob`.
fn long_article_pool(dir: &Path) -> Result<PathBuf> {
    let data = repo_root().join("data/el-nomothesia");
    let src = dir.join("el-nomothesia");
    std::fs::create_dir_all(&src)?;
    std::fs::copy(data.join("PROVENANCE.md"), src.join("PROVENANCE.md"))?;
    copy_tree(&data.join("adeies-odigisis"), &src.join("adeies-odigisis"))?;
    let blob = dir.join("long.blob");
    let model = model_dir()?;
    cli::build([
        "--format".as_ref(),
        "el-nomothesia".as_ref(),
        "--embed".as_ref(),
        model.as_os_str(),
        "-o".as_ref(),
        blob.as_os_str(),
        src.as_os_str(),
    ])?;
    Ok(blob)
}

/// Copies the folder `from` to `to`, with everything in it.
fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// The app's hybrid top ten for `query` are `nomos search --method rrf`'s
/// on `blob`.
pub(crate) async fn hybrid_ranks_as_the_cli(app: &App, blob: &Path, query: &str) -> Result<()> {
    ranks_as_the_cli(app, blob, query, "rrf").await
}

/// The app's top ten for `query`, as it shows them, are those of `nomos
/// search --method <method>` on `blob`, the query embedded natively.
async fn ranks_as_the_cli(app: &App, blob: &Path, query: &str, method: &str) -> Result<()> {
    let rows = app.results(query).await?;
    let native = cli::search_method(blob, query, PARITY_DEPTH, method, &model_dir()?)?;
    let shown: Vec<&str> = rows
        .iter()
        .take(PARITY_DEPTH)
        .map(|r| r.id.as_str())
        .collect();
    let expected: Vec<&str> = native.iter().map(|h| h.id.as_str()).collect();
    ensure!(
        shown == expected,
        "{method}: the top {PARITY_DEPTH} differ\napp: {shown:?}\ncli: {expected:?}"
    );
    Ok(())
}

/// The Greek codes with vectors (CI builds them from the committed
/// embedding cache, data/embed-cache/): a link with no method opens them
/// with their own hybrid, `weighted:w=0.3` (`nomos build --hybrid`), which
/// ranks as `nomos search` does when no method is chosen.
#[tokio::test]
async fn the_codes_rank_with_their_own_hybrid_as_the_cli() -> Result<()> {
    let _turn = one_at_a_time().await;
    let server = StaticServer::start(&dist_dir()?)?;
    let (file, query) = ("el-codes.blob", "προθεσμία άσκησης έφεσης κατά απόφασης");
    let blob = served_blob(file)?;
    let link = format!("{}#pool={file}&q={}", server.url(), escape(query));
    let app = App::open_at(&link, file).await?;
    let outcome = async {
        wait_for_model(&app).await?;
        let rows = app.results(query).await?;
        let model = model_dir()?;
        let native = cli::search_method(&blob, query, PARITY_DEPTH, "weighted:w=0.3", &model)?;
        let by_default = cli::search_default(&blob, query, PARITY_DEPTH, &model)?;
        let ids = |hits: &[cli::CliHit]| hits.iter().map(|h| h.id.clone()).collect::<Vec<_>>();
        let shown: Vec<String> = rows
            .iter()
            .take(PARITY_DEPTH)
            .map(|r| r.id.clone())
            .collect();
        ensure!(
            shown == ids(&native) && ids(&by_default) == ids(&native),
            "the codes' hybrid top {PARITY_DEPTH} differ\napp: {shown:?}\ncli: {:?}\n\
             cli with no method: {:?}",
            ids(&native),
            ids(&by_default)
        );
        let link = app.client().current_url().await?;
        ensure!(
            link.fragment()
                .is_some_and(|f| f.contains("rank=weighted:w=0.3")),
            "the link does not name the pool's hybrid: {link}"
        );
        // The header leaves the open pool's name readable in this 1280-px
        // window (it once squeezed the picker to nothing).
        let picker = app
            .client()
            .execute(
                "return document.getElementById('pool-select').getBoundingClientRect().width;",
                vec![],
            )
            .await?;
        ensure!(
            picker.as_f64().is_some_and(|w| w >= 140.0),
            "the pool picker is {picker} px wide: the pool's name does not show"
        );
        app.screenshot("search-hybrid-el-codes").await
    }
    .await;
    finish(app, outcome).await
}

/// The context methods over the Greek codes' citations: `mix` (vectors
/// mixed along the graph at load) and `ctx-rrf` (its fusion with `prop`)
/// rank in the page as `nomos search` does.
#[tokio::test]
async fn the_context_methods_rank_in_the_browser_as_the_cli() -> Result<()> {
    let _turn = one_at_a_time().await;
    let server = StaticServer::start(&dist_dir()?)?;
    let (file, query) = ("el-codes.blob", "προθεσμία άσκησης έφεσης κατά απόφασης");
    let blob = served_blob(file)?;
    for method in ["mix:share=0.5", "ctx-rrf"] {
        let link = format!(
            "{}#pool={file}&rank={method}&q={}",
            server.url(),
            escape(query)
        );
        let app = App::open_at(&link, file).await?;
        let outcome = async {
            wait_for_model(&app).await?;
            ranks_as_the_cli(&app, &blob, query, method).await?;
            app.screenshot(&format!(
                "search-{}-el-codes",
                method.replace([':', '='], "-")
            ))
            .await
        }
        .await;
        finish(app, outcome).await?;
    }
    Ok(())
}

/// The definitions query set (`nomos make-queries --kind definitions`)
/// made from the committed sample's documents that define a term, built
/// with vectors: `prop`, `mix` and `ctx-rrf`, picked in the page, rank its
/// first dev query as `nomos search` does (the graph holds the
/// definition edges here, not only citations).
#[tokio::test]
async fn the_context_methods_rank_the_definitions_set_as_the_cli() -> Result<()> {
    let _turn = one_at_a_time().await;
    let dir = tempfile::tempdir()?;
    let (blob, query) = definitions_pool(dir.path())?;
    let server = StaticServer::start(&dist_dir()?)?;
    let app = App::open(&server.url()).await?;
    let outcome = async {
        app.open_file(&blob).await?;
        app.poll(
            "the definitions set's pool to load",
            "return document.getElementById('search-box')?.placeholder.endsWith(' in dev.blob')
                ? true : null;",
            vec![],
        )
        .await?;
        app.client()
            .find(Locator::Id("search-box"))
            .await?
            .send_keys(&query)
            .await?;
        for method in ["prop", "mix", "ctx-rrf"] {
            app.choose_method(method).await?;
            app.poll_for(
                "the method's own results",
                "const [q] = arguments;
                const status = document.getElementById('search-status')?.textContent ?? '';
                if (!status.includes(q)) return null;
                return document.querySelector('.fallback')?.textContent ? null : true;",
                vec![json!(query)],
                MODEL_LOAD,
            )
            .await?;
            ranks_as_the_cli(&app, &blob, &query, method).await?;
        }
        app.screenshot("search-ctx-rrf-definitions").await
    }
    .await;
    finish(app, outcome).await
}

/// The definitions set of the sample's defining documents, its dev split
/// built with vectors into `dir/dev.blob` (from the embedding cache the
/// CLI's test of the same set fills), and the split's first query.
fn definitions_pool(dir: &Path) -> Result<(PathBuf, String)> {
    let src = dir.join("src");
    std::fs::create_dir_all(&src)?;
    for entry in std::fs::read_dir(repo_root().join("data/da-law-sample"))? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "json") {
            let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&path)?)?;
            if doc["definitions"].as_array().is_some_and(|d| !d.is_empty()) {
                std::fs::copy(&path, src.join(path.file_name().context("a file name")?))?;
            }
        }
    }
    let set = dir.join("set");
    cli::nomos([
        "make-queries".as_ref(),
        "--kind".as_ref(),
        "definitions".as_ref(),
        "--format".as_ref(),
        "da-law".as_ref(),
        src.as_os_str(),
        "-o".as_ref(),
        set.as_os_str(),
        "--window".as_ref(),
        "4".as_ref(),
        "--per-definition".as_ref(),
        "100".as_ref(),
    ])?;
    let cache = repo_root().join(".embed-cache");
    std::fs::create_dir_all(&cache)?;
    let blob = dir.join("dev.blob");
    let model = model_dir()?;
    cli::build([
        "--format".as_ref(),
        "crawler-dk".as_ref(),
        set.join("dev").as_os_str(),
        "--embed".as_ref(),
        model.as_os_str(),
        "--embed-cache".as_ref(),
        cache.join("da-law-definitions.emb").as_os_str(),
        "-o".as_ref(),
        blob.as_os_str(),
    ])?;
    let rows = std::fs::read_to_string(set.join("dev/contextual_queries.jsonl"))?;
    let first: serde_json::Value = serde_json::from_str(rows.lines().next().context("a query")?)?;
    let query = first["query"].as_str().context("a query text")?.to_owned();
    Ok((blob, query))
}

#[tokio::test]
async fn a_damaged_model_is_reported_and_bm25_goes_on() -> Result<()> {
    let _turn = one_at_a_time().await;
    let server = StaticServer::start(&dist_dir()?)?;
    let mut model = std::fs::read(dist_dir()?.join("models/e5-small/model.onnx"))?;
    let middle = model.len() / 2;
    model[middle] ^= 0x55;
    server.replace("models/e5-small/model.onnx", model);
    let file = "el-syntagma.blob";
    let app = open_hybrid(&server, file, EL_QUERY).await?;
    let outcome = async {
        let state = app
            .poll(
                "the model's failure to be reported",
                "const error = document.querySelector('.model-line.error');
                 const fallback = document.querySelector('.fallback')?.textContent;
                 const rows = document.querySelectorAll('ol.results .result').length;
                 return error ? { error: error.textContent, fallback, rows } : null;",
                vec![],
            )
            .await?;
        let error = state["error"].as_str().unwrap_or_default();
        ensure!(
            error.contains("model.onnx") && error.contains("do not match the model manifest"),
            "unclear error: {error}"
        );
        ensure!(
            state["fallback"]
                .as_str()
                .is_some_and(|f| f.starts_with("BM25 results")),
            "no word that BM25 stands in: {state}"
        );
        ensure!(state["rows"].as_u64() > Some(0), "no BM25 results: {state}");
        app.screenshot("model-damaged").await?;
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

#[tokio::test]
async fn dense_ranking_time_per_pool() -> Result<()> {
    let _turn = one_at_a_time().await;
    let server = StaticServer::start(&dist_dir()?)?;
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(dist_dir()?.join("indexes/manifest.json"))?)?;
    let pools: Vec<String> = manifest["indexes"]
        .as_array()
        .context("manifest without indexes")?
        .iter()
        .filter(|e| e["dense"]["path"].is_string())
        .filter_map(|e| e["file"].as_str().map(str::to_owned))
        .collect();
    ensure!(!pools.is_empty(), "no pool with vectors in the built app");
    let app = App::open_at(
        &format!("{}#pool={}&rank=dense", server.url(), pools[0]),
        &pools[0],
    )
    .await?;
    let outcome = async {
        for file in &pools {
            app.choose_pool(file).await?;
            app.choose_method("dense").await?;
            let mut times = Vec::new();
            for query in [EL_QUERY, DA_QUERY, ZH_QUERY, "right of property", "public order"] {
                let rows = app.search(query).await?;
                ensure!(rows.len() == rows.len().min(100) && !rows.is_empty(), "no dense rows for {query}");
                times.push(ranked_millis(&app).await?);
            }
            times.sort_by(f64::total_cmp);
            println!(
                "dense (int8 brute force) in the browser, {file}: ranked in {:.1} ms median of {} queries (max {:.1})",
                times[times.len() / 2],
                times.len(),
                times[times.len() - 1]
            );
        }
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

/// Opens a link to `query` in `file`, ranked with hybrid search.
async fn open_hybrid(server: &StaticServer, file: &str, query: &str) -> Result<App> {
    let link = format!("{}#pool={file}&rank=rrf&q={}", server.url(), escape(query));
    App::open_at(&link, file).await
}

/// [`open_hybrid`], once the model has loaded and BM25 no longer stands in.
pub(crate) async fn open_hybrid_ready(
    server: &StaticServer,
    file: &str,
    query: &str,
) -> Result<App> {
    let app = open_hybrid(server, file, query).await?;
    wait_for_model(&app).await?;
    Ok(app)
}

/// Waits until the semantic model has loaded and BM25 no longer stands in.
/// Each test's browser downloads the 42 MB model afresh; on a loaded
/// machine that takes longer than a page's usual wait.
async fn wait_for_model(app: &App) -> Result<()> {
    app.poll_for(
        "the semantic model to load",
        "return document.querySelector('.fallback')?.textContent ? null : true;",
        vec![],
        MODEL_LOAD,
    )
    .await?;
    Ok(())
}

/// The page's `window.__nomosEmbed(text)`, which awaits the loaded model.
async fn embed_in_browser(app: &App, text: &str) -> Result<Vec<f32>> {
    let value = app
        .client()
        .execute(
            "return window.__nomosEmbed(arguments[0]);",
            vec![json!(text)],
        )
        .await?;
    Ok(serde_json::from_value(value)?)
}

/// Milliseconds per embedding of `text` in the page, sorted, after one
/// warm-up run.
async fn time_embedding(app: &App, text: &str) -> Result<Vec<f64>> {
    let script = "const [text, runs] = arguments;
        return (async () => {
            await window.__nomosEmbed(text);
            const times = [];
            for (let i = 0; i < runs; i++) {
                const t = performance.now();
                await window.__nomosEmbed(text);
                times.push(performance.now() - t);
            }
            return times.sort((a, b) => a - b);
        })();";
    let value = app
        .client()
        .execute(script, vec![json!(text), json!(TIMED_RUNS)])
        .await?;
    Ok(serde_json::from_value(value)?)
}

/// The status line's "ranked in X ms".
async fn ranked_millis(app: &App) -> Result<f64> {
    let text = app
        .client()
        .execute(
            "return document.querySelector('.timing')?.textContent ?? '';",
            vec![],
        )
        .await?;
    let text = text.as_str().unwrap_or_default();
    let ms = text
        .split("ranked in ")
        .nth(1)
        .and_then(|t| t.trim_start_matches("< ").split(' ').next())
        .and_then(|n| n.parse().ok())
        .with_context(|| format!("no ranking time in {text:?}"))?;
    Ok(ms)
}

/// The longest prefix of `text`, in words, that the model reads as at
/// most 64 tokens (its prefix and special tokens included).
fn sixty_four_tokens(text: &str) -> Result<String> {
    let dir = model_dir()?;
    let manifest = ModelManifest::from_json(&std::fs::read(dir.join("manifest.json"))?)?;
    let encoder = TextEncoder::new(
        &std::fs::read(dir.join("tokenizer.json"))?,
        manifest.encoder_config(),
    )?;
    let mut best = String::new();
    for word in text.split_whitespace() {
        let candidate = match best.is_empty() {
            true => word.to_owned(),
            false => format!("{best} {word}"),
        };
        if encoder.batch(Role::Query, &[candidate.as_str()])?.shape()[1] > 64 {
            break;
        }
        best = candidate;
    }
    ensure!(!best.is_empty(), "no words in the article");
    Ok(best)
}

fn cosine(a: &[f32], b: &[f32]) -> f64 {
    let dot: f64 = a
        .iter()
        .zip(b)
        .map(|(x, y)| f64::from(*x) * f64::from(*y))
        .sum();
    let norm = |v: &[f32]| v.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
    dot / (norm(a) * norm(b))
}

/// Percent-encodes a query for a link's fragment.
pub(crate) fn escape(s: &str) -> String {
    s.bytes()
        .map(|b| match b.is_ascii_alphanumeric() {
            true => (b as char).to_string(),
            false => format!("%{b:02X}"),
        })
        .collect()
}
