//! Dense ranking over lists fragments: the centroids fragment, which
//! lists a query probes, the checks a lists fragment passes, and the
//! ranking, equal to the bit to [`crate::dense::DenseIndex::search_ivf`]
//! over the same lists.

use std::ops::Range;

use super::format::{ArchivedCentroidsSection, ArchivedListsSection, CENTROIDS_TAG, LISTS_TAG};
use super::meta::{DenseDirectory, Meta};
use super::FragmentError;
use crate::blob::access;
use crate::dense::{best_per_doc, probed_lists, QueryCodes};
use crate::hits::Hit;

/// The checked centroids fragment: what a dense query scores to choose
/// its lists.
#[derive(Debug, Clone)]
pub struct Centroids {
    number: usize,
    codes: Vec<i8>,
    scales: Vec<f32>,
}

impl Centroids {
    /// Its number in the meta's list.
    pub fn number(&self) -> usize {
        self.number
    }
}

/// One checked lists fragment: a range of lists with their distinct
/// vectors and the documents that have each.
#[derive(Debug, Clone)]
pub struct ListsFragment {
    number: usize,
    lists: Range<usize>,
    dim: usize,
    /// Where each list's vectors start.
    offsets: Vec<u32>,
    /// Where each vector's documents start in `docs`.
    doc_starts: Vec<u32>,
    docs: Vec<u32>,
    codes: Vec<i8>,
    scales: Vec<f32>,
}

impl ListsFragment {
    /// Its number in the meta's list.
    pub fn number(&self) -> usize {
        self.number
    }

    /// About the memory it holds, for a cache to count.
    pub fn heap_bytes(&self) -> usize {
        4 * (self.offsets.len() + self.doc_starts.len() + self.docs.len() + self.scales.len())
            + self.codes.len()
    }

    /// The lists it holds.
    pub fn lists(&self) -> Range<usize> {
        self.lists.clone()
    }

    /// Its members' documents, list after list: which documents have
    /// vectors, where a pool was embedded only in part.
    pub fn documents(&self) -> &[u32] {
        &self.docs
    }

    /// Each member's document and int8 codes, list after list.
    pub fn vectors(&self) -> impl Iterator<Item = (u32, &[i8])> + '_ {
        (0..self.scales.len()).flat_map(move |v| {
            let codes = &self.codes[v * self.dim..(v + 1) * self.dim];
            self.docs_of(v).iter().map(move |&doc| (doc, codes))
        })
    }

    /// The documents of vector `v`.
    fn docs_of(&self, v: usize) -> &[u32] {
        &self.docs[self.doc_starts[v] as usize..self.doc_starts[v + 1] as usize]
    }

    /// List `l`'s vectors, as (documents, codes, scale); empty when `l` is
    /// not here.
    fn members(&self, l: usize) -> impl Iterator<Item = (&[u32], &[i8], f32)> + '_ {
        let local = l
            .checked_sub(self.lists.start)
            .filter(|_| self.lists.contains(&l));
        let range = local.map_or(0..0, |i| {
            self.offsets[i] as usize..self.offsets[i + 1] as usize
        });
        range.map(move |v| {
            (
                self.docs_of(v),
                &self.codes[v * self.dim..(v + 1) * self.dim],
                self.scales[v],
            )
        })
    }
}

impl Meta {
    /// The dense model's id, its manifest's hash and the dimension, when
    /// the pool was cut with vectors.
    pub fn dense_model(&self) -> Option<(&str, &str, usize)> {
        self.dense
            .as_ref()
            .map(|d| (d.model.as_str(), d.manifest_hash.as_str(), d.dim))
    }

    /// How many inverted lists (0 without vectors).
    pub fn n_lists(&self) -> usize {
        self.dense.as_ref().map_or(0, |d| d.list_sizes.len())
    }

    /// The vectors in list `l` (0 out of range).
    pub fn list_size(&self, l: usize) -> usize {
        self.dense
            .as_ref()
            .and_then(|d| d.list_sizes.get(l))
            .map_or(0, |&s| s as usize)
    }

    /// The number of the centroids fragment, which every dense query
    /// needs first (and can keep).
    pub fn needed_centroids(&self) -> Result<usize, FragmentError> {
        Ok(self.dense_directory()?.centroids)
    }

    /// Checks `bytes` as the centroids fragment `number`: its frame, that
    /// it is the file the meta lists, and one centroid per list of the
    /// meta's dimension, codes in −127..=127, scales finite and
    /// non-negative.
    pub fn open_centroids(&self, number: usize, bytes: &[u8]) -> Result<Centroids, FragmentError> {
        let dense = self.dense_directory()?;
        if number != dense.centroids {
            return Err(FragmentError::Input(format!(
                "fragment {number} is not the centroids fragment"
            )));
        }
        let section = self.checked(number, bytes, CENTROIDS_TAG)?;
        let inconsistent = |e: String| self.refused(number, format!("is inconsistent: {e}"));
        let c: &ArchivedCentroidsSection =
            access(&section, "centroids").map_err(|e| inconsistent(e.to_string()))?;
        let lists = dense.list_sizes.len();
        let (codes, scales) = int8_vectors(&c.codes, &c.scales, lists, dense.dim, "centroids")
            .map_err(inconsistent)?;
        Ok(Centroids {
            number,
            codes,
            scales,
        })
    }

    /// The `probes` lists (0: all) whose `centroids` score best for the
    /// query embedding `query`, best first, ties by list number.
    pub fn probed_lists(
        &self,
        centroids: &Centroids,
        query: &[f32],
        probes: usize,
    ) -> Result<Vec<usize>, FragmentError> {
        let dense = self.dense_directory()?;
        check_query(dense, query)?;
        if centroids.number != dense.centroids {
            return Err(FragmentError::Input(
                "centroids of another pool were given".into(),
            ));
        }
        Ok(probed_lists(
            &centroids.codes,
            &centroids.scales,
            dense.dim,
            &QueryCodes::new(query),
            probes,
        ))
    }

    /// The numbers of the lists fragments that probing `probes` lists for
    /// `query` needs, ascending and each once.
    pub fn needed_lists(
        &self,
        centroids: &Centroids,
        query: &[f32],
        probes: usize,
    ) -> Result<Vec<usize>, FragmentError> {
        let dense = self.dense_directory()?;
        let mut needed: Vec<usize> = self
            .probed_lists(centroids, query, probes)?
            .into_iter()
            .map(|l| dense.list_fragments[dense.range_of(l)])
            .collect();
        needed.sort_unstable();
        needed.dedup();
        Ok(needed)
    }

    /// Checks `bytes` as lists fragment `number`: its frame, that it is the
    /// file the meta lists, its archive, and its contents (the lists and
    /// list sizes the meta gives it, documents in the pool, codes and
    /// scales as a blob's vectors are checked).
    pub fn open_lists(&self, number: usize, bytes: &[u8]) -> Result<ListsFragment, FragmentError> {
        let dense = self.dense_directory()?;
        let section = self.checked(number, bytes, LISTS_TAG)?;
        let inconsistent = |e: String| self.refused(number, format!("is inconsistent: {e}"));
        let s: &ArchivedListsSection =
            access(&section, "lists").map_err(|e| inconsistent(e.to_string()))?;
        let at = dense
            .list_fragments
            .iter()
            .position(|&n| n == number)
            .ok_or_else(|| inconsistent("the meta lists it for no lists".into()))?;
        let lists = dense.lists(at);
        if s.first_list.to_native() as usize != lists.start {
            return Err(inconsistent(format!(
                "it starts at list {}, the meta says {}",
                s.first_list.to_native(),
                lists.start
            )));
        }
        let offsets: Vec<u32> = s.offsets.iter().map(|o| o.to_native()).collect();
        let doc_starts: Vec<u32> = s.doc_starts.iter().map(|o| o.to_native()).collect();
        let docs: Vec<u32> = s.docs.iter().map(|d| d.to_native()).collect();
        let rising = |o: &[u32], end: usize, step: u32| {
            o.first() == Some(&0)
                && o.windows(2).all(|w| w[1] >= w[0].saturating_add(step))
                && o.last().map(|&e| e as usize) == Some(end)
        };
        let vectors = doc_starts.len().saturating_sub(1);
        if offsets.len() != lists.len() + 1 || !rising(&offsets, vectors, 0) {
            return Err(inconsistent(format!(
                "its list offsets do not rise over its {} lists to its {vectors} vectors",
                lists.len()
            )));
        }
        if !rising(&doc_starts, docs.len(), 1) {
            return Err(inconsistent(format!(
                "its vectors' document starts do not rise, each by one at least, to its {} \
                 documents",
                docs.len()
            )));
        }
        let sizes_match = offsets
            .windows(2)
            .map(|w| doc_starts[w[1] as usize] - doc_starts[w[0] as usize])
            .eq(dense.list_sizes[lists.clone()].iter().copied());
        if !sizes_match {
            return Err(inconsistent("its lists' sizes are not the meta's".into()));
        }
        if let Some(d) = docs.iter().find(|&&d| d >= self.n_docs) {
            return Err(inconsistent(format!(
                "document {d} is not in the pool's {}",
                self.n_docs
            )));
        }
        let (codes, scales) = int8_vectors(&s.codes, &s.scales, vectors, dense.dim, "vectors")
            .map_err(inconsistent)?;
        Ok(ListsFragment {
            number,
            lists,
            dim: dense.dim,
            offsets,
            doc_starts,
            docs,
            codes,
            scales,
        })
    }

    /// The best `k` documents for the query embedding `query` over the
    /// `probes` nearest lists (0: all) by `centroids`, whose fragments ([`Self::needed_lists`])
    /// are `given`; each document scores as its best probed vector, ties
    /// by document. A probed list whose fragment is not given fails with
    /// [`FragmentError::Missing`].
    pub fn rank_dense(
        &self,
        centroids: &Centroids,
        query: &[f32],
        probes: usize,
        given: &[&ListsFragment],
        k: usize,
    ) -> Result<Vec<Hit>, FragmentError> {
        let dense = self.dense_directory()?;
        let codes = QueryCodes::new(query);
        let mut scored = Vec::new();
        for l in self.probed_lists(centroids, query, probes)? {
            let number = dense.list_fragments[dense.range_of(l)];
            let fragment = given.iter().find(|f| f.number == number).ok_or_else(|| {
                FragmentError::Missing {
                    file: self.fragments[number].file.clone(),
                }
            })?;
            for (docs, c, scale) in fragment.members(l) {
                let score = codes.score(c, scale);
                scored.extend(docs.iter().map(|&doc| (doc, score)));
            }
        }
        Ok(best_per_doc(scored, k))
    }

    fn dense_directory(&self) -> Result<&DenseDirectory, FragmentError> {
        self.dense.as_ref().ok_or_else(|| {
            FragmentError::Input("the pool was cut without vectors' inverted lists".into())
        })
    }
}

fn check_query(dense: &DenseDirectory, query: &[f32]) -> Result<(), FragmentError> {
    if query.len() != dense.dim {
        return Err(FragmentError::Input(format!(
            "the query embedding has {} values, the vectors {}",
            query.len(),
            dense.dim
        )));
    }
    if query.iter().any(|x| !x.is_finite()) {
        return Err(FragmentError::Input(
            "the query embedding is not finite".into(),
        ));
    }
    Ok(())
}

/// `n` int8 vectors of `dim` values as a fragment stores them, checked as
/// the blob checks its own: codes in -127..=127 (so that a negated code
/// fits), one finite non-negative scale per vector.
fn int8_vectors(
    codes: &[i8],
    scales: &[rkyv::rend::f32_le],
    n: usize,
    dim: usize,
    what: &str,
) -> Result<(Vec<i8>, Vec<f32>), String> {
    if Some(codes.len()) != n.checked_mul(dim) || codes.contains(&i8::MIN) {
        return Err(format!(
            "its codes are not {n} {what} of {dim} values in -127..=127"
        ));
    }
    let scales: Vec<f32> = scales.iter().map(|x| x.to_native()).collect();
    if scales.len() != n || scales.iter().any(|x| !x.is_finite() || *x < 0.0) {
        return Err(format!("its scales are not {n} finite non-negative values"));
    }
    Ok((codes.to_vec(), scales))
}
