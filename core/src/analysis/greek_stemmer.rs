//! Port of greek-stemmer-plus 0.2.0 (`GreekStemmer.stem`), the stemmer of the
//! GreekBarRetrieval BM25 baseline. Snowball Greek gives different stems, so
//! this follows the Python code step by step; the rule lists live in
//! `greek_stemmer_rules.rs` (copied from it, MIT).
//!
//! The reference expresses every step as a Python `re` pattern; without
//! backreferences they reduce to three string tests, used throughout:
//! - `^(.+?)(S1|S2…)$` → `strip_longest`: the lazy `.+?` takes the shortest
//!   non-empty prefix, i.e. the *longest* listed suffix that leaves ≥ 1 char;
//! - `re.search("(X|Y)$", st)` → `ends_with_any` (the `*_ENDS` lists);
//! - `re.search("^(X|Y)$", st)` → `equals_any` (the `*_STEMS` lists).
//!
//! None of those patterns use `re.I`, so they compare code points exactly
//! (the pipeline feeds uppercase words); only the alphabet and vowel classes
//! are case-insensitive.
//!
//! Python's `$` also matches before a trailing `"\n"`; a word never contains
//! one (`\n` is not `\w`), and such input is returned unchanged here.

use super::greek_stemmer_rules::*;

/// Stems one word exactly like greek-stemmer-plus 0.2.0 `GreekStemmer().stem`.
///
/// Words shorter than 3 characters, words with any character outside the
/// Greek alphabet class (digits, Latin, accented letters) and protected words
/// come back unchanged.
pub fn stem(word: &str) -> String {
    let word_len = word.chars().count();
    if word_len < 3
        || !word.chars().all(in_alphabet)
        || PROTECTED_WORDS.binary_search(&word).is_ok()
    {
        return word.to_owned();
    }

    let mut stem = step_1(word);

    // step 2a-2d
    if let Some(st) = strip_longest(&stem, S2A_SUFFIXES) {
        stem = with_suffix(st, !ends_with_any(st, S2A_NO_AD_ENDS), "ΑΔ");
    }
    if let Some(st) = strip_longest(&stem, S2B_SUFFIXES) {
        stem = with_suffix(st, ends_with_any(st, S2B_ED_ENDS), "ΕΔ");
    }
    if let Some(st) = strip_longest(&stem, S2C_SUFFIXES) {
        stem = with_suffix(st, ends_with_any(st, S2C_OUD_ENDS), "ΟΥΔ");
    }
    if let Some(st) = strip_longest(&stem, S2D_SUFFIXES) {
        stem = with_suffix(st, equals_any(st, S2D_E_STEMS), "Ε");
    }

    // step 3
    if let Some(st) = strip_longest(&stem, S3_SUFFIXES) {
        let keep = ends_on_vowel(st) || st.chars().count() < 2 || equals_any(st, S3_I_STEMS);
        let mut next = with_suffix(st, keep, "Ι");
        if st == "ΠΑΛ" {
            next.push_str("ΑΙ");
        }
        stem = next;
    }

    // step 4
    if let Some(st) = strip_longest(&stem, S4_SUFFIXES) {
        let keep = ends_on_vowel(st) || equals_any(st, S4_IK_STEMS) || st.ends_with("ΦΟΙΝ");
        stem = with_suffix(st, keep, "ΙΚ");
    }

    // step 5a
    if word == "ΑΓΑΜΕ" {
        stem = "ΑΓΑΜ".to_owned();
    }
    if let Some(st) = strip_longest(&stem, S5A_SUFFIXES) {
        stem = st.to_owned();
    }
    if let Some(st) = strip_longest(&stem, &["ΑΜΕ"]) {
        stem = with_suffix(st, equals_any(st, S5A_AME_STEMS), "ΑΜ");
    }

    // step 5b
    if let Some(st) = strip_longest(&stem, S5B_SUFFIXES) {
        stem = with_suffix(st, equals_any(st, S5B_AGAN_STEMS), "ΑΓΑΝ");
    }
    if let Some(st) = strip_longest(&stem, &["ΑΝΕ"]) {
        let keep = equals_any(st, S5B_ANE_STEMS) || ends_on_vowel_without_y(st);
        stem = with_suffix(st, keep, "ΑΝ");
    }

    // step 5c
    if let Some(st) = strip_longest(&stem, &["ΗΣΕΤΕ"]) {
        stem = st.to_owned();
    }
    if let Some(st) = strip_longest(&stem, &["ΕΤΕ"]) {
        let keep = ends_on_vowel_without_y(st)
            || ends_with_any(st, S5C_ETE_ENDS)
            || equals_any(st, S5C_ETE_STEMS);
        stem = with_suffix(st, keep, "ΕΤ");
    }

    // step 5d
    if let Some(st) = strip_longest(&stem, S5D_SUFFIXES) {
        let mut next = with_suffix(st, st == "ΑΡΧ", "ΟΝΤ");
        if st.ends_with("ΚΡΕ") {
            next.push_str("ΩΝΤ");
        }
        stem = next;
    }

    // step 5e
    if let Some(st) = strip_longest(&stem, S5E_SUFFIXES) {
        stem = with_suffix(st, st == "ΟΝ", "ΟΜΑΣΤ");
    }

    // step 5f
    if let Some(st) = strip_longest(&stem, &["ΙΕΣΤΕ"]) {
        stem = with_suffix(st, equals_any(st, S5F_IESTE_STEMS), "ΙΕΣΤ");
    }
    if let Some(st) = strip_longest(&stem, &["ΕΣΤΕ"]) {
        stem = with_suffix(st, equals_any(st, S5F_ESTE_STEMS), "ΕΣΤ");
    }

    // step 5g
    if let Some(st) = strip_longest(&stem, S5G_SUFFIXES) {
        stem = st.to_owned();
    }
    if let Some(st) = strip_longest(&stem, S5G_HKA_SUFFIXES) {
        let keep = ends_with_any(st, S5G_HK_ENDS) || equals_any(st, S5G_HK_STEMS);
        stem = with_suffix(st, keep, "ΗΚ");
    }

    // step 5h
    if let Some(st) = strip_longest(&stem, S5H_SUFFIXES) {
        let keep =
            equals_any(st, S5H_OUS_STEMS) || ends_with_any(st, S5H_OUS_ENDS) || ends_on_vowel(st);
        stem = with_suffix(st, keep, "ΟΥΣ");
    }

    // step 5i
    if let Some(st) = strip_longest(&stem, S5I_SUFFIXES) {
        let keep = (equals_any(st, S5I_AG_STEMS) || ends_with_any(st, S5I_AG_ENDS))
            && !(equals_any(st, S5I_NO_AG_STEMS) || st.ends_with("ΚΟΛΛ"));
        stem = with_suffix(st, keep, "ΑΓ");
    }

    // step 5j-5m
    if let Some(st) = strip_longest(&stem, S5J_SUFFIXES) {
        stem = with_suffix(st, equals_any(st, S5J_HS_STEMS), "ΗΣ");
    }
    if let Some(st) = strip_longest(&stem, &["ΗΣΤΕ"]) {
        stem = with_suffix(st, equals_any(st, S5K_HST_STEMS), "ΗΣΤ");
    }
    if let Some(st) = strip_longest(&stem, S5L_SUFFIXES) {
        stem = with_suffix(st, equals_any(st, S5L_OUN_STEMS), "ΟΥΝ");
    }
    if let Some(st) = strip_longest(&stem, S5M_SUFFIXES) {
        stem = with_suffix(st, equals_any(st, S5M_OUM_STEMS), "ΟΥΜ");
    }

    // step 6a
    if let Some(st) = strip_longest(&stem, S6A_SUFFIXES) {
        let mut next = format!("{st}Μ");
        if st == "ΓΡΑΜ" {
            next.push('Α');
        } else if equals_any(st, &["ΓΕ", "ΣΤΑ"]) {
            next.push_str("ΑΤ");
        }
        stem = next;
    }

    // long_stem_list, only when no step changed the length.
    if stem.chars().count() == word_len {
        if let Some(st) = strip_longest(&stem, LONG_STEM_SUFFIXES) {
            stem = st.to_owned();
        }
    }

    // Comparatives and superlatives, last.
    if let Some(st) = strip_longest(&stem, COMPARATIVE_SUFFIXES) {
        if equals_any(st, COMPARATIVE_YT_STEMS) {
            stem = format!("{st}ΥΤ");
        } else if !equals_any(st, COMPARATIVE_KEEP_STEMS) {
            stem = st.to_owned();
        }
    }

    stem
}

/// Step 1, `(.*)(KEY1|KEY2…)$` over `step_1_exceptions`: the greedy `.*`
/// makes the *shortest* key that ends the word win; the prefix may be empty.
fn step_1(word: &str) -> String {
    STEP_1_EXCEPTIONS
        .iter()
        .filter(|(key, _)| word.ends_with(key))
        .min_by_key(|(key, _)| key.len())
        .map_or_else(
            || word.to_owned(),
            |(key, replacement)| format!("{}{replacement}", &word[..word.len() - key.len()]),
        )
}

/// `^(.+?)(S1|S2…)$`: the stem left by removing the longest of `suffixes`
/// that ends `s` and leaves at least one character.
fn strip_longest<'a>(s: &'a str, suffixes: &[&str]) -> Option<&'a str> {
    suffixes
        .iter()
        .filter(|suffix| s.len() > suffix.len() && s.ends_with(*suffix))
        .max_by_key(|suffix| suffix.len())
        .map(|suffix| &s[..s.len() - suffix.len()])
}

fn ends_with_any(s: &str, endings: &[&str]) -> bool {
    endings.iter().any(|e| s.ends_with(e))
}

fn equals_any(s: &str, stems: &[&str]) -> bool {
    stems.contains(&s)
}

/// `st` followed by `suffix` when `keep`, else `st` alone.
fn with_suffix(st: &str, keep: bool, suffix: &str) -> String {
    if keep {
        format!("{st}{suffix}")
    } else {
        st.to_owned()
    }
}

/// `ALPHABET` = `^[\u0391-\u03a9\u03b1-\u03c9]+$` with `re.I`. Python's
/// case-insensitive class also admits characters whose lowercase is in it:
/// µ (micro), ͅ (ypogegrammeni), ϐϑϕϖϰϱϴϵ (symbol variants), ι (U+1FBE) and Ω (ohm).
fn in_alphabet(c: char) -> bool {
    matches!(
        c,
        '\u{B5}'
            | '\u{345}'
            | '\u{391}'..='\u{3A9}'
            | '\u{3B1}'..='\u{3C9}'
            | '\u{3D0}'..='\u{3D1}'
            | '\u{3D5}'..='\u{3D6}'
            | '\u{3F0}'..='\u{3F1}'
            | '\u{3F4}'..='\u{3F5}'
            | '\u{1FBE}'
            | '\u{2126}'
    )
}

/// `VOWELS` = `[ΑΕΗΙΟΥΩ]$` with `re.I`: the last character is one of those
/// letters in either case (or ͅ/ι U+1FBE for Ι, ϵ for Ε, Ω ohm for Ω).
fn ends_on_vowel(s: &str) -> bool {
    s.chars()
        .next_back()
        .is_some_and(|c| is_vowel_without_y(c) || matches!(c, 'Υ' | 'υ'))
}

/// `VOWELS_WITHOUT_Y` = `[ΑΕΗΙΟΩ]$` with `re.I`.
fn ends_on_vowel_without_y(s: &str) -> bool {
    s.chars().next_back().is_some_and(is_vowel_without_y)
}

fn is_vowel_without_y(c: char) -> bool {
    matches!(
        c,
        'Α' | 'Ε'
            | 'Η'
            | 'Ι'
            | 'Ο'
            | 'Ω'
            | 'α'
            | 'ε'
            | 'η'
            | 'ι'
            | 'ο'
            | 'ω'
            | '\u{3F5}'
            | '\u{345}'
            | '\u{1FBE}'
            | '\u{2126}'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Python's classes, per code point, from the fixture generator.
    fn python_class(tsv: &str) -> Vec<(u32, u32)> {
        tsv.lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| {
                let (a, b) = l.split_once('\t').unwrap();
                (
                    u32::from_str_radix(a, 16).unwrap(),
                    u32::from_str_radix(b, 16).unwrap(),
                )
            })
            .collect()
    }

    fn assert_class(tsv: &str, rust: impl Fn(char) -> bool) {
        let python = python_class(tsv);
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let expected = python
                .iter()
                .any(|&(lo, hi)| (lo..=hi).contains(&u32::from(c)));
            assert_eq!(rust(c), expected, "U+{:04X}", u32::from(c));
        }
    }

    #[test]
    fn character_classes_match_python_for_every_code_point() {
        assert_class(
            include_str!("../../tests/fixtures/analysis/py_stemmer_alphabet_ranges.tsv"),
            in_alphabet,
        );
        assert_class(
            include_str!("../../tests/fixtures/analysis/py_stemmer_vowels_ranges.tsv"),
            |c| ends_on_vowel(c.encode_utf8(&mut [0; 4])),
        );
        assert_class(
            include_str!("../../tests/fixtures/analysis/py_stemmer_vowels_without_y_ranges.tsv"),
            |c| ends_on_vowel_without_y(c.encode_utf8(&mut [0; 4])),
        );
    }

    #[test]
    fn regex_semantics() {
        // Longest suffix that leaves one character; never the whole word.
        assert_eq!(strip_longest("ΑΙΑ", &["Α", "ΙΑ", "ΑΙΑ"]), Some("Α"));
        assert_eq!(strip_longest("ΙΑ", &["ΙΑ"]), None);
        // Step 1: the shortest matching key wins, and the prefix may be empty.
        assert_eq!(step_1("ΦΩΤΑ"), "ΦΩ");
        assert_eq!(step_1("ΠΑΙΔΙΚΑ"), "ΠΑΙΔΙΚ");
    }

    #[test]
    fn rule_tables_are_sorted_for_binary_search() {
        assert!(PROTECTED_WORDS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn input_contract() {
        assert_eq!(stem("ΟΙ"), "ΟΙ");
        assert_eq!(stem("ΑΡΘΡΟ5"), "ΑΡΘΡΟ5");
        assert_eq!(stem("ΆΡΘΡΟ"), "ΆΡΘΡΟ");
        assert_eq!(stem("ΚΑΤΑ"), "ΚΑΤΑ");
        assert_eq!(stem(""), "");
        // Micro sign passes the alphabet check but matches no suffix rule literally.
        assert_eq!(stem("ΝΟΜΟΣ"), "ΝΟΜ");
        assert_eq!(stem("ΝΟΜΟ\u{B5}"), "ΝΟΜΟ\u{B5}");
    }
}
