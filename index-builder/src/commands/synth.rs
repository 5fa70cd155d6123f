//! `nomos synth`: writes a synthetic pool (see [`crate::synth`]).

use anyhow::Result;

use crate::cli::{SynthArgs, SynthFrom};
use crate::progress;
use crate::synth::{self, Language, Options};

pub fn run(args: &SynthArgs) -> Result<()> {
    let options = Options {
        from: match args.from {
            SynthFrom::Da => Language::Da,
            SynthFrom::El => Language::El,
        },
        docs: args.docs,
        seed: args.seed,
        data: args.data.clone(),
        out: args.out.clone(),
    };
    let started = std::time::Instant::now();
    let written = synth::run(&options, progress::bar(args.docs, "synthesising"))?;
    eprintln!(
        "wrote {} synthetic documents in {} acts ({} cross-references{}) to {} in {:.1} s; \
         build with `nomos build --format {} {} --title \"SYNTHETIC, not law\" -o POOL.blob`",
        written.docs,
        written.acts,
        written.refs,
        match options.from.resolves_references() {
            true => "",
            false => ", as text: the reader resolves none",
        },
        args.out.display(),
        started.elapsed().as_secs_f64(),
        options.from.format(),
        args.out.display()
    );
    Ok(())
}
