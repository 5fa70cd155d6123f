//! The app's pools answer core's facets ([`nomos_core::facets`]): a
//! blob's engine from its documents section, a fragmented pool from its
//! meta.

use nomos_core::facets::DocFacets;

use crate::pool::engine::Engine;
use crate::pool::fragmented::FragPool;

impl DocFacets for Engine {
    fn source(&self, doc: u32) -> Option<&str> {
        Some(Engine::source(self, doc)).filter(|s| !s.is_empty())
    }
    fn area(&self, doc: u32) -> Option<&str> {
        Engine::area(self, doc)
    }
}

impl DocFacets for FragPool {
    fn source(&self, doc: u32) -> Option<&str> {
        self.meta().source(doc)
    }
    fn area(&self, doc: u32) -> Option<&str> {
        self.meta().area(doc)
    }
}

#[cfg(test)]
mod tests {
    use nomos_core::facets::{counts, narrow, Narrowing};

    /// A blob's engine counts and narrows by its documents section.
    #[test]
    fn a_blobs_hits_are_counted_and_narrowed_by_source_and_area() {
        let e = crate::pool::engine::tests::engine();
        let hits = e
            .rank(
                nomos_core::blob::Field::Text,
                &nomos_core::methods::Method::Bm25,
                &Default::default(),
                "skat lov",
                None,
            )
            .unwrap()
            .hits;
        assert_eq!(hits.len(), 3);
        let only = |source: Option<&str>, area: Option<&str>| Narrowing {
            source: source.map(str::to_owned),
            area: area.map(str::to_owned),
            ..Narrowing::default()
        };
        let in_a = narrow(&e, &hits, &only(Some("Lov A"), None));
        assert!(in_a.iter().all(|h| e.source(h.doc) == "Lov A"));
        assert_eq!(in_a.len(), 2);
        assert_eq!(narrow(&e, &hits, &only(None, Some("skat"))).len(), 1);
        assert_eq!(
            narrow(&e, &hits, &only(Some("Lov B"), Some("skat"))).len(),
            0
        );
        let c = counts(&e, &hits);
        assert_eq!(c.source, [("Lov A".to_owned(), 2), ("Lov B".to_owned(), 1)]);
        assert_eq!(c.area, [("skat".to_owned(), 1)]);
        assert!(c.kind.is_empty() && c.year.is_empty());
    }
}
