//! `nomos trec-eval QRELS RUN`: metrics JSON on stdout.

use std::path::Path;

use anyhow::Result;
use nomos_core::eval::parse_trec_run;

use super::metrics_json::{evaluate_reported, to_json};
use crate::error::bad_input;
use crate::sources::qrels::read_core_qrels;
use crate::sources::text_file::read_required;

pub fn run(qrels: &Path, run: &Path) -> Result<()> {
    let qrels = read_core_qrels(qrels)?;
    let file = read_required(run, "run")?;
    let run = parse_trec_run(file.text()?)
        .map_err(|e| bad_input(format!("{}:{}: {}", file.path, e.line, e.reason)))?;
    let eval = evaluate_reported(&qrels, &run);
    println!("{}", serde_json::to_string_pretty(&to_json(&eval))?);
    Ok(())
}
