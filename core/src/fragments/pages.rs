//! The documents directory's pages: which pages a result list's documents
//! need, a page checked against the meta, and through the pages the
//! documents fragments holding those documents.

use std::ops::Range;

use super::format::{fragment_file, ArchivedDocsPageSection, DOCS_PAGE_TAG};
use super::meta::Meta;
use super::{FragmentError, FragmentKind, FragmentRef};
use crate::blob::access;

/// One checked directory page: a run of consecutive documents fragments,
/// each one's first document, hash and length.
#[derive(Debug, Clone)]
pub struct DocsPage {
    number: usize,
    /// The number of its first documents fragment.
    first: usize,
    /// The first document of each of its fragments, ascending.
    starts: Vec<u32>,
    /// The document after its last fragment's last.
    end: u32,
    fragments: Vec<FragmentRef>,
}

impl Meta {
    /// Every directory page's fragment number, in page order: together
    /// they list every documents fragment.
    pub fn pages(&self) -> &[usize] {
        &self.docs.pages
    }

    /// The numbers of the directory pages listing the documents fragments
    /// that hold `docs` (a result list's documents, say), ascending and
    /// each once.
    pub fn needed_pages(&self, docs: &[u32]) -> Result<Vec<usize>, FragmentError> {
        let mut needed = Vec::with_capacity(docs.len());
        for &doc in docs {
            needed.push(self.docs.pages[self.docs.page_of(self.in_pool(doc)?)]);
        }
        needed.sort_unstable();
        needed.dedup();
        Ok(needed)
    }

    /// Checks `bytes` as directory page `number`: its frame, that it is
    /// the file the meta lists, its archive, and that it lists the run of
    /// documents fragments the meta gives it, from the page's first
    /// document, ascending within the page's documents.
    pub fn open_page(&self, number: usize, bytes: &[u8]) -> Result<DocsPage, FragmentError> {
        let section = self.checked(number, bytes, DOCS_PAGE_TAG)?;
        let inconsistent = |e: String| self.refused(number, format!("is inconsistent: {e}"));
        let d: &ArchivedDocsPageSection =
            access(&section, "directory page").map_err(|e| inconsistent(e.to_string()))?;
        let p = self
            .docs
            .pages
            .iter()
            .position(|&n| n == number)
            .ok_or_else(|| inconsistent("the meta lists it as no directory page".into()))?;
        let first = p * self.docs.per_page;
        let len = self.docs.page_len(p);
        let end = self
            .docs
            .page_starts
            .get(p + 1)
            .copied()
            .unwrap_or(self.n_docs);
        let starts: Vec<u32> = d.first_docs.iter().map(|s| s.to_native()).collect();
        if d.first_fragment.to_native() as usize != first
            || starts.len() != len
            || d.fragments.len() != len
        {
            return Err(inconsistent(format!(
                "it lists {} fragments from the {}th, the meta says {len} from the {first}th",
                d.fragments.len(),
                d.first_fragment.to_native()
            )));
        }
        if starts.first() != Some(&self.docs.page_starts[p])
            || starts.windows(2).any(|w| w[0] >= w[1])
            || starts.last().is_some_and(|&s| s >= end)
        {
            return Err(inconsistent(
                "its fragments' documents do not tile the page's".into(),
            ));
        }
        let fragments = d
            .fragments
            .iter()
            .map(|f| {
                let hash = f.hash.to_native();
                FragmentRef {
                    kind: FragmentKind::Docs,
                    file: fragment_file(hash),
                    hash,
                    len: f.len.to_native(),
                }
            })
            .collect();
        Ok(DocsPage {
            number,
            first: self.fragments.len() + first,
            starts,
            end,
            fragments,
        })
    }

    /// The numbers of the documents fragments that hold `docs`,
    /// ascending and each once, as `pages` list them (those
    /// [`Self::needed_pages`] named; a page not given is
    /// [`FragmentError::Missing`]).
    pub fn needed_docs(
        &self,
        pages: &[&DocsPage],
        docs: &[u32],
    ) -> Result<Vec<usize>, FragmentError> {
        let mut needed = Vec::with_capacity(docs.len());
        for &doc in docs {
            let number = self.docs.pages[self.docs.page_of(self.in_pool(doc)?)];
            let page = pages.iter().find(|p| p.number == number).ok_or_else(|| {
                FragmentError::Missing {
                    file: self.fragments[number].file.clone(),
                }
            })?;
            needed.push(page.first + page.starts.partition_point(|&s| s <= doc) - 1);
        }
        needed.sort_unstable();
        needed.dedup();
        Ok(needed)
    }

    /// `doc`, if the pool has it.
    fn in_pool(&self, doc: u32) -> Result<u32, FragmentError> {
        match doc < self.n_docs {
            true => Ok(doc),
            false => Err(FragmentError::Input(format!(
                "document {doc} is not in the pool's {} documents",
                self.n_docs
            ))),
        }
    }
}

impl DocsPage {
    /// Its number in the meta's list.
    pub fn number(&self) -> usize {
        self.number
    }

    /// The documents fragments it lists, with their numbers.
    pub fn fragments(&self) -> impl Iterator<Item = (usize, &FragmentRef)> {
        (self.first..).zip(&self.fragments)
    }

    /// Documents fragment `number`, if this page lists it.
    pub fn fragment(&self, number: usize) -> Option<&FragmentRef> {
        self.fragments.get(number.checked_sub(self.first)?)
    }

    /// The documents of documents fragment `number`, if this page lists
    /// it.
    pub fn docs_of(&self, number: usize) -> Option<Range<u32>> {
        let at = number.checked_sub(self.first)?;
        let start = *self.starts.get(at)?;
        Some(start..self.starts.get(at + 1).copied().unwrap_or(self.end))
    }
}
