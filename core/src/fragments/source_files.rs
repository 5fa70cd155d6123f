//! Which files one source (an act) of a fragmented pool needs, so that its
//! documents can be kept for use with no network ("Keep this act offline")
//! without fetching anything but directory pages: the pages listing its
//! documents fragments, then through them those fragments and their size.

use std::ops::Range;

use super::meta::Meta;
use super::pages::DocsPage;
use super::FragmentError;

/// The files holding one source's documents, as its directory pages list
/// them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFiles {
    /// The directory pages listing its documents fragments, ascending.
    pub pages: Vec<usize>,
    /// Its documents fragments, ascending and each once.
    pub docs: Vec<usize>,
    /// The pages' and the documents fragments' listed lengths together:
    /// what keeping the source offline fetches.
    pub bytes: u64,
}

impl Meta {
    /// The documents of source `name`, run by run; an unknown name is an
    /// error, not an empty act.
    fn source_runs(&self, name: &str) -> Result<Vec<Range<u32>>, FragmentError> {
        let runs = self.source_docs(name);
        match runs.is_empty() {
            true => Err(FragmentError::Input(format!(
                "the pool has no source named {name:?}"
            ))),
            false => Ok(runs),
        }
    }

    /// The numbers of the directory pages listing source `name`'s
    /// documents fragments, ascending and each once: what
    /// [`Self::source_files`] needs given.
    pub fn source_pages(&self, name: &str) -> Result<Vec<usize>, FragmentError> {
        let mut pages = Vec::new();
        for run in self.source_runs(name)? {
            let (first, last) = (self.docs.page_of(run.start), self.docs.page_of(run.end - 1));
            pages.extend((first..=last).map(|p| self.docs.pages[p]));
        }
        pages.sort_unstable();
        pages.dedup();
        Ok(pages)
    }

    /// The files holding source `name`'s documents, through `pages` (those
    /// [`Self::source_pages`] named; a page not given is
    /// [`FragmentError::Missing`]).
    pub fn source_files(
        &self,
        pages: &[&DocsPage],
        name: &str,
    ) -> Result<SourceFiles, FragmentError> {
        let numbers = self.source_pages(name)?;
        let runs = self.source_runs(name)?;
        let mut held: Vec<(usize, u64)> = Vec::new();
        for &number in &numbers {
            let page = pages.iter().find(|p| p.number() == number).ok_or_else(|| {
                FragmentError::Missing {
                    file: self.fragments[number].file.clone(),
                }
            })?;
            let overlaps = |d: Range<u32>| runs.iter().any(|r| d.start < r.end && r.start < d.end);
            held.extend(
                page.fragments()
                    .filter(|&(n, _)| page.docs_of(n).is_some_and(overlaps))
                    .map(|(n, f)| (n, f.len)),
            );
        }
        held.sort_unstable();
        held.dedup();
        // Lengths are untrusted (a forged page may list any).
        let lens = numbers.iter().map(|&n| self.fragments[n].len);
        let bytes = lens
            .chain(held.iter().map(|&(_, len)| len))
            .try_fold(0u64, u64::checked_add)
            .ok_or_else(|| {
                FragmentError::Input(format!("{name}: its files' sizes add up past 2^64 bytes"))
            })?;
        let docs = held.into_iter().map(|(n, _)| n).collect();
        Ok(SourceFiles {
            pages: numbers,
            docs,
            bytes,
        })
    }
}
