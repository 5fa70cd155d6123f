//! `nomos synth`: large pools made reproducibly from real text, for testing
//! and benchmarking at 10^4–10^6 chunks. An order-2 word Markov chain
//! trained on a real pool's sentences ([`markov`]) writes the text; the
//! shape (documents per act, lengths, references per document) is drawn
//! from the real pool's own distributions. The output is a source directory
//! `nomos build` reads, written one act at a time (memory stays flat), with
//! a PROVENANCE.md saying it is synthetic. Every id, title and act name
//! says "synthetic", so no one mistakes it for law.

mod da;
mod draw;
mod el;
mod markov;
mod sentences;
mod text;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use indicatif::ProgressBar;

use crate::error::bad_input;
use crate::sources::pool::{Pool, SourceFile};
use draw::Draw;

/// Which real pools the text and shape come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    /// The Danish acts (`da-statutes/`), written as `da-acts`.
    Da,
    /// The Greek acts and Constitution (`el-nomothesia/`, `el-syntagma/`),
    /// written as `el-nomothesia`.
    El,
}

impl Language {
    /// Whether that format's reader resolves the references written
    /// (`el-nomothesia`'s resolves none: they stay text).
    pub fn resolves_references(self) -> bool {
        self == Language::Da
    }

    /// The `nomos build --format` that reads the output.
    pub fn format(self) -> &'static str {
        match self {
            Language::Da => "da-acts",
            Language::El => "el-nomothesia",
        }
    }
}

/// What to make.
pub struct Options {
    pub from: Language,
    /// Documents of the built pool (chunks: what the blob indexes).
    pub docs: usize,
    pub seed: u64,
    /// The real pools' parent folder (the repository's `data/`).
    pub data: PathBuf,
    /// New or empty directory to write.
    pub out: PathBuf,
}

/// What was written.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Written {
    pub docs: usize,
    pub acts: usize,
    /// Cross-references written: for Danish, the graph edges the builder
    /// will resolve; for Greek, reference phrases (see [`Language`]).
    pub refs: usize,
}

/// The real pools a synthetic one was drawn from, for PROVENANCE.md.
pub struct Real {
    /// `(dataset, files)` per real pool read.
    pools: Vec<(String, Vec<SourceFile>)>,
    /// Resolved references, and the documents they were counted over.
    refs: usize,
    counted: usize,
}

impl Real {
    fn new(pool: &Pool, refs: usize, counted: usize) -> Real {
        Real {
            pools: vec![(pool.dataset.clone(), pool.files.clone())],
            refs,
            counted,
        }
    }
}

/// Where the documents go, and the progress bar they advance.
pub struct Sink {
    out: PathBuf,
    bar: ProgressBar,
}

impl Sink {
    fn path(&self, name: &str) -> PathBuf {
        self.out.join(name)
    }

    /// One more document written.
    fn doc(&self) {
        self.bar.inc(1);
    }
}

/// Trains on the real pool, then writes `options.docs` documents and
/// PROVENANCE.md into `options.out`.
pub fn run(options: &Options, bar: ProgressBar) -> Result<Written> {
    if options.docs == 0 {
        return Err(bad_input("--docs must be at least 1"));
    }
    // The real pools are read first, so a wrong --data leaves no output.
    enum Trained {
        Da(da::Model),
        El(el::Model),
    }
    let (model, real) = match options.from {
        Language::Da => {
            let (model, real) = da::train(&real_dir(&options.data, "da-statutes")?)?;
            (Trained::Da(model), real)
        }
        Language::El => {
            let (model, real) = el::train(
                &real_dir(&options.data, "el-nomothesia")?,
                &real_dir(&options.data, "el-syntagma")?,
            )?;
            (Trained::El(model), real)
        }
    };
    prepare_out(&options.out)?;
    let mut draw = Draw::new(options.seed);
    let mut sink = Sink {
        out: options.out.clone(),
        bar,
    };
    let written = match &model {
        Trained::Da(model) => da::write(model, options.docs, &mut draw, &mut sink)?,
        Trained::El(model) => el::write(model, options.docs, &mut draw, &mut sink)?,
    };
    sink.bar.finish_and_clear();
    let path = options.out.join("PROVENANCE.md");
    std::fs::write(&path, provenance(options, &written, &real))
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(written)
}

/// `data/NAME`, which must exist.
fn real_dir(data: &Path, name: &str) -> Result<PathBuf> {
    let dir = data.join(name);
    if !dir.is_dir() {
        return Err(bad_input(format!(
            "{}: no such directory (--data names the folder holding the real pools, e.g. the repository's data/)",
            dir.display()
        )));
    }
    Ok(dir)
}

/// Creates `out`, or accepts it empty: a synthetic pool is never mixed
/// with other files.
fn prepare_out(out: &Path) -> Result<()> {
    if out.exists() {
        let mut entries = std::fs::read_dir(out)
            .map_err(|e| bad_input(format!("{}: cannot list: {e}", out.display())))?;
        if entries.next().is_some() {
            return Err(bad_input(format!(
                "{}: not empty; --out must be a new or empty directory",
                out.display()
            )));
        }
        return Ok(());
    }
    std::fs::create_dir_all(out)
        .map_err(|e| bad_input(format!("{}: cannot create: {e}", out.display())))
}

/// PROVENANCE.md: synthetic, from what, how to make it again.
fn provenance(options: &Options, written: &Written, real: &Real) -> String {
    let mut s = String::new();
    let rate = |refs: usize, docs: usize| refs as f64 / docs.max(1) as f64;
    let _ = write!(
        s,
        "# SYNTHETIC TEXT — NOT LAW\n\n\
         Every document here was generated by `nomos synth` for testing and benchmarking \
         at scale. The words are sampled from an order-2 word Markov chain trained on real \
         statutes; the sentences, acts, numbers and references are invented. Nothing here \
         is, quotes or summarises any law. Ids, titles and act names say \"synthetic\".\n\n\
         - command: `nomos synth --from {from} --docs {docs} --seed {seed}`\n\
         - read by: `nomos build --format {format}`\n\
         - written: {docs} documents in {acts} synthetic acts; {refs} cross-references \
         ({rate:.3} per document; the real pool has {real_rate:.3} per stykke or article){graph}\n\
         - the same command and real files give the same bytes\n\n\
         ## Real sources the chain and the distributions were drawn from\n\n",
        from = match options.from {
            Language::Da => "da",
            Language::El => "el",
        },
        docs = written.docs,
        seed = options.seed,
        format = options.from.format(),
        acts = written.acts,
        refs = written.refs,
        rate = rate(written.refs, written.docs),
        real_rate = rate(real.refs, real.counted),
        graph = match options.from.resolves_references() {
            true => ", each an edge of the built graph",
            false =>
                ", written as text only: the reader resolves none, so the built graph is empty",
        },
    );
    for (dataset, files) in &real.pools {
        let _ = writeln!(
            s,
            "`{dataset}` (its own PROVENANCE.md says where it comes from):\n"
        );
        for f in files {
            let _ = writeln!(s, "- `{}` sha256 `{}`", f.name, f.sha256);
        }
        s.push('\n');
    }
    s
}
