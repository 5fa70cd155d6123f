//! A Danish document's identity at Retsinformation: its type (`LBK`, `LOV`,
//! `BEK`, …), year and number, which the `da-law` pool writes as each
//! document's source id (`LBK-2025-1129`). A fragmented pool's meta keeps
//! only source ids, so the type and year facets and the link to the document
//! (its ELI address) are read from the id here, the same way for a blob and
//! for fragments.

use std::fmt;

/// Where Retsinformation serves the A-series (Lovtidende A) by ELI.
const ELI_BASE: &str = "https://www.retsinformation.dk/eli/lta";

/// One document of Lovtidende A: `LBK nr. 1129 af 2025`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DocRef {
    /// The document type as Retsinformation abbreviates it: 2 to 5 capital
    /// ASCII letters (`LBK`, `LOV`, `BEK`, `ANG`, `AND`, `ABK`).
    pub kind: String,
    /// The year its number belongs to.
    pub year: u16,
    /// Its number in that year.
    pub number: u32,
}

impl DocRef {
    /// `Some` for a valid kind, a four-digit year and a positive number.
    pub fn new(kind: &str, year: u16, number: u32) -> Option<DocRef> {
        let kind_ok = (2..=5).contains(&kind.len()) && kind.bytes().all(|b| b.is_ascii_uppercase());
        (kind_ok && (1000..=9999).contains(&year) && number > 0).then(|| DocRef {
            kind: kind.to_owned(),
            year,
            number,
        })
    }

    /// Reads a source id as [`DocRef`]'s `Display` writes it; `None` for any
    /// other source (an act of another pool, `straffeloven`, `AK`).
    pub fn parse(source: &str) -> Option<DocRef> {
        let mut parts = source.split('-');
        let (kind, year, number) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() || !digits(year) || !digits(number) {
            return None;
        }
        DocRef::new(kind, year.parse().ok()?, number.parse().ok()?)
    }

    /// The document at Retsinformation, by its ELI address.
    pub fn eli_url(&self) -> String {
        format!("{ELI_BASE}/{}/{}", self.year, self.number)
    }

    /// As Danish legal writing cites it: `LBK nr. 1129 af 2025`.
    pub fn citation(&self) -> String {
        format!("{} nr. {} af {}", self.kind, self.number, self.year)
    }
}

/// The source id: `LBK-2025-1129`.
impl fmt::Display for DocRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}-{}", self.kind, self.year, self.number)
    }
}

/// Plain ASCII digits without a leading zero (so an id has one spelling).
fn digits(s: &str) -> bool {
    !s.is_empty() && !s.starts_with('0') && s.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_ids_round_trip_and_give_the_link() {
        let doc = DocRef::parse("LBK-2025-1129").unwrap();
        assert_eq!(
            (doc.kind.as_str(), doc.year, doc.number),
            ("LBK", 2025, 1129)
        );
        assert_eq!(doc.to_string(), "LBK-2025-1129");
        assert_eq!(
            doc.eli_url(),
            "https://www.retsinformation.dk/eli/lta/2025/1129"
        );
        assert_eq!(doc.citation(), "LBK nr. 1129 af 2025");
    }

    #[test]
    fn other_sources_are_not_documents() {
        for source in [
            "straffeloven",
            "AK",
            "LBK-2025",
            "LBK-2025-1129-1",
            "lbk-2025-1129",
            "LBK-25-1129",
            "LBK-2025-0",
            "LBK-2025-01129",
            "LBK-2025-+1",
            "L-2025-1",
            "LBKLBK-2025-1",
            "",
        ] {
            assert_eq!(DocRef::parse(source), None, "{source}");
        }
    }
}
