//! Splits one § of a Retsinformation act into stykker the way CRAwLeR-DK's
//! chunks are cut: stk 1 keeps the "§ 91." heading, later stykker start with
//! "Stk. N.", and numbered items ("1) … 2) …", flattened onto one line in our
//! JSON) go on lines of their own, as in the benchmark's chunk text.

use std::fmt;

/// A § number as ids spell it: § 143 t is `{number: 143, letter: "t"}` and
/// `§143t` in an id. Ordered by number, then letter, so ranges such as
/// "§§ 15-15 b" are key ranges.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SectionKey {
    pub number: u32,
    pub letter: String,
}

impl SectionKey {
    /// Parses a `section` field such as `91` or `143t`; `None` for the
    /// repealed ranges (`28-30`, `168og169`) that are not one §.
    pub fn parse(section: &str) -> Option<SectionKey> {
        let digits = section.len()
            - section
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .len();
        let number = section[..digits].parse().ok()?;
        let letter = &section[digits..];
        let mut chars = letter.chars();
        match (chars.next(), chars.next()) {
            (None, _) => {}
            (Some(c), None) if c.is_lowercase() => {}
            _ => return None,
        }
        Some(SectionKey {
            number,
            letter: letter.to_string(),
        })
    }

    /// The id fragment after `§`: `143t`.
    pub fn id_part(&self) -> String {
        format!("{}{}", self.number, self.letter)
    }
}

/// As Danish text writes it: `143 t`.
impl fmt::Display for SectionKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.letter.is_empty() {
            write!(f, "{}", self.number)
        } else {
            write!(f, "{} {}", self.number, self.letter)
        }
    }
}

/// One stykke of a §.
#[derive(Debug, Clone, PartialEq)]
pub struct Stykke {
    pub number: u32,
    /// The chunk text, items on their own lines.
    pub text: String,
    /// The lines of `text` when it has numbered items, else empty.
    pub items: Vec<String>,
    /// Byte offset in `text` after the "§ 91." / "Stk. 2." heading, where
    /// cross-references are looked for (the heading is not one).
    pub body_start: usize,
}

/// Splits a provision's `content` into stykker. A "Stk. N." marker starts a
/// new stykke only if N exceeds the previous number (so references such as
/// "Stk. 3, stk. 4 og stk. 8 finder …" never split) and is not followed by a
/// lowercase word. "Stk. 3-4. (Udelades)" counts as stykke 3, and a marker
/// missing its period ("Stk. 2 Medlemmer", selskabsloven § 112) is accepted
/// when it is the next number.
pub fn split_stykker(content: &str) -> Vec<Stykke> {
    let content = content.trim();
    let mut pieces = Vec::new();
    let (mut number, mut start) = (1, 0);
    let mut search = 0;
    while let Some(found) = content[search..].find(" Stk. ") {
        let at = search + found + 1;
        search = at + 5;
        if let Some((n, _)) = stk_marker(&content[at..], number) {
            pieces.push((number, &content[start..at]));
            (number, start) = (n, at);
        }
    }
    pieces.push((number, &content[start..]));
    pieces
        .into_iter()
        .map(|(number, raw)| {
            let raw = raw.trim();
            let body_start = if number == 1 {
                section_heading_len(raw)
            } else {
                stk_marker(raw, number - 1).map_or(0, |(_, len)| len)
            };
            let items = split_items(raw);
            let text = if items.is_empty() {
                raw.to_string()
            } else {
                items.join("\n")
            };
            Stykke {
                number,
                text,
                items,
                body_start,
            }
        })
        .collect()
}

/// Parses "Stk. N." (or "Stk. N-M." or "Stk. N ") at the start of `s` if it
/// opens a stykke after stykke `previous`: its number and its length.
fn stk_marker(s: &str, previous: u32) -> Option<(u32, usize)> {
    let rest = s.strip_prefix("Stk. ")?;
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let number: u32 = rest[..digits].parse().ok()?;
    let mut after = &rest[digits..];
    if let Some(range) = after.strip_prefix('-') {
        after = range.trim_start_matches(|c: char| c.is_ascii_digit());
    }
    let (after, has_period) = match after.strip_prefix('.') {
        Some(a) => (a, true),
        None => (after, false),
    };
    let next = after.strip_prefix(' ').map(|a| a.chars().next());
    let opens = match next {
        Some(Some(c)) => {
            !c.is_lowercase() && (has_period || (number == previous + 1 && c.is_uppercase()))
        }
        Some(None) | None => has_period && after.is_empty(),
    };
    (opens && number > previous).then(|| (number, s.len() - after.len()))
}

/// Length of a leading "§ 91." / "§ 143 t." heading ("§ 41" without its
/// period in one act), or 0.
fn section_heading_len(s: &str) -> usize {
    let Some(rest) = s.strip_prefix('§') else {
        return 0;
    };
    let rest = rest.trim_start();
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return 0;
    }
    let mut after = &rest[digits..];
    let mut chars = after.chars();
    if let (Some(' '), Some(l), next) = (chars.next(), chars.next(), chars.next()) {
        if l.is_lowercase() && matches!(next, Some('.') | Some(' ') | None) {
            after = &after[1 + l.len_utf8()..];
        }
    }
    let after = after.strip_prefix('.').unwrap_or(after);
    s.len() - after.len()
}

/// The lines of a stykke with numbered items "1) … 2) …": the lead-in, then
/// one line per item. Items must run 1, 2, 3, … (at least two), which keeps
/// a lone footnote marker "1)" from splitting the text; empty if none.
fn split_items(text: &str) -> Vec<String> {
    let mut cuts = Vec::new();
    let mut from = 0;
    for n in 1.. {
        match text[from..].find(&format!(" {n}) ")) {
            Some(at) => {
                cuts.push(from + at);
                from += at + 1;
            }
            None => break,
        }
    }
    if cuts.len() < 2 {
        return Vec::new();
    }
    let mut lines = Vec::with_capacity(cuts.len() + 1);
    let mut start = 0;
    for cut in cuts {
        lines.push(text[start..cut].trim().to_string());
        start = cut + 1;
    }
    lines.push(text[start..].trim().to_string());
    lines.retain(|l| !l.is_empty());
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn section_keys_parse_plain_and_lettered_numbers_only() {
        let key = SectionKey::parse("143t").unwrap();
        assert_eq!(
            (key.id_part(), key.to_string()),
            ("143t".into(), "143 t".into())
        );
        assert!(SectionKey::parse("28-30").is_none());
        assert!(SectionKey::parse("168og169").is_none());
        assert!(SectionKey::parse("").is_none());
        assert!(SectionKey::parse("5A").is_none());
    }

    #[test]
    fn splits_on_increasing_markers_only() {
        // almenboligloven § 179, stk. 10 (abridged): a capitalised reference
        // "Stk. 3, stk. 4" must not open stykker 3 and 4.
        let s = split_stykker(
            "§ 179. Staten garanterer. Stk. 2. Konvertering foretages. \
             Stk. 3, stk. 4 og stk. 8, 1.-3. pkt., finder tilsvarende anvendelse.",
        );
        let numbers: Vec<u32> = s.iter().map(|s| s.number).collect();
        assert_eq!(numbers, [1, 2]);
        assert_eq!(&s[0].text[s[0].body_start..], " Staten garanterer.");
        assert!(s[1].text.starts_with("Stk. 2. Konvertering"));
        assert_eq!(&s[1].text[..s[1].body_start], "Stk. 2.");
    }

    #[test]
    fn handles_omitted_ranges_and_missing_periods() {
        // årsregnskabsloven § 166 and selskabsloven § 112 (abridged).
        let s = split_stykker("§ 166. Stk. 1-4. (Udelades) Stk. 5. Erhvervsstyrelsen kan fravige.");
        assert_eq!(s.iter().map(|s| s.number).collect::<Vec<_>>(), [1, 5]);
        assert_eq!(s[0].text, "§ 166. Stk. 1-4. (Udelades)");
        let s = split_stykker(
            "§ 112. Medlemmer registreres. Stk. 2 Medlemmer skal være myndige. Stk. 3. Andet.",
        );
        assert_eq!(s.iter().map(|s| s.number).collect::<Vec<_>>(), [1, 2, 3]);
        let s = split_stykker("§ 41 I erhvervsdrivende fonde gælder.");
        assert_eq!(&s[0].text[..s[0].body_start], "§ 41");
        let s = split_stykker("§ 96 b. Tekst.");
        assert_eq!(&s[0].text[..s[0].body_start], "§ 96 b.");
    }

    #[test]
    fn items_go_on_their_own_lines() {
        let s =
            split_stykker("§ 1. En organisation er: 1) En boligorganisation. 2) En institution.");
        assert_eq!(
            s[0].text,
            "§ 1. En organisation er:\n1) En boligorganisation.\n2) En institution."
        );
        assert_eq!(s[0].items.len(), 3);
        let s = split_stykker("§ 2. Bekendtgørelse af loven 1) med en fodnote.");
        assert!(s[0].items.is_empty());
        assert!(!s[0].text.contains('\n'));
    }

    #[test]
    fn fragments_do_not_panic() {
        for text in [
            "§",
            "§ 5 Stk. 2.",
            "x Stk. 99999999999. y",
            "a Stk. 2-",
            "§ 5 a",
            "a 1) 2) ",
        ] {
            let s = split_stykker(text);
            assert!(s.iter().all(|s| s.body_start <= s.text.len()), "{text}");
        }
        assert_eq!(split_stykker("§ 5 Stk. 2.").len(), 2);
    }
}
