//! The facets and filters of a result list, one code for every storage
//! and for the app and the CLI alike: how many hits each source (law,
//! code), legal area, document type and year holds, and the hits that
//! pass the chosen values. A blob knows each document's source and area
//! from its documents section, a fragmented pool from its meta (so a
//! whole ranking is counted and narrowed before any documents fragment is
//! fetched). Type and year are read from a source id that is a
//! Retsinformation document's (`LBK-2025-1129`, [`DocRef`]); other pools
//! have neither.

use std::collections::{BTreeMap, HashMap};

use crate::blob::Blob;
use crate::eli::DocRef;
use crate::fragments::Meta;
use crate::hits::Hit;

/// What a pool knows of each document for facets.
pub trait DocFacets {
    /// Document `doc`'s source id.
    fn source(&self, doc: u32) -> Option<&str>;
    /// Document `doc`'s legal area, where it has one.
    fn area(&self, doc: u32) -> Option<&str>;
}

impl DocFacets for Blob {
    fn source(&self, doc: u32) -> Option<&str> {
        Blob::source(self, doc as usize).filter(|s| !s.is_empty())
    }
    fn area(&self, doc: u32) -> Option<&str> {
        Blob::area(self, doc as usize)
    }
}

impl DocFacets for Meta {
    fn source(&self, doc: u32) -> Option<&str> {
        Meta::source(self, doc)
    }
    fn area(&self, doc: u32) -> Option<&str> {
        Meta::area(self, doc)
    }
}

/// The values chosen to narrow a result list (`None`: all).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Narrowing {
    /// A source id (`straffeloven`, `LBK-2025-1129`).
    pub source: Option<String>,
    /// A legal area.
    pub area: Option<String>,
    /// A document type (`LBK`, `BEK`).
    pub kind: Option<String>,
    /// A year, as written (`2025`).
    pub year: Option<String>,
}

impl Narrowing {
    /// The chosen values as a reader names them, for the status line: the
    /// source by `source_name`, a type by [`kind_label`].
    pub fn described(&self, source_name: impl Fn(&str) -> String) -> Vec<String> {
        let mut out: Vec<String> = self
            .source
            .as_deref()
            .map(source_name)
            .into_iter()
            .collect();
        out.extend(self.area.clone());
        out.extend(self.kind.as_deref().map(kind_label));
        out.extend(self.year.clone());
        out
    }
}

/// A document type as a lawyer reads it (`Consolidated act (LBK)`); the
/// code itself for types without a name here.
pub fn kind_label(kind: &str) -> String {
    let name = match kind {
        "LOV" => "Act",
        "LBK" => "Consolidated act",
        "BEK" => "Executive order",
        "CIR" => "Circular",
        "VEJ" => "Guidance",
        _ => return kind.to_owned(),
    };
    format!("{name} ({kind})")
}

/// How many hits each value of each facet holds, most first (years: the
/// latest first).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FacetCounts {
    /// By source id.
    pub source: Vec<(String, usize)>,
    /// By legal area.
    pub area: Vec<(String, usize)>,
    /// By document type.
    pub kind: Vec<(String, usize)>,
    /// By year, the latest first.
    pub year: Vec<(String, usize)>,
}

/// The type and year a source id gives, as the facets name them.
fn kind_and_year(source: &str) -> Option<(String, String)> {
    DocRef::parse(source).map(|r| (r.kind, r.year.to_string()))
}

/// The hits that pass every chosen value, in rank order.
pub fn narrow(pool: &impl DocFacets, hits: &[Hit], by: &Narrowing) -> Vec<Hit> {
    if by == &Narrowing::default() {
        return hits.to_vec();
    }
    // Type and year are read once per source, not once per hit.
    let mut dated: HashMap<&str, Option<(String, String)>> = HashMap::new();
    hits.iter()
        .copied()
        .filter(|h| {
            let source = pool.source(h.doc);
            if by.source.is_some() && source != by.source.as_deref() {
                return false;
            }
            if by.area.is_some() && pool.area(h.doc) != by.area.as_deref() {
                return false;
            }
            if by.kind.is_none() && by.year.is_none() {
                return true;
            }
            let Some(source) = source else { return false };
            let Some((kind, year)) = dated.entry(source).or_insert_with(|| kind_and_year(source))
            else {
                return false;
            };
            by.kind.as_ref().is_none_or(|k| k == kind) && by.year.as_ref().is_none_or(|y| y == year)
        })
        .collect()
}

/// Each facet's counts over `hits`. Documents without a value are not
/// counted.
pub fn counts(pool: &impl DocFacets, hits: &[Hit]) -> FacetCounts {
    let mut sources: BTreeMap<&str, usize> = BTreeMap::new();
    let mut areas: BTreeMap<&str, usize> = BTreeMap::new();
    for h in hits {
        if let Some(s) = pool.source(h.doc) {
            *sources.entry(s).or_default() += 1;
        }
        if let Some(a) = pool.area(h.doc).filter(|a| !a.is_empty()) {
            *areas.entry(a).or_default() += 1;
        }
    }
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    let mut years: BTreeMap<String, usize> = BTreeMap::new();
    for (source, &n) in &sources {
        if let Some((kind, year)) = kind_and_year(source) {
            *kinds.entry(kind).or_default() += n;
            *years.entry(year).or_default() += n;
        }
    }
    FacetCounts {
        source: most_first(sources.into_iter().map(|(s, n)| (s.to_owned(), n))),
        area: most_first(areas.into_iter().map(|(a, n)| (a.to_owned(), n))),
        kind: most_first(kinds),
        year: years.into_iter().rev().collect(),
    }
}

/// Most hits first, then by name.
fn most_first(counts: impl IntoIterator<Item = (String, usize)>) -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = counts.into_iter().collect();
    crate::order::sort_by(&mut out, |a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Documents 0–5: two LBKs, a BEK and a plain act, areas on some.
    struct Pool;
    impl DocFacets for Pool {
        fn source(&self, doc: u32) -> Option<&str> {
            [
                "LBK-2025-1129",
                "LBK-2025-1129",
                "BEK-2024-7",
                "LBK-2019-3",
                "straffeloven",
            ]
            .get(doc as usize)
            .copied()
        }
        fn area(&self, doc: u32) -> Option<&str> {
            [Some("skat"), None, Some("skat"), Some("straf"), None]
                .get(doc as usize)
                .copied()
                .flatten()
        }
    }

    fn hits(docs: &[u32]) -> Vec<Hit> {
        docs.iter()
            .map(|&doc| Hit {
                doc,
                score: 10.0 - f64::from(doc),
            })
            .collect()
    }

    fn docs(hits: &[Hit]) -> Vec<u32> {
        hits.iter().map(|h| h.doc).collect()
    }

    #[test]
    fn each_facet_counts_the_hits_and_narrows_them() {
        let all = hits(&[0, 1, 2, 3, 4, 5]);
        let c = counts(&Pool, &all);
        let pairs = |v: &[(&str, usize)]| -> Vec<(String, usize)> {
            v.iter().map(|&(s, n)| (s.to_owned(), n)).collect()
        };
        assert_eq!(
            c.source,
            pairs(&[
                ("LBK-2025-1129", 2),
                ("BEK-2024-7", 1),
                ("LBK-2019-3", 1),
                ("straffeloven", 1)
            ])
        );
        assert_eq!(c.area, pairs(&[("skat", 2), ("straf", 1)]));
        assert_eq!(c.kind, pairs(&[("LBK", 3), ("BEK", 1)]));
        assert_eq!(c.year, pairs(&[("2025", 2), ("2024", 1), ("2019", 1)]));

        let by = |f: fn(&mut Narrowing)| {
            let mut n = Narrowing::default();
            f(&mut n);
            docs(&narrow(&Pool, &all, &n))
        };
        assert_eq!(by(|_| {}), [0, 1, 2, 3, 4, 5]);
        assert_eq!(by(|n| n.kind = Some("LBK".into())), [0, 1, 3]);
        assert_eq!(by(|n| n.year = Some("2025".into())), [0, 1]);
        assert_eq!(
            by(|n| {
                n.kind = Some("LBK".into());
                n.area = Some("skat".into());
            }),
            [0]
        );
        assert_eq!(by(|n| n.source = Some("straffeloven".into())), [4]);
        // A source with no type has none to match.
        assert_eq!(
            by(|n| {
                n.source = Some("straffeloven".into());
                n.year = Some("2025".into());
            }),
            Vec::<u32>::new()
        );
    }

    #[test]
    fn chosen_values_read_as_a_lawyer_names_them() {
        assert_eq!(kind_label("LBK"), "Consolidated act (LBK)");
        assert_eq!(kind_label("ABK"), "ABK");
        let by = Narrowing {
            source: Some("LBK-2025-1129".into()),
            area: None,
            kind: Some("BEK".into()),
            year: Some("2025".into()),
        };
        assert_eq!(
            by.described(|s| format!("<{s}>")),
            ["<LBK-2025-1129>", "Executive order (BEK)", "2025"]
        );
    }
}
