//! `nomos`: the native side of Nomos. It reads article pools and benchmark
//! files, analyses and indexes them with `nomos-core` (the same code the
//! browser runs), searches and evaluates, and writes index blobs.

mod blob_file;
mod cli;
mod commands;
mod definition_uses;
mod embedder;
mod error;
mod fetch;
mod interrupt;
mod llm;
mod model;
mod progress;
mod sources;
mod synth;
mod terms;

use clap::Parser;

fn main() {
    error::install_panic_hook();
    let cli = cli::Cli::parse();
    if let Err(err) = commands::run(cli) {
        eprintln!("error: {err:#}");
        std::process::exit(error::exit_code(&err));
    }
}
