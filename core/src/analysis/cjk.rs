//! `zh`: Chinese statutes (STARD). Chinese has no spaces between words, so
//! instead of segmenting with a dictionary this indexes overlapping
//! character unigrams and bigrams, the standard dictionary-free baseline for
//! Chinese retrieval.
//!
//! Definition:
//! 1. words = Python `re.findall(r"\w+", text)` (see [`super::pyword`]);
//!    punctuation such as `，` or `（` separates words;
//! 2. each word is cut into maximal runs of CJK ideographs and runs of other
//!    characters. A *CJK ideograph* is U+3007 (〇) or a code point in
//!    U+3400–U+4DBF, U+4E00–U+9FFF, U+F900–U+FAFF or U+20000–U+3FFFF (the
//!    unified and compatibility ideograph blocks);
//! 3. an ideograph run c1…cn yields, in order, `c1, c1c2, c2, c2c3, …,
//!    c(n-1)cn, cn`: each character followed by the bigram it starts.
//!    Bigrams never span a non-ideograph;
//! 4. any other run yields one token, lowercased like Python `str.lower()`.
//!
//! Spans are the bytes of the one or two characters (or the run) a token
//! covers. Example: `第12条规定` → `第`, `12`, `条`, `条规`, `规`, `规定`, `定`.

use std::ops::Range;

use super::pycase;
use super::pyword::words;

/// Whether `c` counts as a CJK ideograph (see the module docs).
pub fn is_cjk_ideograph(c: char) -> bool {
    matches!(
        c,
        '\u{3007}'
            | '\u{3400}'..='\u{4DBF}'
            | '\u{4E00}'..='\u{9FFF}'
            | '\u{F900}'..='\u{FAFF}'
            | '\u{20000}'..='\u{3FFFF}'
    )
}

/// Tokens of `text`, each with the byte range of the characters it covers.
pub(super) fn tokens_with_spans(text: &str) -> Vec<(String, Range<usize>)> {
    let mut tokens = Vec::new();
    for (word, span) in words(text) {
        let mut rest = word;
        let mut offset = span.start;
        while let Some(first) = rest.chars().next() {
            let cjk = is_cjk_ideograph(first);
            let len = rest
                .char_indices()
                .find(|&(_, c)| is_cjk_ideograph(c) != cjk)
                .map_or(rest.len(), |(i, _)| i);
            let (run, tail) = rest.split_at(len);
            if cjk {
                push_ngrams(run, offset, &mut tokens);
            } else {
                tokens.push((pycase::lower(run), offset..offset + len));
            }
            rest = tail;
            offset += len;
        }
    }
    tokens
}

/// Unigrams and bigrams of an ideograph run starting at byte `offset`.
fn push_ngrams(run: &str, offset: usize, tokens: &mut Vec<(String, Range<usize>)>) {
    let chars: Vec<(usize, char)> = run.char_indices().collect();
    for (k, &(i, c)) in chars.iter().enumerate() {
        let start = offset + i;
        let end = start + c.len_utf8();
        tokens.push((c.to_string(), start..end));
        if let Some(&(_, next)) = chars.get(k + 1) {
            tokens.push((format!("{c}{next}"), start..end + next.len_utf8()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<String> {
        tokens_with_spans(text)
            .into_iter()
            .map(|(t, _)| t)
            .collect()
    }

    #[test]
    fn unigrams_then_bigrams_within_ideograph_runs() {
        assert_eq!(
            tokens("第12条规定"),
            ["第", "12", "条", "条规", "规", "规定", "定"]
        );
        assert_eq!(tokens("民法典"), ["民", "民法", "法", "法典", "典"]);
        assert_eq!(tokens("法"), ["法"]);
        // Punctuation splits runs; no bigram across it.
        assert_eq!(
            tokens("合同，成立"),
            ["合", "合同", "同", "成", "成立", "立"]
        );
    }

    #[test]
    fn other_runs_are_lowercased_words() {
        assert_eq!(
            tokens("LPR4倍利率 WTO_rules"),
            ["lpr4", "倍", "倍利", "利", "利率", "率", "wto_rules"]
        );
        assert_eq!(tokens(""), Vec::<String>::new());
        assert_eq!(
            tokens("二〇二三年"),
            ["二", "二〇", "〇", "〇二", "二", "二三", "三", "三年", "年"]
        );
    }

    #[test]
    fn spans_cover_the_characters_of_each_token() {
        let text = "《民法典》第五十四条 LPR";
        for (token, span) in tokens_with_spans(text) {
            assert_eq!(pycase::lower(&text[span]), token);
        }
        let spans: Vec<_> = tokens_with_spans("a民法")
            .into_iter()
            .map(|(_, s)| s)
            .collect();
        assert_eq!(spans, [0..1, 1..4, 1..7, 4..7]);
    }
}
