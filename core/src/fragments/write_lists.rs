//! The lists fragments of [`super::fragment_with_lists`] and
//! [`super::fragment_input`]: consecutive inverted lists per fragment,
//! each distinct vector once as the blob stores it, with the documents
//! that have it, and the
//! meta's dense directory that finds them. The vectors may cover some
//! documents only ([`DenseLists::docs`]).

use super::format::{
    CentroidsSection, DenseMeta, ListsSection, CENTROIDS_TAG, FRAGMENT_MAGIC, FRAGMENT_VERSION,
    LISTS_TAG,
};
use super::{FragmentError, MIN_FRAGMENT_BYTES};
use crate::blob::{archive, frame, DenseModel};
use crate::dense::{DenseIndex, Ivf};

/// A pool's text vectors and the inverted lists over them, cut into lists
/// fragments beside the postings.
#[derive(Clone, Copy)]
pub struct DenseLists<'a> {
    /// The model the vectors come from.
    pub model: &'a DenseModel,
    /// The vectors.
    pub index: &'a DenseIndex,
    /// The inverted lists over them.
    pub ivf: &'a Ivf,
    /// Which pool document each of `index`'s documents is, ascending, when
    /// only some documents have vectors (a pool embedded part of the way,
    /// `nomos build --embed-only`); `None`: `index` covers them all.
    pub docs: Option<&'a [u32]>,
}

/// A lists fragment: its first list and its bytes.
pub(super) type ListsFile = (u32, Vec<u8>);

/// The lists fragments of `lists.ivf` over `lists.index` (a pool of
/// `n_docs` documents), as (first list, file bytes), the centroids
/// fragment, and the dense directory without its fragment numbers. A query fetches
/// the fragments of the lists it probes, and lists next to each other in
/// number are not near each other in space, so each list gets a fragment
/// of its own unless lists are tiny: consecutive lists share one only
/// until it reaches [`MIN_FRAGMENT_BYTES`] (within `max_bytes`).
pub(super) fn lists_files(
    lists: &DenseLists<'_>,
    n_docs: usize,
    max_bytes: usize,
) -> Result<(DenseMeta, Vec<ListsFile>, Vec<u8>), FragmentError> {
    let DenseLists {
        model,
        index,
        ivf,
        docs,
    } = *lists;
    Ivf::check(index.dim(), index.n_vectors(), ivf.parts())
        .map_err(|e| FragmentError::Input(e.to_string()))?;
    if docs.is_some_and(|d| d.windows(2).any(|w| w[0] >= w[1])) {
        return Err(FragmentError::Input(
            "the documents with vectors must be listed in ascending order".into(),
        ));
    }
    let doc_of = |v: usize| -> Result<u32, FragmentError> {
        let d = index.doc_of(v);
        let doc = match docs {
            None => Some(d as u32),
            Some(docs) if docs.len() == index.n_docs() => docs.get(d).copied(),
            Some(_) => None,
        };
        doc.filter(|&doc| (doc as usize) < n_docs).ok_or_else(|| {
            FragmentError::Input(format!(
                "the vectors' documents do not match the pool's {n_docs} documents"
            ))
        })
    };
    let dim = index.dim();
    // Each list's members grouped by equal vectors, once.
    let grouped: Vec<Vec<Vec<u32>>> = (0..ivf.n_lists())
        .map(|l| index.equal_vectors(ivf.list(l).iter().copied()))
        .collect();
    // Per distinct vector its codes, scale and start; per member its document.
    let cost = |l: usize| grouped[l].len() * (dim + 8) + ivf.list(l).len() * 4 + 4;
    let mut files = Vec::new();
    let mut first = 0;
    while first < ivf.n_lists() {
        let mut end = first + 1;
        let mut size = cost(first);
        while end < ivf.n_lists() && size < MIN_FRAGMENT_BYTES && size + cost(end) <= max_bytes {
            size += cost(end);
            end += 1;
        }
        let mut section = ListsSection {
            first_list: first as u32,
            offsets: vec![0],
            doc_starts: vec![0],
            docs: Vec::new(),
            codes: Vec::new(),
            scales: Vec::new(),
        };
        for list in &grouped[first..end] {
            for members in list {
                let v = members[0] as usize;
                section.codes.extend_from_slice(index.vector_codes(v));
                section.scales.push(index.scales()[v]);
                for &m in members {
                    section.docs.push(doc_of(m as usize)?);
                }
                section.doc_starts.push(section.docs.len() as u32);
            }
            section.offsets.push(section.scales.len() as u32);
        }
        files.push((
            first as u32,
            framed(LISTS_TAG, &archive(&section).map_err(input)?)?,
        ));
        first = end;
    }
    let parts = ivf.parts();
    let centroids = CentroidsSection {
        codes: parts.centroid_codes.clone(),
        scales: parts.centroid_scales.clone(),
    };
    let centroids = framed(CENTROIDS_TAG, &archive(&centroids).map_err(input)?)?;
    let meta = DenseMeta {
        model: model.id.clone(),
        manifest_hash: model.manifest_hash.clone(),
        dim: dim as u32,
        centroids: 0,
        list_sizes: parts.offsets.windows(2).map(|w| w[1] - w[0]).collect(),
        list_starts: files.iter().map(|(f, _)| *f).collect(),
        list_fragments: Vec::new(),
    };
    Ok((meta, files, centroids))
}

fn framed(tag: [u8; 4], section: &[u8]) -> Result<Vec<u8>, FragmentError> {
    frame::assemble_as(FRAGMENT_MAGIC, FRAGMENT_VERSION, &[(tag, 0, section)]).map_err(input)
}

fn input(e: crate::blob::BlobError) -> FragmentError {
    FragmentError::Input(e.to_string())
}
