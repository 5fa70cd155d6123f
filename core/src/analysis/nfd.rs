//! Canonical decomposition (NFD), as `unicode-normalization`'s `nfd()`
//! gives it. That iterator picks canonical or compatibility decomposition
//! at run time, so it links the compatibility tables too: 77 KB of the
//! app's wasm (docs/benchmarks/browser.md, "What holds the wasm's bytes")
//! that nothing here uses. Same algorithm: each character fully decomposed,
//! then every run of combining marks put in canonical order.

use unicode_normalization::char::{canonical_combining_class, decompose_canonical};

/// `s` in Normalization Form D.
pub fn nfd(s: &str) -> Vec<char> {
    let mut out = Vec::with_capacity(s.len());
    for c in s.chars() {
        decompose_canonical(c, |d| out.push(d));
    }
    let mut i = 0;
    while i < out.len() {
        if canonical_combining_class(out[i]) == 0 {
            i += 1;
            continue;
        }
        let start = i;
        while i < out.len() && canonical_combining_class(out[i]) != 0 {
            i += 1;
        }
        order_marks(&mut out[start..i]);
    }
    out
}

/// Canonical ordering of one run of marks: stable by combining class.
/// Insertion sort: runs are a few marks long, and it adds no sort
/// instantiation to the wasm.
fn order_marks(marks: &mut [char]) {
    for i in 1..marks.len() {
        let mut j = i;
        while j > 0 && canonical_combining_class(marks[j - 1]) > canonical_combining_class(marks[j])
        {
            marks.swap(j - 1, j);
            j -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use unicode_normalization::UnicodeNormalization;

    use super::nfd;

    /// Every scalar value alone, then strings that need reordering, equal
    /// the crate's own `nfd()`.
    #[test]
    fn equals_the_crates_nfd() {
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let s = c.to_string();
            assert_eq!(nfd(&s), s.nfd().collect::<Vec<_>>(), "U+{:04X}", c as u32);
        }
        for s in [
            "a\u{0301}\u{0316}\u{0300}b",
            "ά\u{0345}\u{0313}ὅ",
            "\u{1D165}\u{0301}\u{0316}x\u{0328}\u{0301}\u{0323}",
            "한국어 ΆΈΉΊΌΎΏ ΐΰ",
            "q\u{0307}\u{0323}\u{0307}\u{05B0}\u{0591}",
        ] {
            assert_eq!(nfd(s), s.nfd().collect::<Vec<_>>(), "{s:?}");
        }
    }
}
