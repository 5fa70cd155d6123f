//! Python `str.upper()` / `str.lower()` for `\w` words.
//!
//! Both Python and Rust's `str` methods apply the full Unicode case mappings
//! (`ß` → `SS`, `İ` → `i̇`) and Python's `lower()` also applies the
//! Final_Sigma rule (`ΟΔΟΣ` → `οδος`), exactly like `str::to_lowercase`.
//! Their Unicode versions differ (Python 3.11: 14.0.0; Rust std: newer):
//! characters assigned later are never `\w` in Python and so never get here,
//! but a few older lowercase letters gained an uppercase since, and must stay
//! as they are. core/tests/analysis_parity.rs checks every `\w` character
//! against Python, so a toolchain with newer Unicode data shows up there.

/// Lowercase letters whose uppercase mapping is newer than Unicode 14.0.0
/// (added in Unicode 16.0: ƛ → Ƛ, ɤ → Ɤ, ꟓ → ꟒, ꟕ → ꟔); Python 3.11
/// leaves them unchanged.
const UPPERCASE_AFTER_UNICODE_14: [char; 4] = ['\u{19B}', '\u{264}', '\u{A7D3}', '\u{A7D5}'];

/// Python `word.upper()`.
pub fn upper(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    for c in word.chars() {
        if UPPERCASE_AFTER_UNICODE_14.contains(&c) {
            out.push(c);
        } else {
            out.extend(c.to_uppercase());
        }
    }
    out
}

/// Python `word.lower()`.
pub fn lower(word: &str) -> String {
    word.to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_mappings_and_final_sigma() {
        assert_eq!(upper("straße ﬁ µ ς"), "STRASSE FI Μ Σ");
        assert_eq!(lower("ΟΔΟΣ ΣΟΦΟΣ"), "οδος σοφος");
        assert_eq!(lower("Σ"), "σ");
        assert_eq!(lower("İ"), "i\u{307}");
        assert_eq!(upper("ƛɤ"), "ƛɤ");
    }
}
