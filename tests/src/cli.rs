//! The `nomos` CLI's ranking of a query: the native side of the
//! native/browser parity checks.

use std::path::Path;
use std::process::Command;

use anyhow::{bail, ensure, Context, Result};

use crate::paths::nomos_cli;

/// One line of `nomos search`: a document id and its BM25 score.
#[derive(Debug, Clone, PartialEq)]
pub struct CliHit {
    pub id: String,
    pub score: f64,
}

/// `nomos search --index <blob> -k <k> <query>`: BM25 with the blob's own
/// settings.
pub fn search(blob: &Path, query: &str, k: usize) -> Result<Vec<CliHit>> {
    search_with(blob, query, k, &[])
}

/// `nomos search` with a dense or hybrid `method`, embedding the query
/// with `model` natively.
pub fn search_method(
    blob: &Path,
    query: &str,
    k: usize,
    method: &str,
    model: &Path,
) -> Result<Vec<CliHit>> {
    let model = model.to_string_lossy();
    search_with(blob, query, k, &["--method", method, "--model", &model])
}

/// `nomos search` with no method and the query `model`: the pool's own
/// default where its vectors can be used.
pub fn search_default(blob: &Path, query: &str, k: usize, model: &Path) -> Result<Vec<CliHit>> {
    search_with(blob, query, k, &["--model", &model.to_string_lossy()])
}

/// `nomos search` with a lexical `method` (`prop:share=0.5`), which needs
/// no model.
pub fn search_lexical(blob: &Path, query: &str, k: usize, method: &str) -> Result<Vec<CliHit>> {
    search_with(blob, query, k, &["--method", method])
}

/// `nomos search --fragments <dir>` with `method`: the fragmented pool
/// ranked natively from the fragments the query needs, embedding the
/// query with `model` for a dense method.
pub fn search_fragments(
    dir: &Path,
    query: &str,
    k: usize,
    method: &str,
    model: &Path,
) -> Result<Vec<CliHit>> {
    let model = model.to_string_lossy();
    fragments_with(dir, query, k, &["--method", method, "--model", &model])
}

/// `nomos search --fragments <dir>` with BM25 and the pool's settings.
pub fn search_fragments_bm25(dir: &Path, query: &str, k: usize) -> Result<Vec<CliHit>> {
    fragments_with(dir, query, k, &[])
}

fn fragments_with(dir: &Path, query: &str, k: usize, extra: &[&str]) -> Result<Vec<CliHit>> {
    let out = run(Command::new(nomos_cli()?)
        .arg("search")
        .arg("--fragments")
        .arg(dir)
        .args(["--top", &k.to_string()])
        .args(extra)
        .arg(query))?;
    out.lines().map(parse_line).collect()
}

fn search_with(blob: &Path, query: &str, k: usize, extra: &[&str]) -> Result<Vec<CliHit>> {
    let out = run(Command::new(nomos_cli()?)
        .arg("search")
        .arg("--index")
        .arg(blob)
        .arg("--top")
        .arg(k.to_string())
        .args(extra)
        .arg(query))?;
    out.lines().map(parse_line).collect()
}

/// One facet count of `nomos search --facets`: facet (`source`, `area`,
/// `type`, `year`), value and count.
pub type FacetLine = (String, String, usize);

/// `nomos search --index BLOB` (a file) or `--fragments DIR` (a
/// directory) with the `extra` flags (filters, `--facets`): its hits, and
/// its facet counts when asked.
pub fn search_narrowed(
    pool: &Path,
    query: &str,
    k: usize,
    extra: &[&str],
) -> Result<(Vec<CliHit>, Vec<FacetLine>)> {
    let storage = match pool.is_dir() {
        true => "--fragments",
        false => "--index",
    };
    let out = run(Command::new(nomos_cli()?)
        .args(["search", storage])
        .arg(pool)
        .args(["--top", &k.to_string()])
        .args(extra)
        .arg(query))?;
    let (facets, hits): (Vec<&str>, Vec<&str>) =
        out.lines().partition(|l| l.starts_with("facet\t"));
    let facets = facets
        .into_iter()
        .map(|line| match line.split('\t').collect::<Vec<_>>()[..] {
            [_, facet, value, n] => Ok((facet.to_owned(), value.to_owned(), n.parse()?)),
            _ => bail!("not a facet line: {line:?}"),
        })
        .collect::<Result<_>>()?;
    Ok((
        hits.into_iter().map(parse_line).collect::<Result<_>>()?,
        facets,
    ))
}

/// `nomos search` over `field` (`text` or `augmented`) with BM25.
pub fn search_field(blob: &Path, query: &str, k: usize, field: &str) -> Result<Vec<CliHit>> {
    search_with(blob, query, k, &["--field", field])
}

/// The last line of `nomos eval --field <field> --context`: its context
/// summary (`context outranks the gold in 7 of 35 queries`).
pub fn eval_context(blob: &Path, field: &str, dir: &Path) -> Result<String> {
    let out = run(Command::new(nomos_cli()?)
        .arg("eval")
        .arg("--index")
        .arg(blob)
        .args(["--field", field, "--context", "--run"])
        .arg(dir.join(format!("{field}.trec")))
        .arg("--metrics")
        .arg(dir.join(format!("{field}.json"))))?;
    out.lines()
        .last()
        .map(str::to_owned)
        .context("nomos eval printed nothing")
}

/// `nomos model embed --model <model> <texts>`: each text's query
/// embedding, computed natively.
pub fn embed_queries(model: &Path, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
    let out = run(Command::new(nomos_cli()?)
        .args(["model", "embed", "--model"])
        .arg(model)
        .args(texts))?;
    out.lines()
        .map(|line| serde_json::from_str(line).with_context(|| format!("embedding {line:.40}")))
        .collect()
}

/// The command's stdout, or its stderr in the error.
/// `nomos build ARGS`, which must succeed.
pub fn build<I, S>(args: I) -> Result<()>
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    run(Command::new(nomos_cli()?).arg("build").args(args)).map(drop)
}

/// `nomos ARGS…`, for a command the helpers above do not cover
/// (`make-queries`).
pub fn nomos<I, S>(args: I) -> Result<()>
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    run(Command::new(nomos_cli()?).args(args)).map(drop)
}

fn run(command: &mut Command) -> Result<String> {
    let out = command
        .output()
        .with_context(|| format!("running {command:?}"))?;
    ensure!(
        out.status.success(),
        "{command:?} failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(String::from_utf8(out.stdout)?)
}

/// `rank<TAB>id<TAB>score`.
fn parse_line(line: &str) -> Result<CliHit> {
    let fields: Vec<&str> = line.split('\t').collect();
    let [_, id, score] = fields[..] else {
        bail!("unexpected nomos search output line {line:?}");
    };
    Ok(CliHit {
        id: id.to_owned(),
        score: score
            .parse()
            .with_context(|| format!("score in {line:?}"))?,
    })
}

/// The means of a `nomos eval --metrics` file, in its order, read from its
/// text with Rust's exact float parsing (serde_json's default parser may be
/// an ulp off); an error if it has none or no per-query values.
pub fn metrics_means(metrics: &str) -> Result<Vec<(String, f64)>> {
    let mut means = Vec::new();
    for line in metrics.lines().filter(|l| l.starts_with("  \"")) {
        let (key, value) = line[3..]
            .split_once("\": ")
            .with_context(|| format!("unexpected metrics line {line:?}"))?;
        if key != "per_query" {
            means.push((key.to_owned(), value.trim_end_matches(',').parse()?));
        }
    }
    let json: serde_json::Value = serde_json::from_str(metrics)?;
    ensure!(
        !means.is_empty() && json["per_query"].is_object(),
        "no means in {metrics}"
    );
    Ok(means)
}
