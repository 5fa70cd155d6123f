//! [`fragment`] (a whole blob) and [`fragment_input`] (a builder's input, no blob
//! made): a pool cut into a meta file, postings fragments by term range
//! and documents fragments by document range, each of bounded size, by
//! one cutting code over [`Parts`].

use std::collections::HashMap;

use super::doc_runs::runs_of;
use super::format::{
    fragment_file, fragment_hash, DocRun, DocsMeta, FieldMeta, FieldTag, FragmentEntry,
    MetaSection, PoolInfo, PostingsSection, FRAGMENT_MAGIC, FRAGMENT_VERSION, META_MAGIC, META_TAG,
    POSTINGS_TAG,
};
use super::parts::{BlobDocs, InputDocs, Parts};
use super::write_docs::{docs_files, docs_pages, DOCS_PER_PAGE};
use super::write_lists::{lists_files, DenseLists};
use super::{FragmentError, FragmentKind, FragmentRef};
use crate::blob::format::{IdfSection, StrTable, NONE};
use crate::blob::{archive, frame, Blob, BlobError, BlobInput, EncodeReport, Field};
use crate::dense::Ivf;
use crate::index::{varint, InvertedIndex};
use crate::search::{okapi_sum, IdfTable};

/// The smallest size limit [`fragment`] takes: below it, fragments would
/// mostly be frame and directory.
pub const MIN_FRAGMENT_BYTES: usize = 4096;

/// A meta file and its fragments, as [`fragment`] makes them.
pub struct Fragmented {
    /// The meta file's bytes.
    pub meta: Vec<u8>,
    /// Each fragment, in number order (those the meta lists, then the
    /// documents fragments), with its bytes.
    pub fragments: Vec<(FragmentRef, Vec<u8>)>,
}

/// Cuts `blob` (loaded, with its text: a whole blob, or a light one with
/// its text file attached): each lexical field into fragments of whole
/// terms in byte order, the documents into fragments of consecutive whole
/// text blocks, each about `max_bytes` at most (a term's postings or a
/// text block larger than that gets a fragment of its own); and writes the
/// meta file that lists them.
pub fn fragment(blob: &Blob, max_bytes: usize) -> Result<Fragmented, FragmentError> {
    fragment_with_lists(blob, max_bytes, None)
}

/// [`fragment`], and with `ivf` (inverted lists over the blob's text
/// vectors) the lists in lists fragments, their centroids in a fragment
/// of their own, and the model and the lists' sizes in the meta, for
/// dense queries.
pub fn fragment_with_lists(
    blob: &Blob,
    max_bytes: usize,
    ivf: Option<&Ivf>,
) -> Result<Fragmented, FragmentError> {
    let lists = match ivf {
        None => None,
        Some(ivf) => {
            let (Some(model), Some(index)) = (blob.dense_model(), blob.dense(Field::Text)) else {
                return Err(FragmentError::Input(
                    "inverted lists need the blob's text vectors (a light blob: attach its \
                     vectors file)"
                        .into(),
                ));
            };
            Some(DenseLists {
                model,
                index,
                ivf,
                docs: None,
            })
        }
    };
    let docs = BlobDocs::new(blob)?;
    cut(
        &Parts::of_blob(blob, &docs)?,
        max_bytes,
        lists,
        DOCS_PER_PAGE,
    )
}

/// [`fragment`] with `per_page` documents fragments a directory page, so
/// that tests reach several pages with a small pool.
#[cfg(test)]
pub(super) fn fragment_paged(
    blob: &Blob,
    max_bytes: usize,
    per_page: usize,
) -> Result<Fragmented, FragmentError> {
    let docs = BlobDocs::new(blob)?;
    cut(&Parts::of_blob(blob, &docs)?, max_bytes, None, per_page)
}

/// Cuts what `input` would encode into a blob as [`fragment`] cuts that
/// blob, to the same bytes, without making the blob and so without its
/// limit on the display text's total (its queries, judgments and vectors
/// are not cut). With `lists`, dense queries get lists fragments too. Also
/// says which references it dropped, as encoding does. `deflated` hears,
/// now and then, how many documents' text is deflated, most of the work
/// (for a progress bar).
pub fn fragment_input(
    input: &BlobInput<'_>,
    max_bytes: usize,
    lists: Option<DenseLists<'_>>,
    deflated: &dyn Fn(usize),
) -> Result<(Fragmented, EncodeReport), FragmentError> {
    let docs = InputDocs::new(input, deflated)?;
    let report = EncodeReport {
        explicit_refs_unknown: docs.parts.unknown_explicit,
        implicit_refs_unknown: docs.parts.unknown_implicit,
        ..EncodeReport::default()
    };
    Ok((
        cut(
            &Parts::of_input(input, &docs),
            max_bytes,
            lists,
            DOCS_PER_PAGE,
        )?,
        report,
    ))
}

fn cut(
    pool: &Parts<'_>,
    max_bytes: usize,
    lists: Option<DenseLists<'_>>,
    per_page: usize,
) -> Result<Fragmented, FragmentError> {
    if max_bytes < MIN_FRAGMENT_BYTES {
        return Err(FragmentError::Input(format!(
            "a fragment size limit of {max_bytes} bytes is below the minimum, \
             {MIN_FRAGMENT_BYTES}"
        )));
    }
    let n_docs = pool.n_docs as u64;
    let mut fragments = Vec::new();
    let mut fields = Vec::new();
    for &(field, index) in &pool.fields {
        if index.n_docs() != pool.n_docs {
            return Err(FragmentError::Input(format!(
                "the {} index covers {} documents, not {}",
                field.name(),
                index.n_docs(),
                pool.n_docs
            )));
        }
        let ratios: Vec<f64> = index
            .doc_freqs()
            .iter()
            .map(|&df| IdfTable::okapi(Some(&pool.idf), n_docs, df))
            .collect();
        let mut first_terms = Vec::new();
        let mut numbers = Vec::new();
        for group in term_groups(index, max_bytes) {
            first_terms.push(index.term(group[0]).unwrap_or_default());
            numbers.push(count(fragments.len())?);
            let bytes = postings_file(index, field.into(), &pool.idf, &group)?;
            fragments.push((listed(FragmentKind::Postings, &bytes), bytes));
        }
        fields.push(FieldMeta {
            field: field.into(),
            total_len: index.total_len(),
            n_terms: count(index.n_terms())?,
            okapi_sum: okapi_sum(&ratios),
            first_terms: StrTable::build(first_terms).map_err(input)?,
            fragments: numbers,
        });
    }
    let docs_files = docs_files(pool)?;
    let mut docs = DocsMeta {
        n_fragments: count(docs_files.len())?,
        per_page: count(per_page)?,
        bytes: docs_files.iter().map(|(_, b)| b.len() as u64).sum(),
        page_starts: Vec::new(),
        pages: Vec::new(),
    };
    for (first_doc, bytes) in docs_pages(&docs_files, per_page)? {
        docs.page_starts.push(first_doc);
        docs.pages.push(count(fragments.len())?);
        fragments.push((listed(FragmentKind::DocsPage, &bytes), bytes));
    }
    let dense = match lists {
        None => None,
        Some(lists) => {
            let (mut dense, files, centroids) = lists_files(&lists, pool.n_docs, max_bytes)?;
            for (_, bytes) in files {
                dense.list_fragments.push(count(fragments.len())?);
                fragments.push((listed(FragmentKind::Lists, &bytes), bytes));
            }
            dense.centroids = count(fragments.len())?;
            fragments.push((listed(FragmentKind::Centroids, &centroids), centroids));
            Some(dense)
        }
    };
    // The meta lists these; the pages list the documents fragments,
    // numbered after them.
    let listed_fragments: Vec<FragmentEntry> = fragments
        .iter()
        .map(|(f, _)| FragmentEntry {
            hash: f.hash,
            len: f.len,
        })
        .collect();
    for (_, bytes) in docs_files {
        fragments.push((listed(FragmentKind::Docs, &bytes), bytes));
    }
    let (areas, area_runs) = area_runs(pool);
    let meta = MetaSection {
        analyzer: pool.analyzer.to_owned(),
        bm25: pool.bm25,
        info: PoolInfo {
            dataset: pool.manifest.dataset.clone(),
            title: pool.manifest.title.clone(),
            notes: pool.manifest.notes.clone(),
        },
        n_docs: count(pool.n_docs)?,
        fields,
        sources: StrTable::build(pool.sources.iter().copied()).map_err(input)?,
        source_runs: runs_of((0..pool.n_docs).map(|d| pool.docs.source(d))),
        areas: StrTable::build(areas).map_err(input)?,
        area_runs,
        docs,
        fragments: listed_fragments,
        dense,
    };
    let meta = archive(&meta).map_err(input)?;
    let meta =
        frame::assemble_as(META_MAGIC, FRAGMENT_VERSION, &[(META_TAG, 0, &meta)]).map_err(input)?;
    Ok(Fragmented { meta, fragments })
}

/// The documents' distinct areas in first-seen order, and each
/// document's index into them ([`NONE`] for none) in runs.
fn area_runs<'a>(pool: &'a Parts<'_>) -> (Vec<&'a str>, Vec<DocRun>) {
    let mut names: Vec<&str> = Vec::new();
    let mut index: HashMap<&str, u32> = HashMap::new();
    let values: Vec<u32> = (0..pool.n_docs)
        .map(|d| match pool.docs.area(d) {
            None => NONE,
            Some(area) => *index.entry(area).or_insert_with(|| {
                names.push(area);
                names.len() as u32 - 1
            }),
        })
        .collect();
    (names, runs_of(values))
}

/// How the meta lists a fragment of these bytes.
fn listed(kind: FragmentKind, bytes: &[u8]) -> FragmentRef {
    let hash = fragment_hash(bytes);
    FragmentRef {
        kind,
        file: fragment_file(hash),
        hash,
        len: bytes.len() as u64,
    }
}

/// The field's term ids in byte order of their terms, cut into runs whose
/// estimated file size stays within `max_bytes` (a run has at least one
/// term).
fn term_groups(index: &InvertedIndex, max_bytes: usize) -> Vec<Vec<u32>> {
    let mut ids: Vec<u32> = (0..index.n_terms() as u32).collect();
    ids.sort_unstable_by_key(|&t| index.term(t).unwrap_or_default());
    let mut groups: Vec<Vec<u32>> = Vec::new();
    let mut current: Vec<u32> = Vec::new();
    let mut size = 0usize;
    for t in ids {
        let cost = cost_of_term(index, t);
        if !current.is_empty() && size + cost > max_bytes {
            groups.push(std::mem::take(&mut current));
            size = 0;
        }
        size += cost;
        current.push(t);
    }
    if !current.is_empty() {
        groups.push(current);
    }
    groups
}

/// About a term's bytes in a fragment: the string and its end, its
/// frequency and offset, its postings, and a length per posting (most
/// take two bytes).
fn cost_of_term(index: &InvertedIndex, t: u32) -> usize {
    let postings = index.offsets()[t as usize + 1] - index.offsets()[t as usize];
    let df = index.doc_freqs()[t as usize] as usize;
    index.term(t).map_or(0, str::len) + 12 + postings as usize + 2 * df
}

/// The fragment file of `terms` (ids of `index`, in byte order), with
/// the idf logarithms of their document frequencies taken from `idf`.
fn postings_file(
    index: &InvertedIndex,
    field: FieldTag,
    idf: &IdfTable,
    terms: &[u32],
) -> Result<Vec<u8>, FragmentError> {
    let mut postings = Vec::new();
    let mut lens = Vec::new();
    let mut offsets = vec![0u32];
    for &t in terms {
        let (start, end) = (index.offsets()[t as usize], index.offsets()[t as usize + 1]);
        postings.extend_from_slice(&index.postings_bytes()[start as usize..end as usize]);
        offsets.push(count(postings.len())?);
        for p in index.postings(t) {
            varint::encode(index.doc_lens()[p.doc as usize], &mut lens);
        }
    }
    let mut dfs: Vec<u32> = terms
        .iter()
        .map(|&t| index.doc_freqs()[t as usize])
        .collect();
    dfs.sort_unstable();
    dfs.dedup();
    let n_docs = idf.n_docs();
    let section = PostingsSection {
        field,
        idf: IdfSection {
            okapi: dfs
                .iter()
                .map(|&df| IdfTable::okapi(Some(idf), n_docs, df))
                .collect(),
            lucene: dfs
                .iter()
                .map(|&df| IdfTable::lucene(Some(idf), n_docs, df))
                .collect(),
            dfs,
        },
        terms: StrTable::build(terms.iter().map(|&t| index.term(t).unwrap_or_default()))
            .map_err(input)?,
        doc_freqs: terms
            .iter()
            .map(|&t| index.doc_freqs()[t as usize])
            .collect(),
        offsets,
        postings,
        lens,
    };
    let section = archive(&section).map_err(input)?;
    frame::assemble_as(
        FRAGMENT_MAGIC,
        FRAGMENT_VERSION,
        &[(POSTINGS_TAG, 0, &section)],
    )
    .map_err(input)
}

fn count(n: usize) -> Result<u32, FragmentError> {
    u32::try_from(n).map_err(|_| FragmentError::Input(format!("{n} is too many for a u32")))
}

fn input(e: BlobError) -> FragmentError {
    FragmentError::Input(e.to_string())
}
