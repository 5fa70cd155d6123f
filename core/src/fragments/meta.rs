//! [`Meta`]: the meta file, checked; which fragments a query or a result
//! list needs; the checks every fragment file passes first.

use rkyv::util::AlignedVec;
use xxhash_rust::xxh3::xxh3_128;

use super::doc_runs::DocRuns;
use super::format::{
    fragment_file, fragment_hash, ArchivedDenseMeta, ArchivedDocsMeta, ArchivedMetaSection,
    PoolInfo, FRAGMENT_MAGIC, FRAGMENT_VERSION, META_MAGIC, META_TAG,
};
use super::{FragmentError, FragmentKind, FragmentRef};
use crate::analysis::Analyzer;
use crate::blob::{access, aligned, frame, BlobError, Field};
use crate::search::Bm25Params;

const SECTION: &str = "meta";

/// A loaded meta file: what ranks a query besides its terms' postings.
#[derive(Debug, Clone)]
pub struct Meta {
    pub(super) analyzer: Analyzer,
    pub(super) bm25: Bm25Params,
    pub(super) info: PoolInfo,
    pub(super) content_hash: u128,
    pub(super) n_docs: u32,
    pub(super) fields: Vec<FieldDirectory>,
    pub(super) sources: Vec<String>,
    /// Each document's source: an index into `sources`.
    source_runs: DocRuns,
    areas: Vec<String>,
    /// Each document's area, where it has one: an index into `areas`.
    area_runs: DocRuns,
    /// Where the documents fragments are listed.
    pub(super) docs: DocsDirectory,
    /// The fragments the meta lists (all but the documents fragments).
    pub(super) fragments: Vec<FragmentRef>,
    /// The vectors' inverted lists, if the pool was cut with them.
    pub(super) dense: Option<DenseDirectory>,
}

/// The meta's directory of documents fragments, checked (see
/// `format::DocsMeta`).
#[derive(Debug, Clone)]
pub(super) struct DocsDirectory {
    pub n_fragments: usize,
    pub per_page: usize,
    pub bytes: u64,
    /// The first document of each page, ascending from 0.
    pub page_starts: Vec<u32>,
    /// The fragment number of each page.
    pub pages: Vec<usize>,
}

impl DocsDirectory {
    /// The position of the page listing the fragment of document `doc`.
    pub fn page_of(&self, doc: u32) -> usize {
        self.page_starts.partition_point(|&s| s <= doc) - 1
    }

    /// How many documents fragments page `p` lists.
    pub fn page_len(&self, p: usize) -> usize {
        self.per_page.min(self.n_fragments - p * self.per_page)
    }
}

/// The meta's dense part, checked (see `format::DenseMeta`).
#[derive(Debug, Clone)]
pub(super) struct DenseDirectory {
    pub model: String,
    pub manifest_hash: String,
    pub dim: usize,
    /// The centroids fragment's number.
    pub centroids: usize,
    pub list_sizes: Vec<u32>,
    /// The first list of each lists fragment, ascending from 0.
    pub list_starts: Vec<u32>,
    pub list_fragments: Vec<usize>,
}

impl DenseDirectory {
    /// The position in `list_starts` of the fragment holding list `l`.
    pub fn range_of(&self, l: usize) -> usize {
        self.list_starts.partition_point(|&s| s as usize <= l) - 1
    }

    /// The lists of range `at`.
    pub fn lists(&self, at: usize) -> std::ops::Range<usize> {
        let end = self
            .list_starts
            .get(at + 1)
            .map_or(self.list_sizes.len(), |&e| e as usize);
        self.list_starts[at] as usize..end
    }
}

/// One field's statistics and the first term of each of its fragments.
#[derive(Debug, Clone)]
pub(super) struct FieldDirectory {
    pub field: Field,
    pub total_len: u64,
    pub n_terms: u32,
    pub okapi_sum: f64,
    pub first_terms: Vec<String>,
    pub fragments: Vec<usize>,
}

impl FieldDirectory {
    /// Where `term` would be: its range's position in the directory
    /// (`None`: before the first term, so not in the field).
    pub fn position(&self, term: &str) -> Option<usize> {
        self.first_terms
            .partition_point(|first| first.as_str() <= term)
            .checked_sub(1)
    }
}

impl Meta {
    /// Checks `bytes` as a meta file: frame (magic, version, length,
    /// checksum), archive, and consistency (a known analyzer, valid BM25
    /// defaults, each field's directory ascending and over
    /// fragments it alone lists).
    pub fn load(bytes: &[u8]) -> Result<Meta, FragmentError> {
        let bad = |msg: String| FragmentError::Meta(BlobError::invalid(SECTION, msg));
        let table = frame::parse_as(META_MAGIC, bytes, FRAGMENT_VERSION).map_err(|e| match e {
            BlobError::UnsupportedVersion { found, supported } => bad(format!(
                "it is fragment format version {found}, this build reads version {supported}; \
                 cut the pool again (`nomos build --fragments` or `nomos fragment`)"
            )),
            e => FragmentError::Meta(e),
        })?;
        if table.len() != 1 || table[0].tag != META_TAG {
            return Err(bad("not one FMET section".into()));
        }
        let section = aligned(&bytes[table[0].offset..table[0].offset + table[0].len]);
        let m: &ArchivedMetaSection = access(&section, SECTION).map_err(FragmentError::Meta)?;
        let analyzer = Analyzer::by_name(&m.analyzer)
            .map_err(|_| bad(format!("unknown analyzer `{}`", m.analyzer)))?;
        let bm25 = Bm25Params::from(
            rkyv::deserialize::<_, rkyv::rancor::Error>(&m.bm25).map_err(|e| bad(e.to_string()))?,
        );
        bm25.validate()
            .map_err(|e| bad(format!("BM25 defaults: {e}")))?;
        let info: PoolInfo = rkyv::deserialize::<_, rkyv::rancor::Error>(&m.info)
            .map_err(|e| bad(format!("pool info: {e}")))?;
        let n_docs = m.n_docs.to_native();
        if n_docs == 0 {
            return Err(bad("no documents".into()));
        }
        let mut fragments: Vec<FragmentRef> = m
            .fragments
            .iter()
            .map(|f| FragmentRef {
                kind: FragmentKind::Postings,
                file: fragment_file(f.hash.to_native()),
                hash: f.hash.to_native(),
                len: f.len.to_native(),
            })
            .collect();
        let mut listed = vec![false; fragments.len()];
        let mut fields: Vec<FieldDirectory> = Vec::new();
        for f in m.fields.iter() {
            let field = Field::from(&f.field);
            if fields.iter().any(|d| d.field == field) {
                return Err(bad(format!("two {} directories", field.name())));
            }
            f.first_terms
                .validate(SECTION, "first terms", Some(f.fragments.len()))
                .map_err(FragmentError::Meta)?;
            let first_terms: Vec<String> = f.first_terms.iter().map(str::to_owned).collect();
            if first_terms.windows(2).any(|w| w[0] >= w[1]) {
                return Err(bad(format!("{} directory not ascending", field.name())));
            }
            let mut numbers = Vec::with_capacity(f.fragments.len());
            for n in f.fragments.iter() {
                let n = n.to_native() as usize;
                match listed.get_mut(n) {
                    Some(seen @ false) => *seen = true,
                    _ => return Err(bad(format!("fragment number {n} out of range or reused"))),
                }
                numbers.push(n);
            }
            let (total_len, okapi_sum) = (f.total_len.to_native(), f.okapi_sum.to_native());
            if total_len == 0 || !okapi_sum.is_finite() || f.n_terms.to_native() == 0 {
                return Err(bad(format!("{} statistics out of range", field.name())));
            }
            fields.push(FieldDirectory {
                field,
                total_len,
                n_terms: f.n_terms.to_native(),
                okapi_sum,
                first_terms,
                fragments: numbers,
            });
        }
        if fields.first().map(|d| d.field) != Some(Field::Text) {
            return Err(bad("the text field's directory must come first".into()));
        }
        m.sources
            .validate(SECTION, "sources", None)
            .map_err(FragmentError::Meta)?;
        m.areas
            .validate(SECTION, "areas", None)
            .map_err(FragmentError::Meta)?;
        let source_runs =
            DocRuns::load(&m.source_runs, "sources", n_docs, m.sources.count(), false)
                .map_err(bad)?;
        let area_runs =
            DocRuns::load(&m.area_runs, "areas", n_docs, m.areas.count(), true).map_err(bad)?;
        let docs = docs_directory(&m.docs, n_docs).map_err(bad)?;
        // The sizes are untrusted: their sum is what an offline copy fetches.
        if fragments
            .iter()
            .try_fold(docs.bytes, |sum, f| sum.checked_add(f.len))
            .is_none()
        {
            return Err(bad("the fragments' sizes add up past 2^64 bytes".into()));
        }
        for &n in &docs.pages {
            match listed.get_mut(n) {
                Some(seen @ false) => *seen = true,
                _ => return Err(bad(format!("fragment number {n} out of range or reused"))),
            }
            fragments[n].kind = FragmentKind::DocsPage;
        }
        let dense = match m.dense.as_ref() {
            None => None,
            Some(d) => {
                let dir = dense_directory(d).map_err(|e| bad(format!("dense lists: {e}")))?;
                let numbers = dir.list_fragments.iter().map(|&n| (n, FragmentKind::Lists));
                for (n, kind) in numbers.chain([(dir.centroids, FragmentKind::Centroids)]) {
                    match listed.get_mut(n) {
                        Some(seen @ false) => *seen = true,
                        _ => {
                            return Err(bad(format!("fragment number {n} out of range or reused")))
                        }
                    }
                    fragments[n].kind = kind;
                }
                Some(dir)
            }
        };
        if listed.contains(&false) {
            return Err(bad("a fragment no directory lists".into()));
        }
        Ok(Meta {
            analyzer,
            bm25,
            info,
            content_hash: xxh3_128(bytes),
            n_docs,
            fields,
            sources: m.sources.iter().map(str::to_owned).collect(),
            source_runs,
            areas: m.areas.iter().map(str::to_owned).collect(),
            area_runs,
            docs,
            fragments,
            dense,
        })
    }

    /// The analyzer queries must go through.
    pub fn analyzer(&self) -> Analyzer {
        self.analyzer
    }

    /// The pool's BM25 defaults.
    pub fn bm25_params(&self) -> Bm25Params {
        self.bm25
    }

    /// What the pool is (title, dataset, caveats), as the blob it was
    /// cut from or the builder's input says.
    pub fn info(&self) -> &PoolInfo {
        &self.info
    }

    /// The pool's identity: xxh3-128 over the meta file's bytes, computed
    /// on load, as a blob's content hash is; the meta lists every
    /// fragment's hash (the documents fragments' through the pages), so
    /// it covers the whole pool.
    pub fn content_hash(&self) -> u128 {
        self.content_hash
    }

    /// Documents in the pool.
    pub fn n_docs(&self) -> usize {
        self.n_docs as usize
    }

    /// Distinct source names (the acts, codes), in the pool's order.
    pub fn sources(&self) -> &[String] {
        &self.sources
    }

    /// Document `doc`'s source; `None` past the documents.
    pub fn source(&self, doc: u32) -> Option<&str> {
        let i = self.source_runs.value(doc)?;
        self.sources.get(i as usize).map(String::as_str)
    }

    /// The documents of source `name`, run by run (consecutive documents).
    pub fn source_docs(&self, name: &str) -> Vec<std::ops::Range<u32>> {
        match self.sources.iter().position(|s| s == name) {
            Some(i) => self.source_runs.docs_of(i as u32).collect(),
            None => Vec::new(),
        }
    }

    /// Document `doc`'s legal area, if it has one.
    pub fn area(&self, doc: u32) -> Option<&str> {
        let i = self.area_runs.value(doc)?;
        self.areas.get(i as usize).map(String::as_str)
    }

    /// The fragments the meta lists, by number: every kind but the
    /// documents fragments, which directory pages list (numbered from
    /// this slice's length on; see [`Self::open_page`]).
    pub fn fragments(&self) -> &[FragmentRef] {
        &self.fragments
    }

    /// Fragments in the pool, the documents fragments included.
    pub fn n_fragments(&self) -> usize {
        self.fragments.len() + self.docs.n_fragments
    }

    /// Every fragment's bytes together, the documents fragments included:
    /// what making the pool available offline fetches.
    pub fn fragment_bytes(&self) -> u64 {
        self.fragments.iter().map(|f| f.len).sum::<u64>() + self.docs.bytes
    }

    /// The documents fragments' bytes together, as the meta says (their
    /// pages list each one's).
    pub fn docs_bytes(&self) -> u64 {
        self.docs.bytes
    }

    /// The fields with postings.
    pub fn fields(&self) -> impl Iterator<Item = Field> + '_ {
        self.fields.iter().map(|d| d.field)
    }

    /// The numbers of the fragments that ranking `tokens` over `field`
    /// needs, ascending and each once: the fragment whose term range holds
    /// each token (a token outside every range needs none).
    pub fn needed<S: AsRef<str>>(
        &self,
        field: Field,
        tokens: &[S],
    ) -> Result<Vec<usize>, FragmentError> {
        let dir = self.directory(field)?;
        let mut needed: Vec<usize> = tokens
            .iter()
            .filter_map(|t| dir.position(t.as_ref()))
            .map(|p| dir.fragments[p])
            .collect();
        needed.sort_unstable();
        needed.dedup();
        Ok(needed)
    }

    /// The section of fragment `number` once `bytes` passed the frame's
    /// checks (magic, version, length, checksum), are the file the meta
    /// lists (length and hash), and hold one section tagged `tag`.
    pub(super) fn checked(
        &self,
        number: usize,
        bytes: &[u8],
        tag: [u8; 4],
    ) -> Result<AlignedVec<16>, FragmentError> {
        let listed = self.fragments.get(number).ok_or_else(|| {
            FragmentError::Input(format!("the meta lists no fragment number {number}"))
        })?;
        checked_as(listed, bytes, tag)
    }

    /// The error about fragment `number` (listed: see [`Self::checked`]).
    pub(super) fn refused(&self, number: usize, problem: String) -> FragmentError {
        refused(&self.fragments[number], problem)
    }

    pub(super) fn directory(&self, field: Field) -> Result<&FieldDirectory, FragmentError> {
        self.fields
            .iter()
            .find(|d| d.field == field)
            .ok_or_else(|| FragmentError::Input(format!("the pool has no {} field", field.name())))
    }
}

/// The section of the fragment `listed` once `bytes` passed the frame's
/// checks (magic, version, length, checksum), are that file (length and
/// hash), and hold one section tagged `tag`.
pub(super) fn checked_as(
    listed: &FragmentRef,
    bytes: &[u8],
    tag: [u8; 4],
) -> Result<AlignedVec<16>, FragmentError> {
    let table = frame::parse_as(FRAGMENT_MAGIC, bytes, FRAGMENT_VERSION)
        .map_err(|e| refused(listed, format!("is damaged: {e}")))?;
    if bytes.len() as u64 != listed.len || fragment_hash(bytes) != listed.hash {
        return Err(refused(
            listed,
            "is not the file the meta lists (another version of the pool?)".into(),
        ));
    }
    if table.len() != 1 || table[0].tag != tag {
        return Err(refused(
            listed,
            format!(
                "does not hold one {} section",
                String::from_utf8_lossy(&tag)
            ),
        ));
    }
    Ok(aligned(
        &bytes[table[0].offset..table[0].offset + table[0].len],
    ))
}

/// The error about the fragment `listed`.
pub(super) fn refused(listed: &FragmentRef, problem: String) -> FragmentError {
    FragmentError::Fragment {
        file: listed.file.clone(),
        problem,
    }
}

/// Checks the meta's documents directory: at least one documents
/// fragment, pages of at least one, as many pages as those need, their
/// first documents ascending from 0, and each page spanning at least a
/// document per fragment it lists. Fragment numbers are checked by the
/// caller.
fn docs_directory(d: &ArchivedDocsMeta, n_docs: u32) -> Result<DocsDirectory, String> {
    let n_fragments = d.n_fragments.to_native() as usize;
    let per_page = d.per_page.to_native() as usize;
    if n_fragments == 0 || per_page == 0 || n_fragments > n_docs as usize {
        return Err(format!(
            "{n_fragments} documents fragments of {n_docs} documents in pages of {per_page}"
        ));
    }
    let page_starts: Vec<u32> = d.page_starts.iter().map(|s| s.to_native()).collect();
    let pages: Vec<usize> = d.pages.iter().map(|n| n.to_native() as usize).collect();
    let dir = DocsDirectory {
        n_fragments,
        per_page,
        bytes: d.bytes.to_native(),
        page_starts,
        pages,
    };
    let starts = &dir.page_starts;
    let ends = starts.iter().skip(1).copied().chain([n_docs]);
    if dir.pages.len() != n_fragments.div_ceil(per_page)
        || starts.len() != dir.pages.len()
        || starts.first() != Some(&0)
        || starts
            .iter()
            .zip(ends)
            .enumerate()
            .any(|(p, (&s, e))| e <= s || ((e - s) as usize) < dir.page_len(p))
    {
        return Err("directory pages do not tile the documents".into());
    }
    Ok(dir)
}

/// Checks the meta's dense part: a dimension, at least one list, and
/// list ranges that tile the lists. Fragment numbers are checked by the
/// caller.
fn dense_directory(d: &ArchivedDenseMeta) -> Result<DenseDirectory, String> {
    let dim = d.dim.to_native() as usize;
    let list_sizes: Vec<u32> = d.list_sizes.iter().map(|s| s.to_native()).collect();
    let lists = list_sizes.len();
    if dim == 0 || lists == 0 {
        return Err(format!("{lists} lists of {dim} values"));
    }
    let list_starts: Vec<u32> = d.list_starts.iter().map(|s| s.to_native()).collect();
    if list_starts.first() != Some(&0)
        || list_starts.windows(2).any(|w| w[0] >= w[1])
        || list_starts.last().is_some_and(|&l| l as usize >= lists)
        || list_starts.len() != d.list_fragments.len()
    {
        return Err("list ranges do not tile the lists".into());
    }
    Ok(DenseDirectory {
        model: d.model.to_string(),
        manifest_hash: d.manifest_hash.to_string(),
        dim,
        centroids: d.centroids.to_native() as usize,
        list_sizes,
        list_starts,
        list_fragments: d
            .list_fragments
            .iter()
            .map(|n| n.to_native() as usize)
            .collect(),
    })
}
