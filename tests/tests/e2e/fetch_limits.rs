//! Every read has a size limit (#35): a file a manifest or meta lists is
//! read up to its listed size, anything else up to its kind's cap, and a
//! read past the limit is stopped and refused by name with both sizes. A
//! link cannot make the page read a model's weights as a transcript, and a
//! fragmented pool's meta or fragment larger than listed fails its load or
//! query by name; the page goes on either way.

use anyhow::{ensure, Context, Result};
use nomos_core::blob::Field;
use nomos_core::fragments::Meta;
use nomos_e2e::app::{finish, App};
use nomos_e2e::one_at_a_time;
use nomos_e2e::paths::dist_dir;
use nomos_e2e::server::StaticServer;
use serde_json::{json, Value};

use crate::dense::escape;

/// The in-page LLM's directory, whose GGUF is the site's largest file.
const LLM_DIR: &str = "models/smollm2-135m-instruct/";
/// The fragmented pool, by the manifest's name, and where its files are.
const FRAG_POOL: &str = "synth-da-1e5/meta";
const FRAG_DIR: &str = "indexes/synth-da-1e5/";
/// Words of the synthetic pool.
const FRAG_QUERY: &str = "erstatning for skade på ejendom";
/// What a padded file gains: far more than one chunk of a read.
const PADDING: usize = 4_000_000;

/// `bytes` with [`PADDING`] zeros after them.
fn padded(mut bytes: Vec<u8>) -> Vec<u8> {
    bytes.resize(bytes.len() + PADDING, 0);
    bytes
}

/// A link replaying a shipped transcript whose `tpath` names the in-page
/// model's GGUF: the page refuses to read it as a transcript before
/// reading it, says so naming the file and both sizes, and goes on
/// searching.
#[tokio::test]
async fn a_link_cannot_make_the_page_read_a_model_as_a_transcript() -> Result<()> {
    let _turn = one_at_a_time().await;
    let dist = dist_dir()?;
    let index: Value =
        serde_json::from_slice(&std::fs::read(dist.join("transcripts/index.json"))?)?;
    let entry = index["transcripts"]
        .as_array()
        .and_then(|t| {
            t.iter()
                .find(|e| e["method"] == "reform-sparse" && e["pool"] == "stard.blob")
        })
        .context("transcripts/index.json lists no reform-sparse transcript on STARD")?;
    let (sha, pool) = (
        entry["sha256"].as_str().context("no sha256")?,
        entry["pool"].as_str().context("no pool")?,
    );
    let manifest: Value = serde_json::from_slice(&std::fs::read(
        dist.join(LLM_DIR).join("gguf-manifest.json"),
    )?)?;
    let gguf = manifest["files"][0]["name"]
        .as_str()
        .context("the GGUF manifest names no file")?;
    let gguf_path = format!("{LLM_DIR}{gguf}");
    let gguf_bytes = std::fs::metadata(dist.join(&gguf_path))?.len();

    let server = StaticServer::start(&dist)?;
    // STARD's first query, in words the pool has.
    let query = "个体工商户的债务承担";
    let url = format!(
        "{}#pool={pool}&rank=reform-sparse&q={}&transcript={sha}&tpath={}",
        server.url(),
        escape(query),
        escape(&gguf_path)
    );
    let app = App::open_at(&url, pool).await?;
    let outcome = async {
        let error = app
            .poll(
                "the run's error",
                "return document.querySelector('[data-testid=llm-error]')?.textContent ?? null;",
                vec![],
            )
            .await?;
        let error = error.as_str().unwrap_or_default();
        ensure!(
            error.contains(&gguf_path)
                && error.contains("is refused")
                && error.contains(&gguf_bytes.to_string())
                && error.contains("transcript of at most"),
            "the link's GGUF as a transcript: {error:?}"
        );
        app.screenshot("fetch-limits-tpath").await?;
        app.choose_method("bm25").await?;
        ensure!(
            !app.results(query).await?.is_empty(),
            "no BM25 results after the refusal"
        );
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

/// The fragmented pool's meta, answered 4 MB larger than the manifest
/// lists, fails the load naming it and both sizes; once the host is fixed
/// the pool loads.
#[tokio::test]
async fn a_meta_larger_than_listed_is_refused_by_name() -> Result<()> {
    let _turn = one_at_a_time().await;
    let dist = dist_dir()?;
    let meta_path = format!("{FRAG_DIR}meta");
    let meta_bytes = std::fs::read(dist.join(&meta_path))?;
    let server = StaticServer::start(&dist)?;
    server.replace(&meta_path, padded(meta_bytes.clone()));
    let app = App::open(&server.url()).await?;
    let outcome = async {
        app.pick_pool(FRAG_POOL).await?;
        let error = app.load_error().await?;
        let sizes = [meta_bytes.len(), meta_bytes.len() + PADDING].map(|n| n.to_string());
        ensure!(
            error.contains(&meta_path)
                && error.contains("is refused")
                && sizes.iter().all(|s| error.contains(s)),
            "a meta larger than listed: {error:?}"
        );
        server.restore(&meta_path);
        app.pick_pool("stard.blob").await?;
        app.choose_pool(FRAG_POOL).await
    }
    .await;
    finish(app, outcome).await
}

/// A fragment answered 4 MB larger than the meta lists fails the query
/// naming it and both sizes; once the host is fixed the query ranks.
#[tokio::test]
async fn a_fragment_larger_than_listed_is_refused_by_name() -> Result<()> {
    let _turn = one_at_a_time().await;
    let dist = dist_dir()?;
    let meta = Meta::load(&std::fs::read(dist.join(FRAG_DIR).join("meta"))?)?;
    let tokens = meta.analyzer().tokens(FRAG_QUERY);
    let number = *meta
        .needed(Field::Text, &tokens)?
        .first()
        .context("no fragment for the query")?;
    let fragment = &meta.fragments()[number];
    let fragment_path = format!("{FRAG_DIR}{}", fragment.file);
    let fragment_bytes = std::fs::read(dist.join(&fragment_path))?;
    ensure!(
        fragment_bytes.len() as u64 == fragment.len,
        "the meta lists {fragment_path} at {} bytes; it has {}",
        fragment.len,
        fragment_bytes.len()
    );
    let server = StaticServer::start(&dist)?;
    server.replace(&fragment_path, padded(fragment_bytes.clone()));
    let app = App::open(&server.url()).await?;
    let outcome = async {
        app.choose_pool(FRAG_POOL).await?;
        let rows = app.search(FRAG_QUERY).await?;
        ensure!(
            rows.is_empty(),
            "a fragment larger than listed ranked: {rows:?}"
        );
        let error = app
            .poll(
                "the query's error",
                "return document.querySelector('.frag-error[role=alert]')?.textContent ?? null;",
                vec![],
            )
            .await?;
        let error = error.as_str().unwrap_or_default();
        let sizes = [fragment_bytes.len(), fragment_bytes.len() + PADDING].map(|n| n.to_string());
        ensure!(
            error.contains(&fragment.file)
                && error.contains("is refused")
                && sizes.iter().all(|s| error.contains(s)),
            "a fragment larger than listed: {error:?}"
        );
        server.restore(&fragment_path);
        app.search("klage over afgørelse").await?;
        ensure!(
            !app.search(FRAG_QUERY).await?.is_empty(),
            "no results once the fragment is fixed"
        );
        let gone = app
            .client()
            .execute(
                "return document.querySelector('.frag-error') === null;",
                vec![],
            )
            .await?;
        ensure!(gone == json!(true), "the error stays after a good query");
        Ok(())
    }
    .await;
    finish(app, outcome).await
}
