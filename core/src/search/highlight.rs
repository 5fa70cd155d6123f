//! What to show of a ranked document: which characters match the query and
//! which window of the text is the best snippet.
//!
//! A match is decided by the analyzer that ranked the document: the
//! displayed text is analysed again and a token is marked when the query's
//! analysis produced the same token. So a Greek query `μισθώσεως` marks
//! `μίσθωση` (both stem to `ΜΙΣΘΩΣ`), and a stop word is never marked
//! because it never reached the index. Everything here returns byte ranges
//! into the caller's text; turning them into markup is the caller's job.

use std::collections::HashMap;
use std::ops::Range;

use crate::analysis::Analyzer;

/// The distinct tokens of a query, to test displayed tokens against. Looked
/// up by hash: a pasted query can have thousands of distinct tokens, and
/// every token of every shown text is tested.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QueryTerms {
    tokens: Vec<String>,
    /// Each token's index in `tokens`.
    positions: HashMap<String, usize>,
}

impl QueryTerms {
    /// Analyses `query` with `analyzer`; repeated tokens are kept once, in
    /// first-seen order.
    pub fn new(analyzer: &Analyzer, query: &str) -> Self {
        let mut terms = QueryTerms::default();
        for t in analyzer.tokens(query) {
            if !terms.positions.contains_key(&t) {
                terms.positions.insert(t.clone(), terms.tokens.len());
                terms.tokens.push(t);
            }
        }
        terms
    }

    /// Whether the query had no tokens.
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// The distinct query tokens, in first-seen order.
    pub fn tokens(&self) -> &[String] {
        &self.tokens
    }

    fn position(&self, token: &str) -> Option<usize> {
        self.positions.get(token).copied()
    }
}

/// One token of the displayed text that matches a query token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    /// Index into [`QueryTerms::tokens`].
    pub term: usize,
    /// Bytes of the displayed text the token came from.
    pub span: Range<usize>,
}

/// The tokens of `text` that are query tokens, by increasing start.
pub fn matches(analyzer: &Analyzer, text: &str, terms: &QueryTerms) -> Vec<Match> {
    if terms.is_empty() {
        return Vec::new();
    }
    let mut found: Vec<Match> = analyzer
        .tokens_with_spans(text)
        .into_iter()
        .filter_map(|(token, span)| terms.position(&token).map(|term| Match { term, span }))
        .collect();
    crate::order::sort_by_key(&mut found, |m| (m.span.start, m.span.end));
    found
}

/// The union of the match spans, as sorted, disjoint, non-adjacent ranges
/// (overlapping CJK unigrams and bigrams become one mark).
pub fn merged_spans(found: &[Match]) -> Vec<Range<usize>> {
    let mut spans: Vec<Range<usize>> = found.iter().map(|m| m.span.clone()).collect();
    crate::order::sort_by_key(&mut spans, |s| s.start);
    let mut merged: Vec<Range<usize>> = Vec::with_capacity(spans.len());
    for s in spans {
        match merged.last_mut() {
            Some(last) if s.start <= last.end => last.end = last.end.max(s.end),
            _ => merged.push(s),
        }
    }
    merged
}

/// A piece of displayed text, marked or not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    /// Bytes of the displayed text.
    pub range: Range<usize>,
    /// Whether the piece matches the query.
    pub marked: bool,
}

/// Cuts `range` into consecutive segments, marked where it overlaps
/// `marks` (sorted and disjoint, as [`merged_spans`] returns them).
pub fn segments(range: Range<usize>, marks: &[Range<usize>]) -> Vec<Segment> {
    let mut out = Vec::new();
    let mut at = range.start;
    for m in marks {
        let (start, end) = (m.start.max(range.start), m.end.min(range.end));
        if start >= end {
            continue;
        }
        if start > at {
            out.push(Segment {
                range: at..start,
                marked: false,
            });
        }
        out.push(Segment {
            range: start..end,
            marked: true,
        });
        at = end;
    }
    if at < range.end {
        out.push(Segment {
            range: at..range.end,
            marked: false,
        });
    }
    out
}

/// A window of a document's text to show under a result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snippet {
    /// Bytes of the text shown.
    pub range: Range<usize>,
    /// Marked and unmarked pieces covering `range`.
    pub segments: Vec<Segment>,
    /// Text was cut before the window (show an ellipsis).
    pub cut_start: bool,
    /// Text was cut after the window (show an ellipsis).
    pub cut_end: bool,
}

/// The window of at most `width` characters holding the most distinct query
/// terms, then the most matches, then the earliest; centred on its matches
/// and trimmed to whole words where that keeps every match in. Without
/// matches it is the start of the text.
pub fn snippet(analyzer: &Analyzer, text: &str, terms: &QueryTerms, width: usize) -> Snippet {
    let found = matches(analyzer, text, terms);
    let chars = CharIndex::new(text);
    let n = chars.len();
    let width = width.max(1);
    let (first, last) = best_window(&found, &chars, width, terms.tokens().len());

    // Character range of the chosen matches, then the window around them.
    let (mut start, mut end) = match (found.get(first), found.get(last)) {
        (Some(a), Some(b)) => {
            let (ms, me) = (chars.char_at(a.span.start), chars.char_at(b.span.end));
            let slack = width.saturating_sub(me - ms);
            let start = ms.saturating_sub(slack / 2);
            let end = (start + width).min(n);
            (end.saturating_sub(width).min(start), end)
        }
        _ => (0, width.min(n)),
    };
    let (keep_from, keep_to) = match (found.get(first), found.get(last)) {
        (Some(a), Some(b)) => (chars.char_at(a.span.start), chars.char_at(b.span.end)),
        _ => (0, 0),
    };
    if start > 0 {
        if let Some(s) = chars.after_space(start, keep_from) {
            start = s;
        }
    }
    if end < n {
        if let Some(e) = chars.before_space(end, keep_to.max(start)) {
            end = e;
        }
    }
    let range = chars.byte(start)..chars.byte(end);
    let marks = merged_spans(&found);
    Snippet {
        segments: segments(range.clone(), &marks),
        cut_start: start > 0,
        cut_end: end < n,
        range,
    }
}

/// Indices `(first, last)` into `found` of the best window's matches
/// (`(0, 0)` when there are none).
fn best_window(found: &[Match], chars: &CharIndex, width: usize, n_terms: usize) -> (usize, usize) {
    let mut best = (0, 0);
    let mut best_score = (0, 0);
    let mut counts = vec![0usize; n_terms];
    let mut distinct = 0;
    let mut last = 0;
    // Two pointers: the window starts at match `first` and takes every
    // later match that ends within `width` characters of its start.
    for first in 0..found.len() {
        if first > 0 {
            let gone = found[first - 1].term;
            counts[gone] -= 1;
            if counts[gone] == 0 {
                distinct -= 1;
            }
        }
        if last < first {
            last = first;
        }
        let limit = chars.char_at(found[first].span.start) + width;
        while last < found.len() && chars.char_at(found[last].span.end) <= limit {
            let t = found[last].term;
            if counts[t] == 0 {
                distinct += 1;
            }
            counts[t] += 1;
            last += 1;
        }
        if last == first {
            // A single match longer than the window: show its start.
            if best_score == (0, 0) {
                best = (first, first);
                best_score = (1, 1);
            }
            continue;
        }
        let score = (distinct, last - first);
        if score > best_score {
            best_score = score;
            best = (first, last - 1);
        }
        // `last` stays: the next window starts later, so it reaches further.
    }
    best
}

/// Byte offset of every character boundary, for character arithmetic on
/// UTF-8 text.
struct CharIndex<'a> {
    text: &'a str,
    bounds: Vec<usize>,
}

impl<'a> CharIndex<'a> {
    fn new(text: &'a str) -> Self {
        let mut bounds: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
        bounds.push(text.len());
        CharIndex { text, bounds }
    }

    /// Number of characters.
    fn len(&self) -> usize {
        self.bounds.len() - 1
    }

    /// The character index at byte offset `byte` (a boundary).
    fn char_at(&self, byte: usize) -> usize {
        self.bounds.partition_point(|&b| b < byte)
    }

    fn byte(&self, char: usize) -> usize {
        self.bounds[char.min(self.len())]
    }

    fn is_space(&self, char: usize) -> bool {
        self.text[self.byte(char)..]
            .chars()
            .next()
            .is_some_and(char::is_whitespace)
    }

    /// The first character after a space at or after `from`, if it is not
    /// past `limit`.
    fn after_space(&self, from: usize, limit: usize) -> Option<usize> {
        (from..limit)
            .find(|&c| self.is_space(c))
            .map(|c| c + 1)
            .filter(|&c| c <= limit)
    }

    /// The last space at or before `from`, if it is not before `limit`.
    fn before_space(&self, from: usize, limit: usize) -> Option<usize> {
        (limit..=from).rev().find(|&c| self.is_space(c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn greek() -> Analyzer {
        Analyzer::by_name("gbr-greek").unwrap()
    }

    fn marked<'t>(text: &'t str, segments: &[Segment]) -> Vec<&'t str> {
        segments
            .iter()
            .filter(|s| s.marked)
            .map(|s| &text[s.range.clone()])
            .collect()
    }

    #[test]
    fn inflected_greek_forms_match_through_the_stemmer() {
        let a = greek();
        let terms = QueryTerms::new(&a, "μισθώσεως");
        let text = "Η μίσθωση λύεται με καταγγελία της μισθώσεως.";
        let found = matches(&a, text, &terms);
        let words: Vec<&str> = found.iter().map(|m| &text[m.span.clone()]).collect();
        assert_eq!(words, ["μίσθωση", "μισθώσεως"]);
        assert!(found.iter().all(|m| m.term == 0));
    }

    /// A query pasted from a long text: 100,000 distinct tokens, and a
    /// text of as many. Comparing every token with every query token took
    /// minutes; hashing takes milliseconds.
    #[test]
    fn a_huge_query_is_linear_to_read_and_match() {
        let a = Analyzer::by_name("da").unwrap();
        let words: Vec<String> = (0..100_000).map(|i| format!("w{i}x")).collect();
        let query = words.join(" ");
        let started = std::time::Instant::now();
        let terms = QueryTerms::new(&a, &query);
        assert_eq!(terms.tokens().len(), words.len());
        let text: String = words.iter().rev().map(|w| format!("{w} ")).collect();
        let found = matches(&a, &text, &terms);
        assert_eq!(found.len(), words.len());
        assert_eq!(found[0].term, words.len() - 1);
        let took = started.elapsed();
        assert!(took.as_secs() < 10, "took {took:?}");
    }

    #[test]
    fn stop_words_are_never_marked() {
        let a = greek();
        // `της` and `και` are GBR stop words: the query analyses to nothing.
        let terms = QueryTerms::new(&a, "της και");
        assert!(terms.is_empty());
        assert!(matches(&a, "της μισθώσεως και", &terms).is_empty());
    }

    #[test]
    fn query_terms_are_distinct_in_first_seen_order() {
        let a = Analyzer::by_name("da").unwrap();
        let terms = QueryTerms::new(&a, "lejer lejeren loven lejer");
        assert_eq!(terms.tokens(), a.tokens("lejer loven"));
    }

    #[test]
    fn overlapping_cjk_ngrams_merge_into_one_mark() {
        let a = Analyzer::by_name("zh").unwrap();
        let text = "中华人民共和国民法典";
        let terms = QueryTerms::new(&a, "民法");
        let spans = merged_spans(&matches(&a, text, &terms));
        let marked: Vec<&str> = spans.iter().map(|s| &text[s.clone()]).collect();
        // 民 of 人民 alone, then 民法 (民, 民法 and 法 overlap).
        assert_eq!(marked, ["民", "民法"]);
    }

    #[test]
    fn segments_tile_the_range_and_clip_marks() {
        let segs = segments(2..10, &[0..3, 5..6, 9..12]);
        let got: Vec<(Range<usize>, bool)> =
            segs.into_iter().map(|s| (s.range, s.marked)).collect();
        assert_eq!(
            got,
            [
                (2..3, true),
                (3..5, false),
                (5..6, true),
                (6..9, false),
                (9..10, true)
            ]
        );
        assert_eq!(segments(0..4, &[]).len(), 1);
        assert!(segments(3..3, std::slice::from_ref(&(0..9))).is_empty());
    }

    #[test]
    fn snippet_prefers_the_window_with_most_distinct_terms() {
        let a = Analyzer::by_name("da").unwrap();
        let filler = "ord ".repeat(40);
        // `leje` alone three times early; `leje` and `opsigelse` together late.
        let text =
            format!("leje leje leje {filler}{filler}opsigelse af leje sker skriftligt {filler}");
        let terms = QueryTerms::new(&a, "opsigelse leje");
        let s = snippet(&a, &text, &terms, 60);
        let shown = &text[s.range.clone()];
        assert!(shown.contains("opsigelse af leje"), "{shown:?}");
        assert!(shown.chars().count() <= 60);
        assert!(s.cut_start && s.cut_end);
        assert_eq!(marked(&text, &s.segments), ["opsigelse", "leje"]);
        // Trimmed to whole words.
        assert!(!shown.starts_with(' ') && text[..s.range.start].ends_with(' '));
    }

    #[test]
    fn snippet_without_matches_is_the_start_of_the_text() {
        let a = greek();
        let text = "Άρθρο 1. Η Ελλάδα είναι προεδρευόμενη κοινοβουλευτική δημοκρατία.";
        let s = snippet(&a, text, &QueryTerms::new(&a, "σύνταγμα"), 20);
        assert_eq!(s.range.start, 0);
        assert!(!s.cut_start && s.cut_end);
        assert!(text[s.range.clone()].chars().count() <= 20);
        assert!(s.segments.iter().all(|seg| !seg.marked));
        let whole = snippet(&a, text, &QueryTerms::default(), 1000);
        assert_eq!(whole.range, 0..text.len());
        assert!(!whole.cut_end);
    }

    #[test]
    fn a_match_longer_than_the_window_is_shown_from_its_start() {
        let a = Analyzer::by_name("da").unwrap();
        let text = "indledning og så videre Folketingsvalgloven gælder";
        let terms = QueryTerms::new(&a, "folketingsvalgloven");
        let s = snippet(&a, text, &terms, 8);
        assert!(text[s.range.clone()].starts_with("Folketin"), "{s:?}");
        assert!(s.segments.iter().any(|seg| seg.marked));
    }
}
