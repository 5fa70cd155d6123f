//! Expectations read natively from the blob the server sends, with
//! `nomos-core`: the article pane must show the same reference graph.

use std::path::Path;

use anyhow::{Context, Result};
use nomos_core::blob::Blob;
use nomos_e2e::paths::served_pool;

pub struct Pool {
    blob: Blob,
    /// For each document, the documents whose explicit references cite it.
    cited_by: Vec<Vec<u32>>,
}

impl Pool {
    pub fn load(file: &str) -> Result<Pool> {
        Ok(Pool::of(served_pool(file)?))
    }

    /// A whole blob on disk (one a fragmented pool was cut from).
    pub fn load_path(path: &Path) -> Result<Pool> {
        Ok(Pool::of(Blob::load(&std::fs::read(path)?)?))
    }

    fn of(blob: Blob) -> Pool {
        let mut cited_by = vec![Vec::new(); blob.n_docs()];
        for doc in 0..blob.n_docs() {
            for target in blob.explicit_refs(doc) {
                if let Some(list) = cited_by.get_mut(target as usize) {
                    list.push(doc as u32);
                }
            }
        }
        Pool { blob, cited_by }
    }

    /// The ids `id` cites explicitly, in the blob's order.
    pub fn cites(&self, id: &str) -> Result<Vec<String>> {
        let refs = self.blob.explicit_refs(self.doc(id)?);
        Ok(self.ids(&refs))
    }

    /// The ids whose explicit references cite `id`.
    pub fn cited_by(&self, id: &str) -> Result<Vec<String>> {
        Ok(self.ids(&self.cited_by[self.doc(id)?]))
    }

    /// The other parts of `id`'s provision.
    pub fn siblings(&self, id: &str) -> Result<Vec<String>> {
        let refs = self.blob.implicit_refs(self.doc(id)?);
        Ok(self.ids(&refs))
    }

    /// Whether the pool has a document `id`.
    pub fn has(&self, id: &str) -> Result<bool> {
        Ok(self.blob.doc_index(id).is_some())
    }

    /// How many of the pool's acts have a § `section` (a Danish
    /// `{act}_§{section}_stk1`).
    pub fn sections_named(&self, section: &str) -> Result<usize> {
        let acts: Vec<&str> = self.blob.sources().collect();
        Ok(acts
            .iter()
            .filter(|a| {
                self.blob
                    .doc_index(&format!("{a}_§{section}_stk1"))
                    .is_some()
            })
            .count())
    }

    fn doc(&self, id: &str) -> Result<usize> {
        let doc = self
            .blob
            .doc_index(id)
            .with_context(|| format!("no {id} in the blob"))?;
        Ok(doc as usize)
    }

    fn ids(&self, docs: &[u32]) -> Vec<String> {
        docs.iter()
            .map(|&d| self.blob.doc_id(d as usize).unwrap_or_default().to_owned())
            .collect()
    }
}
