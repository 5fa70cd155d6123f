//! `nomos compare --qrels Q RUN_A RUN_B`: is B better than A? Per measure,
//! the paired t-test and randomization test with Holm's correction
//! (`nomos_core::eval::significance`), as JSON, Markdown or LaTeX.

use std::path::Path;

use anyhow::Result;
use nomos_core::eval::significance::{compare, latex, markdown, Settings};
use nomos_core::eval::{evaluate, parse_trec_run, reported, Measure, Run};

use crate::cli::{CompareArgs, CompareFormat};
use crate::error::bad_input;
use crate::sources::qrels::read_core_qrels;
use crate::sources::text_file::read_required;

pub fn run(args: &CompareArgs) -> Result<()> {
    let measures = match &args.measures {
        None => reported(),
        Some(list) => list
            .split(',')
            .map(|m| m.trim().parse::<Measure>().map_err(bad_input))
            .collect::<Result<_>>()?,
    };
    let qrels = read_core_qrels(&args.qrels)?;
    let a = evaluate(&qrels, &read_run(&args.run_a)?, &measures);
    let b = evaluate(&qrels, &read_run(&args.run_b)?, &measures);
    let settings = Settings {
        permutations: args.permutations,
        seed: args.seed,
        alpha: args.alpha,
    };
    let comparison = compare(&a, &b, &measures, settings).map_err(|e| {
        bad_input(format!(
            "{} vs {}: {e}",
            args.run_a.display(),
            args.run_b.display()
        ))
    })?;
    match args.format {
        CompareFormat::Json => println!("{}", serde_json::to_string_pretty(&comparison)?),
        CompareFormat::Markdown => print!("{}", markdown(&comparison)),
        CompareFormat::Latex => print!("{}", latex(&comparison)),
    }
    Ok(())
}

fn read_run(path: &Path) -> Result<Run> {
    let file = read_required(path, "run")?;
    parse_trec_run(file.text()?)
        .map_err(|e| bad_input(format!("{}:{}: {}", file.path, e.line, e.reason)))
}
