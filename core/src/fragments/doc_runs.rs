//! Which source, and which legal area, each document of a fragmented
//! pool is from, as runs of consecutive documents in the meta. Filters
//! and facets count and narrow a whole ranking, and "Go to" finds an
//! act's documents, before any documents fragment is fetched; documents
//! of one act are consecutive, so a pool of 1.6 M stykker in 26 k acts
//! needs 26 k runs, not a value per document.

use super::format::{ArchivedDocRun, DocRun};
use crate::blob::format::NONE;

/// Runs of a value over a pool's documents, checked: they tile the
/// documents, and each value indexes a table of `n_values` names (or is
/// [`NONE`] where that is allowed).
#[derive(Debug, Clone, Default)]
pub(super) struct DocRuns {
    /// Each run's first document, ascending from 0.
    starts: Vec<u32>,
    values: Vec<u32>,
    n_docs: u32,
}

/// The runs of `values` (one per document, in document order).
pub(super) fn runs_of(values: impl IntoIterator<Item = u32>) -> Vec<DocRun> {
    let mut runs: Vec<DocRun> = Vec::new();
    for value in values {
        match runs.last_mut() {
            Some(run) if run.value == value => run.docs += 1,
            _ => runs.push(DocRun { docs: 1, value }),
        }
    }
    runs
}

impl DocRuns {
    /// Checks archived `runs` of `what` against `n_docs` documents and
    /// `n_values` names; `none` allows [`NONE`] (a document with no value).
    pub fn load(
        runs: &[ArchivedDocRun],
        what: &str,
        n_docs: u32,
        n_values: usize,
        none: bool,
    ) -> Result<DocRuns, String> {
        let mut starts = Vec::with_capacity(runs.len());
        let mut values = Vec::with_capacity(runs.len());
        let mut next = 0u32;
        for run in runs {
            let (docs, value) = (run.docs.to_native(), run.value.to_native());
            let fits = (value as usize) < n_values || (none && value == NONE);
            if docs == 0 || !fits {
                return Err(format!(
                    "{what}: a run of {docs} documents with value {value} of {n_values}"
                ));
            }
            starts.push(next);
            values.push(value);
            next = next
                .checked_add(docs)
                .filter(|&n| n <= n_docs)
                .ok_or_else(|| format!("{what}: the runs go past the {n_docs} documents"))?;
        }
        if next != n_docs {
            return Err(format!(
                "{what}: the runs cover {next} of the {n_docs} documents"
            ));
        }
        Ok(DocRuns {
            starts,
            values,
            n_docs,
        })
    }

    /// Document `doc`'s value; `None` past the documents or where it has
    /// none.
    pub fn value(&self, doc: u32) -> Option<u32> {
        if doc >= self.n_docs {
            return None;
        }
        let run = self.starts.partition_point(|&s| s <= doc).checked_sub(1)?;
        Some(self.values[run]).filter(|&v| v != NONE)
    }

    /// The documents whose value is `value`, run by run.
    pub fn docs_of(&self, value: u32) -> impl Iterator<Item = std::ops::Range<u32>> + '_ {
        let ends = self.starts.iter().skip(1).copied().chain([self.n_docs]);
        self.starts
            .iter()
            .zip(ends)
            .zip(&self.values)
            .filter(move |(_, &v)| v == value)
            .map(|((&s, e), _)| s..e)
    }
}
