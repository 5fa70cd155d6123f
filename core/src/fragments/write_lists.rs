//! The lists fragments of [`super::fragment_with_lists`]: consecutive
//! inverted lists per fragment, each member's document and vector as the
//! blob stores it, and the meta's dense directory that finds them.

use super::format::{
    CentroidsSection, DenseMeta, ListsSection, CENTROIDS_TAG, FRAGMENT_MAGIC, FRAGMENT_VERSION,
    LISTS_TAG,
};
use super::{FragmentError, MIN_FRAGMENT_BYTES};
use crate::blob::{archive, frame, DenseModel};
use crate::dense::{DenseIndex, Ivf};

/// A lists fragment: its first list and its bytes.
pub(super) type ListsFile = (u32, Vec<u8>);

/// The lists fragments of `ivf` over `index`, as (first list, file bytes),
/// the centroids fragment, and the dense directory without its fragment
/// numbers. A query fetches
/// the fragments of the lists it probes, and lists next to each other in
/// number are not near each other in space, so each list gets a fragment
/// of its own unless lists are tiny: consecutive lists share one only
/// until it reaches [`MIN_FRAGMENT_BYTES`] (within `max_bytes`).
pub(super) fn lists_files(
    model: &DenseModel,
    index: &DenseIndex,
    ivf: &Ivf,
    max_bytes: usize,
) -> Result<(DenseMeta, Vec<ListsFile>, Vec<u8>), FragmentError> {
    Ivf::check(index.dim(), index.n_vectors(), ivf.parts())
        .map_err(|e| FragmentError::Input(e.to_string()))?;
    let dim = index.dim();
    // Per member: its codes, scale and document.
    let cost = |l: usize| ivf.list(l).len() * (dim + 8) + 4;
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
            docs: Vec::new(),
            codes: Vec::new(),
            scales: Vec::new(),
        };
        for l in first..end {
            for &v in ivf.list(l) {
                let v = v as usize;
                section.docs.push(index.doc_of(v) as u32);
                section.codes.extend_from_slice(index.vector_codes(v));
                section.scales.push(index.scales()[v]);
            }
            section.offsets.push(section.docs.len() as u32);
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
