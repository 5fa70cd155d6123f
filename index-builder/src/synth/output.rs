//! What the writers share: where documents go, what was written, and
//! what the real pools were, for PROVENANCE.md.

use std::path::PathBuf;

use indicatif::ProgressBar;

use crate::sources::dataset::{Dataset, SourceFile};

/// What was written.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Written {
    pub docs: usize,
    pub acts: usize,
    /// Cross-references written: for Danish, the graph edges the builder
    /// will resolve; for Greek, reference phrases (see `Language::resolves_references`).
    pub refs: usize,
}

/// The real pools a synthetic one was drawn from, for PROVENANCE.md.
pub struct Real {
    /// `(dataset, files)` per real pool read.
    pub pools: Vec<(String, Vec<SourceFile>)>,
    /// Resolved references, and the documents they were counted over.
    pub refs: usize,
    pub counted: usize,
}

impl Real {
    pub fn new(pool: &Dataset, refs: usize, counted: usize) -> Real {
        Real {
            pools: vec![(pool.dataset.clone(), pool.files.clone())],
            refs,
            counted,
        }
    }
}

/// Where the documents go, and the progress bar they advance.
pub struct Sink {
    pub out: PathBuf,
    pub bar: ProgressBar,
}

impl Sink {
    pub fn path(&self, name: &str) -> PathBuf {
        self.out.join(name)
    }

    /// One more document written.
    pub fn doc(&self) {
        self.bar.inc(1);
    }
}
