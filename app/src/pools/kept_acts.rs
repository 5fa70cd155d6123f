//! Which acts of a fragmented pool this browser keeps offline ("Keep this
//! act offline"), with their sizes: a list in `localStorage` under the
//! pool's URL, for the build it was kept from. Another build's documents
//! fragments differ, so its list starts empty.

use nomos_core::eli::DocRef;

use crate::web::{local_get, local_set, StorageError};

/// Under `localStorage`'s key of this name after the pool's URL.
const KEY: &str = "#kept-acts";

/// The acts kept, in the order they were kept: source id and bytes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct KeptActs {
    pub acts: Vec<(String, u64)>,
}

impl KeptActs {
    /// The list kept for build `build` of the pool served at `dir`.
    pub fn load(dir: &str, build: &str) -> KeptActs {
        local_get(&format!("{dir}{KEY}")).map_or_else(KeptActs::default, |t| parse(&t, build))
    }

    /// Keeps the list for build `build` of the pool at `dir`; a browser
    /// that refuses says why (the act stays kept by the service worker).
    pub fn save(&self, dir: &str, build: &str) -> Result<(), StorageError> {
        local_set(&format!("{dir}{KEY}"), &self.written(build))
    }

    /// Whether `source` is kept, and its bytes.
    pub fn bytes(&self, source: &str) -> Option<u64> {
        self.acts.iter().find(|(s, _)| s == source).map(|&(_, b)| b)
    }

    /// The list with `source` of `bytes` kept (once).
    pub fn with(mut self, source: &str, bytes: u64) -> KeptActs {
        self.acts.retain(|(s, _)| s != source);
        self.acts.push((source.to_owned(), bytes));
        self
    }

    /// The first line the build, then a line per act: bytes, a tab, the id.
    fn written(&self, build: &str) -> String {
        let lines = self.acts.iter().map(|(s, b)| format!("{b}\t{s}"));
        std::iter::once(build.to_owned())
            .chain(lines)
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// `text` as [`KeptActs::written`] wrote it, if for `build`; lines that
/// are not an act (edited by hand, say) are skipped.
fn parse(text: &str, build: &str) -> KeptActs {
    let mut lines = text.lines();
    if lines.next() != Some(build) {
        return KeptActs::default();
    }
    let acts = lines
        .filter_map(|line| {
            let (bytes, source) = line.split_once('\t')?;
            Some((source.to_owned(), bytes.parse().ok()?))
        })
        .filter(|(source, _): &(String, u64)| !source.is_empty())
        .collect();
    KeptActs { acts }
}

/// What the user calls act `source`: a Retsinformation document's
/// citation (`LBK nr. 1129 af 2025`), else its id.
pub fn act_name(source: &str) -> String {
    DocRef::parse(source).map_or_else(|| source.to_owned(), |r| r.citation())
}

#[cfg(test)]
mod tests {
    use crate::pools::kept_acts::{act_name, parse, KeptActs};

    #[test]
    fn the_list_reads_back_for_its_build_only() {
        let kept = KeptActs::default()
            .with("LBK-2025-1129", 1_200_000)
            .with("BEK-2024-977", 80_000)
            .with("LBK-2025-1129", 1_300_000);
        let text = kept.written("b1");
        assert_eq!(parse(&text, "b1").acts, kept.acts);
        assert_eq!(kept.bytes("LBK-2025-1129"), Some(1_300_000));
        assert_eq!(kept.bytes("LBK-2025-354"), None);
        assert!(parse(&text, "b2").acts.is_empty(), "another build's list");
        let edited = "b1\nnot a line\n12\t\nx\tLBK-2025-354\n7\tBEK-2024-977";
        assert_eq!(parse(edited, "b1").acts, [("BEK-2024-977".into(), 7)]);
    }

    #[test]
    fn acts_are_named_as_cited() {
        assert_eq!(act_name("LBK-2025-1129"), "LBK nr. 1129 af 2025");
        assert_eq!(act_name("straffeloven"), "straffeloven");
    }
}
