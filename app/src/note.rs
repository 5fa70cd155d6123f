//! A pool's note as the page shows it: a long one (a list of 43 ids, the
//! files a build left out) folds to its first clause, so that the notes
//! do not push the search box and results off the first screen.

/// Notes up to this many characters are shown whole.
const SHORT: usize = 200;

/// `note` as a summary and the rest, when it is long enough to fold: the
/// summary ends at the first `: `, ` (` or `. ` after 20 characters and
/// within 160, else after 120 characters (at a word) with "…".
pub fn fold(note: &str) -> Option<(String, String)> {
    if note.chars().count() <= SHORT {
        return None;
    }
    let within: String = note.chars().take(160).collect();
    let cut = [": ", " (", ". "]
        .iter()
        .filter_map(|sep| within.match_indices(sep).map(|(i, _)| i).find(|&i| i >= 20))
        .min();
    let (head, rest) = match cut {
        Some(i) => {
            let head = note[..i].trim_end_matches([' ', ':']);
            (
                format!("{head}…"),
                note[i..].trim_start_matches([':', '.', ' ']),
            )
        }
        None => {
            let cut = within.rfind(' ').unwrap_or(within.len());
            (format!("{}…", &note[..cut]), note[cut..].trim_start())
        }
    };
    Some((head, rest.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::fold;

    #[test]
    fn a_short_note_is_shown_whole() {
        assert_eq!(fold("STARD reduced pool: only the gold articles."), None);
    }

    #[test]
    fn a_long_note_folds_at_its_first_clause() {
        let ids = vec!["AK::1865"; 40].join(", ");
        let note = format!(
            "43 articles have no text in the export (repealed) and are not in the pool: {ids}"
        );
        let (head, rest) = fold(&note).unwrap();
        assert_eq!(head, "43 articles have no text in the export…");
        assert!(
            rest.starts_with("(repealed) and are not in the pool: AK::1865"),
            "{rest}"
        );
    }

    #[test]
    fn a_long_note_without_a_clause_folds_at_a_word() {
        let note = "ελληνικά ".repeat(40);
        let (head, rest) = fold(&note).unwrap();
        assert!(head.ends_with("ελληνικά…"), "{head}");
        assert_eq!(
            format!("{} {rest}", head.trim_end_matches('…')).trim_end(),
            note.trim_end()
        );
    }
}
