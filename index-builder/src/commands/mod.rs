//! One module per subcommand; `run` dispatches.

mod analyze;
mod augment;
mod build;
mod chunks;
mod compare;
mod context_field;
mod context_report;
mod dense_probe;
mod dense_probe_fragments;
mod eval;
mod explained;
mod fetch;
mod fragment;
mod info;
mod llm_corpus;
mod llm_queries;
mod llm_report;
mod llm_run;
mod make_queries;
mod manifest;
mod method;
mod metrics_json;
mod model;
mod narrowed;
mod plan;
mod ranking;
mod search;
mod search_fragments;
mod split;
mod synth;
mod trec_eval;

use anyhow::Result;
use nomos_core::analysis::Analyzer;

use crate::cli::{Cli, Command, FetchCommand, ModelCommand};
use crate::error::bad_input;

pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Analyze { analyzer } => analyze::run(&analyzer),
        Command::Search(args) => search::run(&args),
        Command::Eval(args) => eval::run(&args),
        Command::DenseProbe(args) => match &args.fragments {
            Some(dir) => dense_probe_fragments::run(dir, &args),
            None => dense_probe::run(&args),
        },
        Command::TrecEval { qrels, run } => trec_eval::run(&qrels, &run),
        Command::Compare(args) => compare::run(&args),
        Command::Build(args) => build::run(args),
        Command::Augment(args) if args.context => context_field::run(&args),
        Command::Augment(args) => augment::run(&args),
        Command::MakeQueries(args) => make_queries::run(&args),
        Command::Chunks(args) => chunks::run(&args),
        Command::Info { blob } => info::run(&blob),
        Command::Split(args) => split::run(&args),
        Command::Fragment(args) => fragment::run(&args),
        Command::Plan(args) => plan::run(&args),
        Command::Synth(args) => synth::run(&args),
        Command::Manifest { dir } => manifest::run(&dir),
        Command::Fetch(FetchCommand::Hf {
            repo,
            revision,
            out,
        }) => fetch::hf(&repo, &revision, &out),
        Command::Model(ModelCommand::Prepare(args)) => model::prepare(&args),
        Command::Model(ModelCommand::Embed(args)) => model::embed(&args),
        Command::Model(ModelCommand::Texts(args)) => model::texts(&args),
    }
}

/// Looks up an analyzer, turning an unknown name into a bad-input error that
/// lists the valid ones.
pub fn analyzer_by_name(name: &str) -> Result<Analyzer> {
    Analyzer::by_name(name).map_err(bad_input)
}
