//! Opening documents fragments: ids, titles, display text and
//! cross-references of a range of documents.

use std::ops::Range;

use rkyv::util::AlignedVec;

use super::format::{ArchivedDocsSection, DOCS_TAG};
use super::meta::{checked_as, refused, Meta};
use super::pages::DocsPage;
use super::FragmentError;
use crate::blob::format::{ArchivedCsr, ArchivedTextSection};
use crate::blob::{access, ArticleText, BlobError};

/// One checked documents fragment.
#[derive(Debug, Clone)]
pub struct DocFragment {
    number: usize,
    docs: Range<u32>,
    ids: Vec<String>,
    titles: Vec<String>,
    /// The checked `DocsSection`, for its text.
    section: AlignedVec<16>,
    explicit: Vec<Vec<u32>>,
    implicit: Vec<Vec<u32>>,
}

impl Meta {
    /// Checks `bytes` as documents fragment `number`, which `page` lists:
    /// its frame, that it is the file the page lists, its archive, and its
    /// contents (the range the page gives it, the text blocks as
    /// a blob's are checked, every block inflated, and the references).
    pub fn open_docs(
        &self,
        page: &DocsPage,
        number: usize,
        bytes: &[u8],
    ) -> Result<DocFragment, FragmentError> {
        let (Some(listed), Some(range)) = (page.fragment(number), page.docs_of(number)) else {
            return Err(FragmentError::Input(format!(
                "directory page {} lists no documents fragment number {number}",
                page.number()
            )));
        };
        let section = checked_as(listed, bytes, DOCS_TAG)?;
        let inconsistent = |e: String| refused(listed, format!("is inconsistent: {e}"));
        let d: &ArchivedDocsSection =
            access(&section, "documents").map_err(|e| inconsistent(e.to_string()))?;
        if d.first_doc.to_native() != range.start {
            return Err(inconsistent(format!(
                "it starts at document {}, the meta says {}",
                d.first_doc.to_native(),
                range.start
            )));
        }
        let n = range.len();
        let check = |r: Result<(), BlobError>| r.map_err(|e| inconsistent(e.to_string()));
        check(d.ids.validate("documents", "ids", Some(n)))?;
        check(d.titles.validate("documents", "titles", Some(n)))?;
        check(d.text.validate(n))?;
        check(
            d.explicit
                .validate_rows("explicit", n, self.n_docs as usize),
        )?;
        check(
            d.implicit
                .validate_rows("implicit", n, self.n_docs as usize),
        )?;
        let rows = |csr: &ArchivedCsr| (0..n).map(|i| csr.neighbours(i).collect()).collect();
        Ok(DocFragment {
            number,
            ids: d.ids.iter().map(str::to_owned).collect(),
            titles: d.titles.iter().map(str::to_owned).collect(),
            explicit: rows(&d.explicit),
            implicit: rows(&d.implicit),
            docs: range,
            section,
        })
    }
}

impl DocFragment {
    /// Its number in the meta's list.
    pub fn number(&self) -> usize {
        self.number
    }

    /// About the memory it holds, for a cache to count.
    pub fn heap_bytes(&self) -> usize {
        let strings: usize = self
            .ids
            .iter()
            .chain(&self.titles)
            .map(|s| s.len() + 24)
            .sum();
        let refs: usize = self
            .explicit
            .iter()
            .chain(&self.implicit)
            .map(|r| 4 * r.len() + 24)
            .sum();
        self.section.len() + strings + refs
    }

    /// The documents it holds.
    pub fn docs(&self) -> Range<u32> {
        self.docs.clone()
    }

    /// `doc`'s position here, if it is here.
    fn local(&self, doc: u32) -> Option<usize> {
        self.docs
            .contains(&doc)
            .then(|| (doc - self.docs.start) as usize)
    }

    /// Document `doc`'s id.
    pub fn id(&self, doc: u32) -> Option<&str> {
        self.ids.get(self.local(doc)?).map(String::as_str)
    }

    /// Document `doc`'s title.
    pub fn title(&self, doc: u32) -> Option<&str> {
        self.titles.get(self.local(doc)?).map(String::as_str)
    }

    /// The documents `doc` cites.
    pub fn explicit_refs(&self, doc: u32) -> Option<&[u32]> {
        self.explicit.get(self.local(doc)?).map(Vec::as_slice)
    }

    /// Document `doc`'s siblings.
    pub fn implicit_refs(&self, doc: u32) -> Option<&[u32]> {
        self.implicit.get(self.local(doc)?).map(Vec::as_slice)
    }

    /// Document `doc`'s display text (its block inflated anew).
    pub fn article(&self, doc: u32) -> Result<ArticleText, FragmentError> {
        let local = self.local(doc).ok_or_else(|| {
            FragmentError::Input(format!("document {doc} is not in this fragment"))
        })?;
        let refused = |e: BlobError| FragmentError::Input(e.to_string());
        let d: &ArchivedDocsSection = access(&self.section, "documents").map_err(refused)?;
        let text: &ArchivedTextSection = &d.text;
        text.article(local).map_err(refused)
    }
}
