//! Cross-references as CSR adjacency: resolving ids at build time and
//! checking the arrays at load time.

use std::collections::HashMap;

use super::format::{ArchivedCsr, Csr};
use super::BlobError;

impl Csr {
    /// Resolves each document's referenced ids to document indices, in the
    /// order given, without repeats. Returns the graph and the number of
    /// references to ids not in `index` (dropped).
    pub fn resolve<'a, R>(
        refs: impl IntoIterator<Item = R>,
        index: &HashMap<&str, u32>,
    ) -> Result<(Csr, usize), BlobError>
    where
        R: IntoIterator<Item = &'a String>,
    {
        let mut csr = Csr {
            offsets: vec![0],
            targets: Vec::new(),
        };
        let mut unknown = 0;
        for doc_refs in refs {
            let start = csr.targets.len();
            for id in doc_refs {
                match index.get(id.as_str()) {
                    Some(&t) if !csr.targets[start..].contains(&t) => csr.targets.push(t),
                    Some(_) => {}
                    None => unknown += 1,
                }
            }
            let end = u32::try_from(csr.targets.len())
                .map_err(|_| BlobError::Input("more than 2^32 cross-references".into()))?;
            csr.offsets.push(end);
        }
        Ok((csr, unknown))
    }
}

impl ArchivedCsr {
    /// The neighbours of `doc` (empty when out of range).
    pub fn neighbours(&self, doc: usize) -> impl Iterator<Item = u32> + '_ {
        let range = match (self.offsets.get(doc), self.offsets.get(doc + 1)) {
            (Some(s), Some(e)) => s.to_native() as usize..e.to_native() as usize,
            _ => 0..0,
        };
        self.targets
            .get(range)
            .unwrap_or_default()
            .iter()
            .map(|t| t.to_native())
    }

    /// One offset per document plus one, never decreasing, covering all
    /// targets; every target a document index.
    pub fn validate(&self, what: &str, n_docs: usize) -> Result<(), BlobError> {
        self.validate_rows(what, n_docs, n_docs)
    }

    /// [`Self::validate`] for the rows of some documents (`n_docs` of
    /// them) whose targets are any of `n_targets` documents: a fragment's
    /// slice of the graph.
    pub fn validate_rows(
        &self,
        what: &str,
        n_docs: usize,
        n_targets: usize,
    ) -> Result<(), BlobError> {
        let bad = |msg: String| Err(BlobError::invalid("graph", format!("{what}: {msg}")));
        if self.offsets.len() != n_docs + 1 {
            return bad(format!(
                "{} offsets for {n_docs} documents",
                self.offsets.len()
            ));
        }
        let offsets: Vec<usize> = self
            .offsets
            .iter()
            .map(|o| o.to_native() as usize)
            .collect();
        if offsets[0] != 0
            || offsets[n_docs] != self.targets.len()
            || offsets.windows(2).any(|w| w[1] < w[0])
        {
            return bad("offsets do not tile the targets".into());
        }
        if let Some(t) = self
            .targets
            .iter()
            .find(|t| t.to_native() as usize >= n_targets)
        {
            return bad(format!("target {t} out of range"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refs_resolve_in_order_without_repeats_and_unknowns_are_counted() {
        let ids: HashMap<&str, u32> = [("a", 0), ("b", 1), ("c", 2)].into_iter().collect();
        let refs: Vec<Vec<String>> = vec![
            vec!["c".into(), "x".into(), "b".into(), "c".into()],
            vec![],
            vec!["a".into()],
        ];
        let (csr, unknown) = Csr::resolve(refs.iter(), &ids).unwrap();
        assert_eq!(unknown, 1);
        assert_eq!(csr.offsets, [0, 2, 2, 3]);
        assert_eq!(csr.targets, [2, 1, 0]);
        let bytes = rkyv::to_bytes::<rkyv::rancor::Error>(&csr).unwrap();
        let a = rkyv::access::<ArchivedCsr, rkyv::rancor::Error>(&bytes).unwrap();
        a.validate("explicit", 3).unwrap();
        assert_eq!(a.neighbours(0).collect::<Vec<_>>(), [2, 1]);
        assert_eq!(a.neighbours(9).count(), 0);
        assert!(a.validate("explicit", 2).is_err());
    }
}
