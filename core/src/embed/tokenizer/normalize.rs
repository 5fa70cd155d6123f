//! tokenizer.json's normalizer: the steps it lists, applied in order to
//! each stretch of text between special tokens.

use unicode_segmentation::UnicodeSegmentation;

use super::charsmap::Charsmap;

/// One normalisation step of those our tokenizer.json uses.
#[derive(Debug, Clone)]
pub(super) enum Step {
    /// `Replace` with a `String` pattern: every occurrence, left to right.
    Replace { from: String, to: String },
    /// `Replace` with the regex ` {2,}`: each run of two or more spaces.
    SpaceRuns { to: String },
    /// `Precompiled`: SentencePiece's charsmap (nmt_nfkc).
    Charsmap(Charsmap),
}

impl Step {
    fn apply(&self, text: &str) -> String {
        match self {
            Step::Replace { from, to } => text.replace(from.as_str(), to),
            Step::SpaceRuns { to } => replace_space_runs(text, to),
            Step::Charsmap(map) => apply_charsmap(map, text),
        }
    }
}

pub(super) fn normalize(steps: &[Step], text: &str) -> String {
    let mut text = text.to_owned();
    for step in steps {
        text = step.apply(&text);
    }
    text
}

fn replace_space_runs(text: &str, to: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("  ") {
        out.push_str(&rest[..start]);
        out.push_str(to);
        let run = rest[start..].bytes().take_while(|&b| b == b' ').count();
        rest = &rest[start + run..];
    }
    out.push_str(rest);
    out
}

/// The `tokenizers` crate's use of the charsmap, which our reference ids
/// come from: per extended grapheme cluster, a cluster shorter than 6 bytes
/// is looked up whole (so `e` + combining acute can compose, and a cluster
/// whose first character has an entry is replaced by that entry alone);
/// otherwise, or without a match, character by character.
fn apply_charsmap(map: &Charsmap, text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for cluster in text.graphemes(true) {
        let whole = (cluster.len() < 6).then(|| map.lookup(cluster.as_bytes()));
        match whole {
            Some(Some(replacement)) => out.push_str(replacement),
            // A single character already missed the map.
            Some(None) if cluster.chars().nth(1).is_none() => out.push_str(cluster),
            _ => {
                for (i, c) in cluster.char_indices() {
                    match map.lookup(&cluster.as_bytes()[i..i + c.len_utf8()]) {
                        Some(replacement) => out.push_str(replacement),
                        None => out.push(c),
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn space_runs_become_one_replacement() {
        assert_eq!(replace_space_runs("a  b c   d ", " "), "a b c d ");
        assert_eq!(replace_space_runs("    ", "_"), "_");
        assert_eq!(replace_space_runs("\t \t", " "), "\t \t");
    }
}
