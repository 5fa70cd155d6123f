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

/// `nomos search --index <blob> -k <k> <query>`, with the blob's own
/// ranking method (as the app uses by default).
pub fn search(blob: &Path, query: &str, k: usize) -> Result<Vec<CliHit>> {
    let cli = nomos_cli()?;
    let out = Command::new(&cli)
        .arg("search")
        .arg("--index")
        .arg(blob)
        .arg("--top")
        .arg(k.to_string())
        .arg(query)
        .output()
        .with_context(|| format!("running {}", cli.display()))?;
    ensure!(
        out.status.success(),
        "nomos search failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)?
        .lines()
        .map(parse_line)
        .collect()
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
