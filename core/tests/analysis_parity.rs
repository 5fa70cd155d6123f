//! Parity of `nomos_core::analysis` with the Python references, on fixtures
//! written by `scripts/fixtures/gen_analysis.py` (Python 3.11.7 / Unicode
//! 14.0.0, greek-stemmer-plus 0.2.0, snowballstemmer 3.1.1).

use std::collections::HashMap;

use nomos_core::analysis::{greek, greek_stemmer, pycase, pyword, Analyzer};
use serde_json::Value;

fn fixture(name: &str) -> String {
    let path = format!(
        "{}/tests/fixtures/analysis/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Rows of a TSV fixture with a header line.
fn tsv(name: &str) -> Vec<Vec<String>> {
    fixture(name)
        .lines()
        .skip(1)
        .map(|l| l.split('\t').map(str::to_owned).collect())
        .collect()
}

fn jsonl(name: &str) -> Vec<Value> {
    fixture(name)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_owned())
        .collect()
}

fn code_point(hex: &str) -> u32 {
    u32::from_str_radix(hex, 16).unwrap()
}

/// A fixture of inclusive hex ranges, `#` lines being comments.
fn ranges(name: &str) -> Vec<(u32, u32)> {
    fixture(name)
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let (a, b) = l.split_once('\t').unwrap();
            (code_point(a), code_point(b))
        })
        .collect()
}

fn all_chars() -> impl Iterator<Item = char> {
    (0..=0x10FFFF).filter_map(char::from_u32)
}

/// `codepoint → mapped string` for characters Python maps to something else.
fn char_mapping(name: &str) -> HashMap<char, String> {
    tsv(name)
        .into_iter()
        .map(|row| {
            let c = char::from_u32(code_point(&row[0])).unwrap();
            let mapped = row[1]
                .split(' ')
                .filter(|h| !h.is_empty())
                .map(|h| char::from_u32(code_point(h)).unwrap());
            (c, mapped.collect())
        })
        .collect()
}

fn python_word_chars() -> Vec<char> {
    ranges("py_word_ranges.tsv")
        .into_iter()
        .flat_map(|(lo, hi)| (lo..=hi).map(|c| char::from_u32(c).unwrap()))
        .collect()
}

fn analyzer(name: &str) -> Analyzer {
    Analyzer::by_name(name).unwrap()
}

#[test]
fn word_class_matches_python_for_every_code_point() {
    let python = python_word_chars();
    assert_eq!(python.len(), 133_548);
    let rust: Vec<char> = all_chars().filter(|&c| pyword::is_word_char(c)).collect();
    assert!(rust == python, "\\w differs from Python 3.11");
}

#[test]
fn greek_normalization_matches_python_for_every_word_char() {
    let python = char_mapping("py_gbr_normalize_chars.tsv");
    let wrong: Vec<String> = python_word_chars()
        .into_iter()
        .filter(|c| {
            greek::normalize_word(&c.to_string())
                != python.get(c).cloned().unwrap_or_else(|| c.to_string())
        })
        .map(|c| {
            format!(
                "U+{:04X} {c} -> {}",
                u32::from(c),
                greek::normalize_word(&c.to_string())
            )
        })
        .collect();
    assert!(wrong.is_empty(), "{} differ: {wrong:#?}", wrong.len());
}

#[test]
fn lowercase_matches_python_for_every_word_char() {
    let python = char_mapping("py_lower_chars.tsv");
    let wrong: Vec<String> = python_word_chars()
        .into_iter()
        .filter(|c| {
            pycase::lower(&c.to_string()) != python.get(c).cloned().unwrap_or_else(|| c.to_string())
        })
        .map(|c| {
            format!(
                "U+{:04X} {c} -> {}",
                u32::from(c),
                pycase::lower(&c.to_string())
            )
        })
        .collect();
    assert!(wrong.is_empty(), "{} differ: {wrong:#?}", wrong.len());
}

#[test]
fn edge_cases_match_python() {
    for case in jsonl("edge_cases.jsonl") {
        let text = case["text"].as_str().unwrap();
        let spanned = |key: &str| -> Vec<(String, std::ops::Range<usize>)> {
            case[key]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| {
                    let n = |i: usize| t[i].as_u64().unwrap() as usize;
                    (t[0].as_str().unwrap().to_owned(), n(1)..n(2))
                })
                .collect()
        };
        let words: Vec<_> = pyword::words(text)
            .map(|(w, s)| (w.to_owned(), s))
            .collect();
        assert_eq!(words, spanned("words"), "words of {text:?}");
        assert_eq!(
            analyzer("gbr-greek").tokens_with_spans(text),
            spanned("gbr-greek"),
            "gbr-greek on {text:?}"
        );
        let da: Vec<_> = spanned("da")
            .into_iter()
            .map(|(token, span)| {
                (
                    expected_da_stem(&pycase::lower(&text[span.clone()]), &token),
                    span,
                )
            })
            .collect();
        assert_eq!(analyzer("da").tokens_with_spans(text), da, "da on {text:?}");
    }
}

#[test]
fn greek_constitution_words_normalize_and_stem_like_python() {
    let gbr = analyzer("gbr-greek");
    let rows = tsv("greek_words.tsv");
    assert_eq!(rows.len(), 4_097);
    for row in &rows {
        let (word, normalized, token) = (&row[0], &row[1], &row[2]);
        assert_eq!(&greek::normalize_word(word), normalized, "{word}");
        let expected: Vec<String> = if token.is_empty() {
            vec![]
        } else {
            vec![token.clone()]
        };
        assert_eq!(gbr.tokens(word), expected, "{word}");
    }
}

#[test]
fn greek_constitution_paragraphs_tokenize_like_python() {
    let gbr = analyzer("gbr-greek");
    let texts = jsonl("greek_texts.jsonl");
    assert_eq!(texts.len(), 723);
    for t in &texts {
        let text = t["text"].as_str().unwrap();
        assert_eq!(gbr.tokens(text), strings(&t["tokens"]), "{text}");
    }
}

#[test]
fn reference_tokenize_vectors() {
    let gbr = analyzer("gbr-greek");
    for t in jsonl("tokenize_vectors.jsonl") {
        let text = t["text"].as_str().unwrap();
        assert_eq!(gbr.tokens(text), strings(&t["tokens"]), "{text}");
    }
}

#[test]
fn reference_stem_vectors() {
    let rows = tsv("stem_vectors.tsv");
    assert_eq!(rows.len(), 138);
    for row in rows {
        assert_eq!(greek_stemmer::stem(&row[0]), row[1], "{}", row[0]);
    }
}

/// Rule fragments of the stemmer combined pairwise, so every step and
/// exception list is exercised.
#[test]
fn synthetic_words_reach_every_stemmer_rule() {
    let rows = tsv("greek_stemmer_synthetic.tsv");
    assert_eq!(rows.len(), 12_312);
    let wrong: Vec<_> = rows
        .iter()
        .filter(|r| greek_stemmer::stem(&r[0]) != r[1])
        .map(|r| &r[0])
        .collect();
    assert!(wrong.is_empty(), "{} stems differ: {wrong:?}", wrong.len());
}

#[test]
fn stopwords_and_protected_words_match_the_package() {
    let rules: Value = serde_json::from_str(&fixture("greek_stemmer_rules.json")).unwrap();
    let stopwords = strings(&rules["stopwords"]);
    assert_eq!(stopwords.len(), 43);
    assert!(stopwords.iter().all(|w| greek::is_stopword(w)));
    for word in strings(&rules["protected_words"]) {
        assert_eq!(greek_stemmer::stem(&word), word);
    }
}

/// Words on which rust-stemmers 1.2.0 (an older Snowball Danish) and
/// snowballstemmer 3.1.1 disagree, as `(word, python, rust)`: Snowball 3
/// removes a doubled final consonant only for b d f g k l m n p r s t, the
/// older algorithm for any non-vowel (digits, `_`, c h j q v w x z, é, ß…).
/// No word of the Danish statutes hits this; the fixture's probes do.
const KNOWN_DANISH_DIFFERENCES: &[(&str, &str, &str)] = &[
    ("huscc", "huscc", "husc"),
    ("hushh", "hushh", "hush"),
    ("husjj", "husjj", "husj"),
    ("husqq", "husqq", "husq"),
    ("husvv", "husvv", "husv"),
    ("husww", "husww", "husw"),
    ("husxx", "husxx", "husx"),
    ("huszz", "huszz", "husz"),
    ("hus00", "hus00", "hus0"),
    ("hus11", "hus11", "hus1"),
    ("hus99", "hus99", "hus9"),
    ("hus__", "hus__", "hus_"),
    ("huséé", "huséé", "husé"),
    ("husßß", "husßß", "husß"),
    ("husσσ", "husσσ", "husσ"),
    ("bogstavcc", "bogstavcc", "bogstavc"),
    ("bogstavhh", "bogstavhh", "bogstavh"),
    ("bogstavjj", "bogstavjj", "bogstavj"),
    ("bogstavqq", "bogstavqq", "bogstavq"),
    ("bogstavvv", "bogstavvv", "bogstavv"),
    ("bogstavww", "bogstavww", "bogstavw"),
    ("bogstavxx", "bogstavxx", "bogstavx"),
    ("bogstavzz", "bogstavzz", "bogstavz"),
    ("bogstav00", "bogstav00", "bogstav0"),
    ("bogstav11", "bogstav11", "bogstav1"),
    ("bogstav99", "bogstav99", "bogstav9"),
    ("bogstav__", "bogstav__", "bogstav_"),
    ("bogstavéé", "bogstavéé", "bogstavé"),
    ("bogstavßß", "bogstavßß", "bogstavß"),
    ("bogstavσσ", "bogstavσσ", "bogstavσ"),
    ("__init__", "__init__", "__init_"),
];

/// What rust-stemmers is known to produce where Python gives `python`.
fn expected_da_stem(word: &str, python: &str) -> String {
    KNOWN_DANISH_DIFFERENCES
        .iter()
        .find(|&&(w, p, _)| w == word && p == python)
        .map_or_else(|| python.to_owned(), |&(_, _, rust)| rust.to_owned())
}

#[test]
fn danish_statute_words_match_python() {
    let da = analyzer("da");
    let rows = tsv("danish_words.tsv");
    assert_eq!(rows.len(), 19_211);
    let mut wrong = Vec::new();
    for row in &rows {
        let (word, lower, token) = (&row[0], &row[1], &row[2]);
        let expected: Vec<String> = if token.is_empty() {
            vec![]
        } else {
            vec![token.clone()]
        };
        if &pycase::lower(word) != lower || da.tokens(word) != expected {
            wrong.push(word);
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} Danish words differ: {wrong:?}",
        wrong.len(),
        rows.len()
    );
}

#[test]
fn danish_stemmer_differences_are_exactly_the_known_ones() {
    let da = analyzer("da");
    let differences: Vec<(String, String, String)> = tsv("danish_stemmer_probes.tsv")
        .into_iter()
        .filter_map(|row| {
            let rust = da.tokens(&row[0]).concat();
            (rust != row[1]).then(|| (row[0].clone(), row[1].clone(), rust))
        })
        .collect();
    let known: Vec<_> = KNOWN_DANISH_DIFFERENCES
        .iter()
        .map(|&(w, p, r)| (w.to_owned(), p.to_owned(), r.to_owned()))
        .collect();
    assert_eq!(differences, known);
}
