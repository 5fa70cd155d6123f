//! The state a link carries, and its text form in the URL's fragment:
//! `#pool=el-syntagma.blob&hash=e21e…&rank=rrf&bm25=okapi:k1=1.5,b=0.75&q=…&doc=…`,
//! and for the Evaluate view `view=evaluate&vs=lucene:k1=1.2,b=0.75&vsrank=rrf&sort=-ndcg@10&eq=…`.
//! An LLM method's results name the transcript they replay from
//! (`transcript=<sha256>`, with `tpath=transcripts/….jsonl` when the site
//! serves it) and, in Evaluate, how many queries were ranked (`n=10`);
//! never an endpoint or a key. A run file imported as A or B is named by
//! its SHA-256 (`runa=<sha256>` or `runb=<sha256>`), never its content.
//! Ranking a blob's augmented field says so (`field=augmented`, and
//! `vsfield=augmented` for B); the text field is the default, left unsaid.
//!
//! Why the fragment and not the query string: a static host serves the
//! same `index.html` whatever the fragment, with no rewrite rules; the
//! fragment never reaches the server, so searches stay out of its logs;
//! and the service worker's cached page answers every link without
//! matching query strings.
//!
//! Decoding is defensive, because a link is untrusted input: only the
//! first [`FRAGMENT_MAX`] bytes are read, unknown keys are ignored, a key
//! given twice counts once (the first), the query is cut to [`QUERY_MAX`],
//! a pool is a file name of `[A-Za-z0-9._-]`, a citation is at most
//! [`CITE_MAX`] characters, numbers are clamped into
//! their valid ranges (an LLM run's size into what a link may preset,
//! [`LINK_LLM_QUERIES_MAX`]), and anything unreadable (bad escapes, unknown
//! names, NaN) falls back to the default, as if it were absent. Decoding
//! is linear in the fragment's length. Decoded text is only ever shown as
//! text nodes by the views.
//!
//! This module is pure (no browser API), so it is tested natively:
//! `cargo test -p nomos-app`.

use nomos_core::blob::Field;
use nomos_core::methods::Method;
use nomos_core::search::{Bm25Params, Bm25Variant};

use crate::eval_config::{RunLink, Slot};
use crate::transcript_files::{sha256_of, site_path, SiteEntry, TranscriptLink};
use crate::views::{EvalSort, View};

/// The advanced panel's k1 slider range; links are clamped into it.
pub const K1_MAX: f64 = 3.0;

/// Longest content hash accepted (hex digits); blobs use 32.
const HASH_MAX: usize = 64;
/// Longest sort column accepted (`id`, `gold`, `delta`, `recall@1000`…).
const COLUMN_MAX: usize = 32;
/// Most benchmark queries the user may ask an LLM method to rank.
pub const LLM_QUERIES_MAX: usize = 100_000;
/// The most of an LLM run a link may preset: benchmark queries (`n`),
/// and ReAct's rounds and candidates (the paper's settings) and
/// characters shown of each (0, whole articles, stays). Each multiplies
/// what a run costs at the user's endpoint, and a link is someone else's
/// choice: more is the user's own, in the panel, after the estimate.
pub const LINK_LLM_QUERIES_MAX: usize = 100;
pub const LINK_ROUNDS_MAX: usize = 10;
pub const LINK_CANDIDATES_MAX: usize = 100;
pub const LINK_CHARS_MAX: usize = 2_000;
/// Longest query, in UTF-16 code units as the search box's `maxlength`
/// counts them: about 3,000 words, three times GreekBarRetrieval's longest
/// question with its facts (1,013 words).
pub const QUERY_MAX: usize = 20_000;
/// Bytes of a fragment read; the rest is ignored. Room for a query of
/// [`QUERY_MAX`] Chinese characters percent-encoded (9 bytes each) and the
/// other keys.
pub const FRAGMENT_MAX: usize = 256 * 1024;
/// Longest citation a link may jump to, in characters (`strfl. § 244,
/// stk. 1, nr. 2` is 25); a longer one is dropped.
pub const CITE_MAX: usize = 200;
/// Longest pool file name accepted.
const POOL_MAX: usize = 255;
/// The keys a link may have; a key is looked up here, never in what the
/// link said before.
const KEYS: [&str; 24] = [
    "view",
    "pool",
    "hash",
    "rank",
    "bm25",
    "field",
    "q",
    "source",
    "area",
    "type",
    "year",
    "doc",
    "cite",
    "eq",
    "vs",
    "vsrank",
    "vsfield",
    "sort",
    "transcript",
    "tpath",
    "n",
    "bench",
    "runa",
    "runb",
];

/// Everything a link restores. `None` (or empty) means "not in the link":
/// the app keeps its default, e.g. the pool's own BM25 method.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkState {
    pub view: View,
    /// A manifest pool by file name.
    pub pool: Option<String>,
    /// The pool's content hash (lowercase hex) when the link was made.
    pub hash: Option<String>,
    /// The ranking method with its parameters (`Method`'s compact form).
    pub rank: Option<Method>,
    /// BM25's settings (`bm25=` in the link).
    pub bm25: Option<Bm25Link>,
    /// The field ranked.
    pub field: Field,
    pub query: String,
    /// The link's query was longer than [`QUERY_MAX`] (or than the
    /// fragment read) and was cut. Never written into a link.
    pub query_cut: bool,
    pub source: Option<String>,
    pub area: Option<String>,
    /// A document type filter (`type=LBK`).
    pub kind: Option<String>,
    /// A year filter.
    pub year: Option<String>,
    /// The open article's id.
    pub article: Option<String>,
    /// A citation to open (`cite=strfl.%20§%20244`): the article it names,
    /// its paragraph marked.
    pub cite: Option<String>,
    /// Evaluate view: the benchmark query whose ranking is open, by id.
    pub eval_query: Option<String>,
    /// Evaluate view: the BM25 settings compared with `bm25`.
    pub compare: Option<Bm25Link>,
    /// Evaluate view: the ranking method compared with `rank`.
    pub compare_rank: Option<Method>,
    /// Evaluate view: the field B ranks.
    pub compare_field: Field,
    /// Evaluate view: the per-query table's order.
    pub sort: EvalSort,
    /// The transcript an LLM method's results replay from.
    pub transcript: Option<TranscriptLink>,
    /// Evaluate view: the first N queries an LLM method ranks.
    pub llm_queries: Option<usize>,
    /// Evaluate view: with the user's own judgments (`bench=mine`).
    pub my_judgments: bool,
    /// Evaluate view: the run file shown as A or B, by hash.
    pub run: Option<RunLink>,
}

/// A BM25 method as a link states it: variant, k1 and b (epsilon stays
/// the pool's).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bm25Link {
    pub variant: Bm25Variant,
    pub k1: f64,
    pub b: f64,
}

impl Bm25Link {
    pub fn from_params(p: &Bm25Params) -> Self {
        Bm25Link {
            variant: p.variant,
            k1: p.k1,
            b: p.b,
        }
    }

    /// `base` (the pool's default) with this variant, k1 and b.
    pub fn apply_to(&self, base: Bm25Params) -> Bm25Params {
        Bm25Params {
            variant: self.variant,
            k1: self.k1,
            b: self.b,
            ..base
        }
    }

    /// `okapi:k1=1.5,b=0.75`: [`Bm25Params`]' own text form (the
    /// variant's default epsilon is left unsaid).
    fn encode(&self) -> String {
        self.apply_to(Bm25Params::new(self.variant)).to_string()
    }

    /// Reads [`Bm25Link::encode`]'s form; a missing or unreadable k1 or b
    /// takes the reference default (1.5, 0.75), and values are clamped.
    fn decode(s: &str) -> Option<Self> {
        let (name, rest) = s.split_once(':').unwrap_or((s, ""));
        let variant = name.parse::<Bm25Variant>().ok()?;
        let defaults = Bm25Params::new(variant);
        let mut link = Bm25Link {
            variant,
            k1: defaults.k1,
            b: defaults.b,
        };
        for (key, value) in rest.split(',').filter_map(|kv| kv.split_once('=')) {
            let value = value.parse::<f64>().ok().filter(|v| v.is_finite());
            match (key, value) {
                ("k1", Some(v)) => link.k1 = v.clamp(0.0, K1_MAX),
                ("b", Some(v)) => link.b = v.clamp(0.0, 1.0),
                _ => {}
            }
        }
        Some(link)
    }
}

impl Default for LinkState {
    fn default() -> Self {
        LinkState {
            view: View::Search,
            pool: None,
            hash: None,
            rank: None,
            bm25: None,
            field: Field::Text,
            query: String::new(),
            query_cut: false,
            source: None,
            area: None,
            kind: None,
            year: None,
            article: None,
            cite: None,
            eval_query: None,
            compare: None,
            compare_rank: None,
            compare_field: Field::Text,
            sort: EvalSort::default(),
            transcript: None,
            llm_queries: None,
            my_judgments: false,
            run: None,
        }
    }
}

impl LinkState {
    /// The evaluation a shipped transcript records, replayed from it:
    /// its pool, method and first N queries in Evaluate. `None` when the
    /// site's list does not say how many queries, or names an unknown
    /// method.
    pub fn shipped_run(entry: &SiteEntry) -> Option<LinkState> {
        Some(LinkState {
            view: View::Evaluate,
            pool: Some(entry.pool.clone()),
            rank: Some(entry.method.parse().ok()?),
            transcript: Some(TranscriptLink {
                sha256: entry.sha256.to_ascii_lowercase(),
                path: Some(entry.path()),
            }),
            llm_queries: Some(entry.queries?),
            ..LinkState::default()
        })
    }

    /// One question a shipped transcript answers, replayed from it in
    /// Search with its pool and method. `None` for an unknown method.
    pub fn shipped_search(entry: &SiteEntry, query: &str) -> Option<LinkState> {
        Some(LinkState {
            pool: Some(entry.pool.clone()),
            rank: Some(entry.method.parse().ok()?),
            query: query.to_owned(),
            transcript: Some(TranscriptLink {
                sha256: entry.sha256.to_ascii_lowercase(),
                path: Some(entry.path()),
            }),
            ..LinkState::default()
        })
    }

    /// The fragment's text, without `#`; empty for the default state.
    /// Keys come in a fixed order, so equal states give equal links.
    pub fn encode(&self) -> String {
        let mut pairs: Vec<(&str, String)> = Vec::new();
        if self.view == View::Evaluate {
            pairs.push(("view", "evaluate".to_owned()));
        }
        let mut text = |key, value: &Option<String>| {
            if let Some(v) = value {
                pairs.push((key, v.clone()));
            }
        };
        text("pool", &self.pool);
        text("hash", &self.hash);
        text("rank", &self.rank.map(|m| m.to_string()));
        text("bm25", &self.bm25.map(|m| m.encode()));
        text("field", &field_name(self.field));
        text("q", &Some(self.query.clone()).filter(|q| !q.is_empty()));
        text("source", &self.source);
        text("area", &self.area);
        text("type", &self.kind);
        text("year", &self.year);
        text("doc", &self.article);
        text("cite", &self.cite);
        text("eq", &self.eval_query);
        text("vs", &self.compare.map(|m| m.encode()));
        text("vsrank", &self.compare_rank.map(|m| m.to_string()));
        text("vsfield", &field_name(self.compare_field));
        if self.sort != EvalSort::default() {
            let sign = if self.sort.descending { "-" } else { "" };
            pairs.push(("sort", format!("{sign}{}", self.sort.column)));
        }
        if let Some(t) = &self.transcript {
            pairs.push(("transcript", t.sha256.clone()));
            if let Some(path) = &t.path {
                pairs.push(("tpath", path.clone()));
            }
        }
        if let Some(n) = self.llm_queries {
            pairs.push(("n", n.to_string()));
        }
        if self.my_judgments {
            pairs.push(("bench", "mine".to_owned()));
        }
        if let Some(run) = &self.run {
            pairs.push((run_key(run.slot), run.sha256.clone()));
        }
        let mut out = String::new();
        for (key, value) in pairs {
            if !out.is_empty() {
                out.push('&');
            }
            out.push_str(key);
            out.push('=');
            escape_into(&value, &mut out);
        }
        out
    }

    /// Reads a fragment (with or without its `#`). Never fails: whatever
    /// cannot be read is left at its default.
    pub fn decode(fragment: &str) -> LinkState {
        let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
        let torn = fragment.len() > FRAGMENT_MAX;
        let fragment = &fragment[..char_floor(fragment, FRAGMENT_MAX)];
        let mut state = LinkState::default();
        let mut seen = [false; KEYS.len()];
        let mut transcript_path = None;
        let mut pairs = fragment.split('&').peekable();
        while let Some(pair) = pairs.next() {
            let (key, raw) = pair.split_once('=').unwrap_or((pair, ""));
            let Some(k) = KEYS.iter().position(|known| *known == key) else {
                continue;
            };
            if std::mem::replace(&mut seen[k], true) {
                continue;
            }
            // The pair the fragment's cap cut through: only the query is
            // read from what is left of it.
            let cut_here = torn && pairs.peek().is_none();
            let value = match (cut_here, key) {
                (false, _) => unescape(raw),
                (true, "q") => unescape_torn(raw),
                (true, _) => None,
            };
            let Some(value) = value else { continue };
            let text = || Some(value.clone()).filter(|v| !v.is_empty());
            match key {
                "view" => {
                    state.view = match value.as_str() {
                        "evaluate" => View::Evaluate,
                        _ => View::Search,
                    }
                }
                "pool" => state.pool = Some(value.clone()).filter(|v| is_pool_file(v)),
                "hash" => state.hash = decode_hash(&value),
                "rank" => state.rank = value.parse().ok().map(bounded),
                "bm25" => state.bm25 = Bm25Link::decode(&value),
                "field" => state.field = decode_field(&value),
                "q" => {
                    let (query, cut) = cut_query(&value);
                    state.query = query.to_owned();
                    state.query_cut = cut || cut_here;
                }
                "source" => state.source = text(),
                "area" => state.area = text(),
                "type" => state.kind = text(),
                "year" => state.year = text(),
                "doc" => state.article = text(),
                "cite" => state.cite = text().filter(|c| c.chars().count() <= CITE_MAX),
                "eq" => state.eval_query = text(),
                "vs" => state.compare = Bm25Link::decode(&value),
                "vsrank" => state.compare_rank = value.parse().ok().map(bounded),
                "vsfield" => state.compare_field = decode_field(&value),
                "sort" => state.sort = decode_sort(&value),
                "transcript" => {
                    state.transcript =
                        sha256_of(&value).map(|sha256| TranscriptLink { sha256, path: None })
                }
                "tpath" => transcript_path = site_path(&value).ok(),
                "n" => {
                    state.llm_queries = value
                        .parse::<usize>()
                        .ok()
                        .map(|n| n.clamp(1, LINK_LLM_QUERIES_MAX))
                }
                "bench" => state.my_judgments = value == "mine",
                "runa" | "runb" if state.run.is_none() => {
                    state.run = sha256_of(&value).map(|sha256| RunLink {
                        slot: match key {
                            "runa" => Slot::Current,
                            _ => Slot::Compared,
                        },
                        sha256,
                    })
                }
                _ => {}
            }
        }
        // A path means nothing without the hash it must have.
        if let Some(t) = &mut state.transcript {
            t.path = transcript_path;
        }
        state
    }
}

/// `method` with an LLM run's parameters clamped to what a link may
/// preset (see [`LINK_LLM_QUERIES_MAX`]).
fn bounded(method: Method) -> Method {
    match method {
        Method::ReactBm25 {
            rounds,
            candidates,
            chars,
        } => Method::ReactBm25 {
            rounds: rounds.min(LINK_ROUNDS_MAX),
            candidates: candidates.min(LINK_CANDIDATES_MAX),
            chars: chars.min(LINK_CHARS_MAX),
        },
        other => other,
    }
}

/// A manifest pool's file name: `[A-Za-z0-9._-]`, or a fragmented pool's
/// meta file `DIR/meta` with such a `DIR` (not starting with a dot), at
/// most [`POOL_MAX`] bytes.
fn is_pool_file(s: &str) -> bool {
    let plain = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
    };
    let name = match s.strip_suffix("/meta") {
        Some(dir) if dir.starts_with('.') => return false,
        Some(dir) => dir,
        None => s,
    };
    s.len() <= POOL_MAX && plain(name)
}

/// `query`'s first [`QUERY_MAX`] UTF-16 code units (whole characters),
/// and whether that cut anything.
pub fn cut_query(query: &str) -> (&str, bool) {
    let mut units = 0;
    for (at, c) in query.char_indices() {
        units += c.len_utf16();
        if units > QUERY_MAX {
            return (&query[..at], true);
        }
    }
    (query, false)
}

/// The largest character boundary of `s` at or below `at`.
fn char_floor(s: &str, at: usize) -> usize {
    let mut at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// A field as links name it: nothing for the text, the default.
fn field_name(field: Field) -> Option<String> {
    (field != Field::Text).then(|| field.name().to_owned())
}

/// `augmented`, or the text field for anything else.
fn decode_field(s: &str) -> Field {
    match s {
        "augmented" => Field::Augmented,
        _ => Field::Text,
    }
}

/// The key naming a run file in `slot`.
fn run_key(slot: Slot) -> &'static str {
    match slot {
        Slot::Current => "runa",
        Slot::Compared => "runb",
    }
}

/// `-column` sorts descending. A column is a short word of letters,
/// digits and `@._`; anything else is the default order (the view sorts
/// by id when it does not know a column).
fn decode_sort(s: &str) -> EvalSort {
    let (descending, column) = match s.strip_prefix('-') {
        Some(c) => (true, c),
        None => (false, s),
    };
    let ok = !column.is_empty()
        && column.len() <= COLUMN_MAX
        && column
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"@._".contains(&b));
    match ok {
        true => EvalSort {
            column: column.to_owned(),
            descending,
        },
        false => EvalSort::default(),
    }
}

/// Hex digits only, lowercased; anything else is no hash.
fn decode_hash(s: &str) -> Option<String> {
    let ok = !s.is_empty() && s.len() <= HASH_MAX && s.bytes().all(|b| b.is_ascii_hexdigit());
    ok.then(|| s.to_ascii_lowercase())
}

/// Percent-encodes `s` (UTF-8) into `out`, keeping what reads well in an
/// address bar and cannot be taken for a separator (`&`, `+`, `#`, `%`).
/// `=` stays: a pair splits at its first `=`.
fn escape_into(s: &str, out: &mut String) {
    for b in s.bytes() {
        let keep = b.is_ascii_alphanumeric() || b"-._~:,=@!$'()*/;".contains(&b);
        if keep {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
}

/// Undoes [`escape_into`], and reads `+` as a space as forms write it.
/// `None` for a malformed escape or text that is not UTF-8.
fn unescape(s: &str) -> Option<String> {
    String::from_utf8(unescape_bytes(s, false)?).ok()
}

/// [`unescape`] for a value cut short: an escape or a UTF-8 character
/// torn at its end is dropped.
fn unescape_torn(s: &str) -> Option<String> {
    match String::from_utf8(unescape_bytes(s, true)?) {
        Ok(text) => Some(text),
        Err(e) if e.utf8_error().error_len().is_none() => {
            let valid = e.utf8_error().valid_up_to();
            let mut bytes = e.into_bytes();
            bytes.truncate(valid);
            String::from_utf8(bytes).ok()
        }
        Err(_) => None,
    }
}

/// The bytes `s` escapes; a torn escape at the end ends them when `torn`,
/// and is malformed otherwise.
fn unescape_bytes(s: &str, torn: bool) -> Option<Vec<u8>> {
    let mut bytes = Vec::with_capacity(s.len());
    let mut it = s.bytes();
    while let Some(b) = it.next() {
        match b {
            b'%' => {
                let hex = match (it.next(), it.next()) {
                    (Some(a), Some(b)) => [a, b],
                    _ if torn => break,
                    _ => return None,
                };
                let hex = std::str::from_utf8(&hex).ok()?;
                bytes.push(u8::from_str_radix(hex, 16).ok()?);
            }
            b'+' => bytes.push(b' '),
            _ => bytes.push(b),
        }
    }
    Some(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shipped_transcript_opens_its_evaluation() {
        let entry = SiteEntry {
            file: "stard-react-bm25.jsonl".into(),
            name: "STARD, ReAct".into(),
            pool: "stard.blob".into(),
            method: "react-bm25:rounds=3,candidates=10,chars=300".into(),
            sha256: "AB".repeat(32),
            model: "smollm2-135m-instruct".into(),
            queries: Some(5),
            searches: Vec::new(),
        };
        let link = LinkState::shipped_run(&entry).expect("a link");
        let back = LinkState::decode(&link.encode());
        assert_eq!(back, link);
        assert_eq!(back.view, View::Evaluate);
        assert_eq!(back.llm_queries, Some(5));
        let t = back.transcript.expect("the transcript");
        assert_eq!(t.sha256, "ab".repeat(32));
        assert_eq!(
            t.path.as_deref(),
            Some("transcripts/stard-react-bm25.jsonl")
        );
        let unsized_entry = SiteEntry {
            queries: None,
            ..entry.clone()
        };
        assert_eq!(LinkState::shipped_run(&unsized_entry), None);
        let unknown = SiteEntry {
            method: "oracle".into(),
            ..entry
        };
        assert_eq!(LinkState::shipped_run(&unknown), None);
    }

    #[test]
    fn a_shipped_transcript_opens_each_of_its_searches() {
        let entry = SiteEntry {
            file: "el-reform-sparse.jsonl".into(),
            name: "Greek, reform-sparse".into(),
            pool: "el-nomothesia.blob".into(),
            method: "reform-sparse".into(),
            sha256: "CD".repeat(32),
            model: "qwen2.5-coder-1.5b-instruct".into(),
            queries: None,
            searches: vec!["Οικονομικά θέματα & τέλη".into()],
        };
        let link = LinkState::shipped_search(&entry, &entry.searches[0]).expect("a link");
        let back = LinkState::decode(&link.encode());
        assert_eq!(back, link);
        assert_eq!(back.view, View::Search);
        assert_eq!(back.query, "Οικονομικά θέματα & τέλη");
        assert_eq!(back.pool.as_deref(), Some("el-nomothesia.blob"));
        assert_eq!(
            back.rank.map(|m| m.to_string()).as_deref(),
            Some("reform-sparse")
        );
        let t = back.transcript.expect("the transcript");
        assert_eq!(t.sha256, "cd".repeat(32));
        assert_eq!(
            t.path.as_deref(),
            Some("transcripts/el-reform-sparse.jsonl")
        );
        let unknown = SiteEntry {
            method: "oracle".into(),
            ..entry
        };
        assert_eq!(LinkState::shipped_search(&unknown, "q"), None);
    }

    /// xorshift64*: a fixed-seed generator, so failures reproduce.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }

        fn pick<T: Copy>(&mut self, items: &[T]) -> T {
            items[self.below(items.len())]
        }

        /// Text from an alphabet full of separators, escapes and scripts.
        fn text(&mut self, max: usize) -> String {
            const ALPHABET: &[char] = &[
                'a', 'Z', '0', ' ', '&', '=', '#', '%', '+', '?', ':', ',', '/', '§', 'ε', 'λ',
                'æ', 'ø', '法', '律', '\u{0}', '\n', '"', '<', '>', '\'', '😀', '-', '_', '.',
            ];
            let n = self.below(max + 1);
            (0..n).map(|_| self.pick(ALPHABET)).collect()
        }

        fn some_text(&mut self) -> Option<String> {
            Some(self.text(12)).filter(|t| !t.is_empty() && self.below(4) > 0)
        }

        /// A k1 or b as the UI makes them: a multiple of the slider step.
        fn stepped(&mut self, max: f64, step: f64) -> f64 {
            let steps = (max / step).round() as usize;
            (self.below(steps + 1) as f64 * step).min(max)
        }

        fn state(&mut self) -> LinkState {
            let hex = |r: &mut Rng| format!("{:032x}", (r.next() as u128) << 64 | r.next() as u128);
            LinkState {
                view: self.pick(&[View::Search, View::Evaluate]),
                pool: (self.below(4) > 0).then(|| format!("pool-{}.blob", self.below(100))),
                hash: (self.below(2) == 0).then(|| hex(self)),
                rank: (self.below(3) > 0).then(|| self.rank()),
                bm25: (self.below(3) > 0).then(|| self.method()),
                field: self.pick(&[Field::Text, Field::Augmented]),
                query: self.text(40),
                query_cut: false,
                source: self.some_text(),
                area: self.some_text(),
                kind: self.some_text(),
                year: self.some_text(),
                article: self.some_text(),
                cite: self.some_text(),
                eval_query: self.some_text(),
                compare: (self.below(3) == 0).then(|| self.method()),
                compare_rank: (self.below(3) == 0).then(|| self.rank()),
                compare_field: self.pick(&[Field::Text, Field::Augmented]),
                transcript: (self.below(3) == 0).then(|| TranscriptLink {
                    sha256: hex(self).repeat(2),
                    path: (self.below(2) == 0).then(|| "transcripts/stard-react.jsonl".into()),
                }),
                llm_queries: (self.below(3) == 0).then(|| 1 + self.below(LINK_LLM_QUERIES_MAX)),
                my_judgments: self.below(2) == 0,
                run: (self.below(3) == 0).then(|| RunLink {
                    slot: self.pick(&[Slot::Current, Slot::Compared]),
                    sha256: hex(self).repeat(2),
                }),
                sort: match self.below(3) {
                    0 => EvalSort::default(),
                    _ => EvalSort {
                        column: self
                            .pick(&["id", "gold", "delta", "ndcg@10", "recall@100"])
                            .into(),
                        descending: self.below(2) == 0,
                    },
                },
            }
        }

        /// A method as the picker makes them: defaults, or one parameter
        /// changed, within what a link may preset.
        fn rank(&mut self) -> Method {
            let names = [&Method::NAMES[..], &Method::LLM_NAMES[..]].concat();
            let m = Method::by_name(self.pick(&names)).unwrap();
            bounded(match (m.parameters().first(), self.below(2)) {
                (Some((key, _)), 0) => m
                    .with_param(key, &(1 + self.below(50)).to_string())
                    .unwrap_or(m),
                _ => m,
            })
        }

        fn method(&mut self) -> Bm25Link {
            Bm25Link {
                variant: self.pick(&[Bm25Variant::Okapi, Bm25Variant::Lucene]),
                k1: self.stepped(K1_MAX, 0.05),
                b: self.stepped(1.0, 0.01),
            }
        }
    }

    #[test]
    fn decode_inverts_encode() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..5000 {
            let state = rng.state();
            let link = state.encode();
            assert_eq!(LinkState::decode(&link), state, "link {link:?}");
            assert_eq!(LinkState::decode(&format!("#{link}")), state);
        }
    }

    #[test]
    fn the_default_state_is_the_empty_link() {
        assert_eq!(LinkState::default().encode(), "");
        assert_eq!(LinkState::decode(""), LinkState::default());
        assert_eq!(LinkState::decode("#"), LinkState::default());
    }

    #[test]
    fn a_typical_link_reads_well() {
        let state = LinkState {
            pool: Some("el-syntagma.blob".into()),
            hash: Some("e21ef5d68217697236a5ead8cec7e316".into()),
            rank: Some("rrf:k=20".parse().unwrap()),
            bm25: Some(Bm25Link {
                variant: Bm25Variant::Okapi,
                k1: 1.2,
                b: 0.75,
            }),
            query: "ελευθερία & τύπος".into(),
            article: Some("Syntagma::13".into()),
            ..LinkState::default()
        };
        assert_eq!(
            state.encode(),
            "pool=el-syntagma.blob&hash=e21ef5d68217697236a5ead8cec7e316\
             &rank=rrf:k=20&bm25=okapi:k1=1.2,b=0.75\
             &q=%CE%B5%CE%BB%CE%B5%CF%85%CE%B8%CE%B5%CF%81%CE%AF%CE%B1%20%26%20\
             %CF%84%CF%8D%CF%80%CE%BF%CF%82&doc=Syntagma::13"
        );
    }

    #[test]
    fn a_citation_link_reads_back_and_a_long_one_is_dropped() {
        let state = LinkState::decode("pool=da-acts.blob&cite=strfl.%20§%20244");
        assert_eq!(state.cite.as_deref(), Some("strfl. § 244"));
        assert_eq!(LinkState::decode(&state.encode()), state);
        let long = format!("cite={}", "§".repeat(CITE_MAX + 1));
        assert_eq!(LinkState::decode(&long).cite, None);
        let fits = format!("cite={}", "§".repeat(CITE_MAX));
        assert!(LinkState::decode(&fits).cite.is_some());
    }

    #[test]
    fn numbers_are_clamped_and_bad_values_fall_back() {
        let method = |s: &str| LinkState::decode(&format!("bm25={s}")).bm25;
        let link = |variant, k1, b| Some(Bm25Link { variant, k1, b });
        use Bm25Variant::{Lucene, Okapi};
        assert_eq!(method("lucene:k1=9,b=-2"), link(Lucene, K1_MAX, 0.0));
        assert_eq!(method("okapi:k1=NaN,b=inf"), link(Okapi, 1.5, 0.75));
        assert_eq!(method("okapi:k1=x,b=,zz=3"), link(Okapi, 1.5, 0.75));
        assert_eq!(method("okapi"), link(Okapi, 1.5, 0.75));
        assert_eq!(method("bm25+:k1=1"), None);
        assert_eq!(method(""), None);
    }

    #[test]
    fn links_preset_llm_runs_of_bounded_size() {
        let state = LinkState::decode(
            "rank=react-bm25:rounds=1000000,candidates=1000000,chars=9999999\
             &vsrank=react-bm25:rounds=50,candidates=5,chars=0&n=100000",
        );
        let react = |rounds, candidates, chars| {
            Some(Method::ReactBm25 {
                rounds,
                candidates,
                chars,
            })
        };
        assert_eq!(
            state.rank,
            react(LINK_ROUNDS_MAX, LINK_CANDIDATES_MAX, LINK_CHARS_MAX)
        );
        assert_eq!(state.compare_rank, react(LINK_ROUNDS_MAX, 5, 0));
        assert_eq!(state.llm_queries, Some(LINK_LLM_QUERIES_MAX));
        // The paper's settings and the shipped transcripts' pass as they are.
        let paper = LinkState::decode("rank=react-bm25&n=5");
        assert_eq!(paper.rank, Method::by_name("react-bm25"));
        assert_eq!(paper.llm_queries, Some(5));
    }

    #[test]
    fn methods_read_back_or_fall_back() {
        let rank = |s: &str| LinkState::decode(&format!("rank={s}")).rank;
        assert_eq!(rank("rrf"), Method::by_name("rrf"));
        assert_eq!(
            rank("rocchio:beta=0.5").map(|m| m.to_string()).as_deref(),
            Some("rocchio:beta=0.5")
        );
        for bad in [
            "",
            "colbert",
            "rrf:k=0",
            "rrf:k=x",
            "bm25:k=1",
            "weighted:w=2",
        ] {
            assert_eq!(rank(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn unknown_keys_repeats_and_bad_escapes_are_ignored() {
        let state = LinkState::decode("#x=1&q=first&q=second&pool=%ZZ&doc=a%2&view=nope&hash=xyz");
        assert_eq!(
            state,
            LinkState {
                query: "first".into(),
                ..LinkState::default()
            }
        );
        assert_eq!(LinkState::decode("q=a+b%2Bc").query, "a b+c");
        assert_eq!(
            LinkState::decode("hash=ABCDEF").hash.as_deref(),
            Some("abcdef")
        );
        assert_eq!(
            LinkState::decode(&format!("hash={}", "a".repeat(65))).hash,
            None
        );
        // Invalid UTF-8 after unescaping.
        assert_eq!(LinkState::decode("doc=%FF").article, None);
    }

    /// 64,000 distinct unknown keys: remembering every key seen and
    /// searching that list took minutes.
    #[test]
    fn a_fragment_of_many_keys_reads_in_linear_time() {
        const DIGITS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        let mut fragment = String::new();
        'keys: for len in 1..=3u32 {
            for n in 0..DIGITS.len().pow(len) {
                let key: String = (0..len)
                    .map(|i| DIGITS[n / DIGITS.len().pow(i) % DIGITS.len()] as char)
                    .collect();
                if fragment.len() + key.len() + 20 > FRAGMENT_MAX {
                    break 'keys;
                }
                if KEYS.contains(&key.as_str()) {
                    continue;
                }
                fragment.push_str(&key);
                fragment.push('&');
            }
        }
        fragment.push_str("q=found");
        let started = std::time::Instant::now();
        let state = LinkState::decode(&fragment);
        let took = started.elapsed();
        assert_eq!((state.query.as_str(), state.query_cut), ("found", false));
        assert!(took.as_secs() < 2, "took {took:?}");
    }

    #[test]
    fn a_long_query_is_cut_and_says_so() {
        let read = |q: String| {
            let s = LinkState::decode(&format!("q={q}"));
            (s.query, s.query_cut)
        };
        let fits = "a".repeat(QUERY_MAX);
        assert_eq!(read(fits.clone()), (fits.clone(), false));
        assert_eq!(read(format!("{fits}b")), (fits, true));
        // UTF-16 code units, as `maxlength` counts: an emoji is two, and
        // is never split.
        let emoji = "%F0%9F%98%80".repeat(QUERY_MAX / 2 + 1);
        let (query, cut) = read(format!("a{emoji}"));
        assert!(cut);
        assert_eq!(query.chars().count(), 1 + (QUERY_MAX - 1) / 2);
        assert!(query.encode_utf16().count() <= QUERY_MAX);
        // A cut query is never written into a link.
        let state = LinkState::decode(&format!("q={}", "a".repeat(QUERY_MAX + 5)));
        assert!(!LinkState::decode(&state.encode()).query_cut);
    }

    #[test]
    fn only_the_fragments_first_bytes_are_read() {
        // 1.5 MB of α: the cap tears the query inside an escape, or inside
        // a character's bytes; what is whole is kept, and said to be cut.
        for pad in 0..9 {
            let fragment = format!(
                "pool=el-syntagma.blob&{}q={}",
                "x&".repeat(pad),
                "%CE%B1".repeat(250_000)
            );
            let state = LinkState::decode(&fragment);
            assert_eq!(state.pool.as_deref(), Some("el-syntagma.blob"));
            assert!(state.query_cut && !state.query.is_empty());
            assert!(state.query.chars().all(|c| c == 'α'), "pad {pad}");
            assert!(state.query.chars().count() < FRAGMENT_MAX / 6);
        }
        // Another key torn by the cap is dropped; keys past it are unread.
        let doc = format!("q=short&doc={}&eq=after", "d".repeat(FRAGMENT_MAX));
        let state = LinkState::decode(&doc);
        assert_eq!((state.query.as_str(), state.query_cut), ("short", false));
        assert_eq!((state.article, state.eval_query), (None, None));
    }

    #[test]
    fn pools_are_plain_file_names() {
        let pool = |s: &str| LinkState::decode(&format!("pool={s}")).pool;
        assert_eq!(
            pool("el-syntagma.blob").as_deref(),
            Some("el-syntagma.blob")
        );
        assert_eq!(pool("A_1.blob").as_deref(), Some("A_1.blob"));
        assert_eq!(pool("synth-1e5/meta").as_deref(), Some("synth-1e5/meta"));
        let long = "a".repeat(POOL_MAX + 1);
        for bad in [
            "",
            "../x.blob",
            "a%2Fb",
            "a/b",
            "../meta",
            "./meta",
            "/meta",
            "a/b/meta",
            "a%20b",
            "%3Cimg%3E",
            "ελ.blob",
            "a%00",
            long.as_str(),
        ] {
            assert_eq!(pool(bad), None, "{bad}");
        }
    }

    #[test]
    fn transcripts_are_named_by_hash_and_site_path_only() {
        let sha = "0f".repeat(32);
        let read = |s: &str| LinkState::decode(s).transcript;
        assert_eq!(
            read(&format!(
                "transcript={}&tpath=transcripts/a.jsonl",
                sha.to_uppercase()
            )),
            Some(TranscriptLink {
                sha256: sha.clone(),
                path: Some("transcripts/a.jsonl".into())
            })
        );
        // A path outside the site is dropped; the hash stays.
        for path in [
            "https://evil.example/a.jsonl",
            "../a.jsonl",
            "/etc/passwd",
            "%2F%2Fevil",
        ] {
            let link = read(&format!("transcript={sha}&tpath={path}")).unwrap();
            assert_eq!(link.path, None, "{path}");
        }
        // No hash, no transcript (a path alone names nothing).
        assert_eq!(read("tpath=transcripts/a.jsonl"), None);
        assert_eq!(read("transcript=abc"), None);
        let n = |s: &str| LinkState::decode(s).llm_queries;
        assert_eq!((n("n=5"), n("n=0"), n("n=x")), (Some(5), Some(1), None));
        assert_eq!(n("n=99999999999"), Some(LINK_LLM_QUERIES_MAX));
        let mine = |s: &str| LinkState::decode(s).my_judgments;
        assert_eq!(
            (mine("bench=mine"), mine("bench=x"), mine("")),
            (true, false, false)
        );
    }

    #[test]
    fn sort_orders_read_back_or_fall_back() {
        let sort = |s: &str| LinkState::decode(&format!("sort={s}")).sort;
        let order = |column: &str, descending| EvalSort {
            column: column.into(),
            descending,
        };
        assert_eq!(sort("-ndcg@10"), order("ndcg@10", true));
        assert_eq!(sort("gold"), order("gold", false));
        for bad in ["", "-", "--id", "a b", "<b>", &"x".repeat(COLUMN_MAX + 1)] {
            assert_eq!(sort(bad), EvalSort::default(), "{bad:?}");
        }
    }

    #[test]
    fn garbage_never_panics() {
        let mut rng = Rng(42);
        const PIECES: &[&str] = &[
            "&",
            "=",
            "#",
            "%",
            "%2",
            "%zz",
            "%C3",
            "%FF",
            "+",
            "q",
            "pool",
            "bm25",
            "k1",
            "b",
            ":",
            ",",
            "okapi",
            "lucene",
            "view",
            "doc",
            "hash",
            "1e308",
            "-0",
            "NaN",
            "§",
            "😀",
            "vs",
            "eq",
            "sort",
            "-",
            "@",
            "rank",
            "rrf",
            "dense",
            "k=",
            "depth",
            "transcript",
            "tpath",
            "n",
            "bench",
            "mine",
            "field",
            "vsfield",
            "augmented",
            "text",
            "react-bm25",
            "0123456789abcdef",
            "/",
            "..",
        ];
        for _ in 0..20_000 {
            let n = rng.below(16);
            let garbage: String = (0..n).map(|_| rng.pick(PIECES)).collect();
            let state = LinkState::decode(&garbage);
            for m in state.bm25.iter().chain(&state.compare) {
                assert!((0.0..=K1_MAX).contains(&m.k1) && (0.0..=1.0).contains(&m.b));
            }
            // Whatever was read, writing it back and reading again is stable.
            assert_eq!(LinkState::decode(&state.encode()), state, "{garbage:?}");
        }
        for _ in 0..5000 {
            let bytes: Vec<u8> = (0..rng.below(40)).map(|_| rng.next() as u8).collect();
            LinkState::decode(&String::from_utf8_lossy(&bytes));
        }
    }

    #[test]
    fn fields_are_said_only_when_augmented() {
        let augmented = LinkState {
            field: Field::Augmented,
            compare_field: Field::Augmented,
            ..LinkState::default()
        };
        assert_eq!(augmented.encode(), "field=augmented&vsfield=augmented");
        assert_eq!(LinkState::decode(&augmented.encode()), augmented);
        let text = LinkState {
            field: Field::Text,
            ..LinkState::default()
        };
        assert_eq!(text.encode(), "");
        // Unknown fields, and the text said aloud, read as the text.
        for value in ["text", "Augmented", "", "x", "augmented%00"] {
            let link = LinkState::decode(&format!("field={value}&vsfield={value}"));
            assert_eq!((link.field, link.compare_field), (Field::Text, Field::Text));
        }
        // The first of two counts.
        let twice = LinkState::decode("field=augmented&field=text");
        assert_eq!(twice.field, Field::Augmented);
    }

    #[test]
    fn run_files_are_named_by_hash_and_slot_only() {
        let sha = "ab".repeat(32);
        let read = |s: &str| LinkState::decode(s).run;
        let a = RunLink {
            slot: Slot::Current,
            sha256: sha.clone(),
        };
        let b = RunLink {
            slot: Slot::Compared,
            ..a.clone()
        };
        assert_eq!(read(&format!("runa={sha}")), Some(a.clone()));
        assert_eq!(
            read(&format!("runb={}", sha.to_uppercase())),
            Some(b.clone())
        );
        // Only 64 hex digits name a run; the first of two names counts.
        assert_eq!(read("runb=abc"), None);
        assert_eq!(read(&format!("runb={sha}0")), None);
        assert_eq!(read(&format!("runb=x{}", &sha[1..])), None);
        assert_eq!(read(&format!("runa={sha}&runb={sha}")), Some(a.clone()));
        for run in [a, b] {
            let state = LinkState {
                view: View::Evaluate,
                run: Some(run.clone()),
                ..LinkState::default()
            };
            assert_eq!(LinkState::decode(&state.encode()).run, Some(run));
        }
    }
}
