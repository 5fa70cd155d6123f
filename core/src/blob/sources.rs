//! The optional `SRCN` section: what each source (act, code) is called.
//! Written by the builder from the source files, read by the app for the
//! Source facet and result metadata, and by the citation parser (`cite`) to find an act
//! by name, abbreviation or number. Blobs without it load as before: each
//! source is then known only by its id.

use super::format::{ArchivedSourcesSection, SourceInfo, SourcesSection};
use super::BlobError;

/// Limits that keep a crafted section from bloating the page: a real act
/// has a name of a few words, a handful of aliases and a title of a line
/// or two.
const MAX_NAME: usize = 200;
const MAX_TITLE: usize = 2_000;
const MAX_ALIASES: usize = 32;
const MAX_NUMBER: usize = 100;

/// What the builder knows of one source.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceInput {
    /// The source id the documents carry (`straffeloven`, `AK`).
    pub source: String,
    /// What it is called.
    pub info: SourceInfo,
}

/// The section for `names` (the docs section's sources in order), or
/// `None` when nothing is known of any. A source without input keeps its id
/// as its name; input for a source no document has is an error.
pub(super) fn section(
    names: &[String],
    inputs: &[SourceInput],
) -> Result<Option<SourcesSection>, BlobError> {
    if inputs.is_empty() {
        return Ok(None);
    }
    if let Some(unused) = inputs.iter().find(|i| !names.contains(&i.source)) {
        return Err(BlobError::Input(format!(
            "a name is given for source `{}`, which no document has",
            unused.source
        )));
    }
    let sources = names
        .iter()
        .map(|name| {
            let info = inputs
                .iter()
                .find(|i| &i.source == name)
                .map_or_else(SourceInfo::default, |i| i.info.clone());
            let info = SourceInfo {
                name: if info.name.is_empty() {
                    name.clone()
                } else {
                    info.name
                },
                ..info
            };
            check(&info).map(|()| info).map_err(BlobError::Input)
        })
        .collect::<Result<_, _>>()?;
    Ok(Some(SourcesSection { sources }))
}

/// Checks the section against the docs section's `n_sources` and copies it.
pub(super) fn load(
    section: &ArchivedSourcesSection,
    n_sources: usize,
) -> Result<Vec<SourceInfo>, BlobError> {
    let bad = |msg: String| BlobError::invalid("sources", msg);
    if section.sources.len() != n_sources {
        return Err(bad(format!(
            "{} entries for {n_sources} sources",
            section.sources.len()
        )));
    }
    section
        .sources
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let info = SourceInfo {
                name: s.name.to_string(),
                title: s.title.to_string(),
                aliases: s.aliases.iter().map(|a| a.to_string()).collect(),
                number: s.number.to_string(),
                date: s.date.to_string(),
            };
            check(&info).map_err(|e| bad(format!("source {i}: {e}")))?;
            Ok(info)
        })
        .collect()
}

fn check(info: &SourceInfo) -> Result<(), String> {
    let chars = |s: &str| s.chars().count();
    if info.name.trim().is_empty() || chars(&info.name) > MAX_NAME {
        return Err(format!("name must be 1 to {MAX_NAME} characters"));
    }
    if chars(&info.title) > MAX_TITLE {
        return Err(format!("title longer than {MAX_TITLE} characters"));
    }
    if info.aliases.len() > MAX_ALIASES {
        return Err(format!("more than {MAX_ALIASES} aliases"));
    }
    if let Some(a) = info
        .aliases
        .iter()
        .find(|a| a.trim().is_empty() || chars(a) > MAX_NAME)
    {
        return Err(format!("alias `{a}` must be 1 to {MAX_NAME} characters"));
    }
    if chars(&info.number) > MAX_NUMBER {
        return Err(format!("number longer than {MAX_NUMBER} characters"));
    }
    if !info.date.is_empty() && !is_iso_date(&info.date) {
        return Err(format!("date `{}` is not YYYY-MM-DD", info.date));
    }
    Ok(())
}

fn is_iso_date(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' || !digits(0..4) {
        return false;
    }
    if !digits(5..7) || !digits(8..10) {
        return false;
    }
    let month = (b[5] - b'0') * 10 + (b[6] - b'0');
    let day = (b[8] - b'0') * 10 + (b[9] - b'0');
    (1..=12).contains(&month) && (1..=31).contains(&day)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(name: &str) -> SourceInfo {
        SourceInfo {
            name: name.into(),
            ..SourceInfo::default()
        }
    }

    #[test]
    fn sources_without_input_keep_their_id_and_unknown_ones_fail() {
        let names = vec!["a".to_string(), "b".to_string()];
        let input = |source: &str, name: &str| SourceInput {
            source: source.into(),
            info: info(name),
        };
        let s = section(&names, &[input("b", "Bee")]).unwrap().unwrap();
        assert_eq!(s.sources, vec![info("a"), info("Bee")]);
        assert!(section(&names, &[]).unwrap().is_none());
        let err = section(&names, &[input("c", "C")]).unwrap_err();
        assert!(err.to_string().contains("source `c`"), "{err}");
    }

    #[test]
    fn checks_each_field() {
        assert!(check(&info("Straffeloven")).is_ok());
        assert!(check(&info(" ")).is_err());
        assert!(check(&info(&"x".repeat(201))).is_err());
        let with = |f: &dyn Fn(&mut SourceInfo)| {
            let mut i = info("A");
            f(&mut i);
            check(&i)
        };
        assert!(with(&|i| i.date = "2025-11-07".into()).is_ok());
        for date in ["2025-13-01", "2025-11-7", "20251107xx", "2025/11/07"] {
            assert!(with(&|i| i.date = date.into()).is_err(), "{date}");
        }
        assert!(with(&|i| i.aliases = vec!["".into()]).is_err());
        assert!(with(&|i| i.aliases = vec!["a".into(); 33]).is_err());
        assert!(with(&|i| i.number = "n".repeat(101)).is_err());
        assert!(with(&|i| i.title = "t".repeat(2001)).is_err());
    }
}
