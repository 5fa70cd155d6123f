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
//! Decoding is defensive, because a link is untrusted input: unknown keys
//! are ignored, a key given twice counts once (the first), numbers are
//! clamped into their valid ranges, and anything unreadable (bad escapes,
//! unknown names, NaN) falls back to the default, as if it were absent.
//! Decoded text is only ever shown as text nodes by the views.
//!
//! This module is pure (no browser API), so it is tested natively:
//! `cargo test -p nomos-app`.

use nomos_core::blob::Field;
use nomos_core::methods::Method;
use nomos_core::search::{Bm25Params, Bm25Variant};

use crate::evaluate::config::{RunLink, Slot};
use crate::state::{EvalSort, View};
use crate::transcript_files::{sha256_of, site_path, SiteEntry, TranscriptLink};

/// The advanced panel's k1 slider range; links are clamped into it.
pub const K1_MAX: f64 = 3.0;

/// Longest content hash accepted (hex digits); blobs use 32.
const HASH_MAX: usize = 64;
/// Longest sort column accepted (`id`, `gold`, `delta`, `recall@1000`…).
const COLUMN_MAX: usize = 32;
/// Most benchmark queries a link may ask an LLM method to rank.
pub const LLM_QUERIES_MAX: usize = 100_000;

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
    /// BM25's settings.
    pub method: Option<Bm25Link>,
    /// The field ranked.
    pub field: Field,
    pub query: String,
    pub source: Option<String>,
    pub area: Option<String>,
    /// The open article's id.
    pub article: Option<String>,
    /// Evaluate view: the benchmark query whose ranking is open, by id.
    pub eval_query: Option<String>,
    /// Evaluate view: the BM25 settings compared with `method`.
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
            method: None,
            field: Field::Text,
            query: String::new(),
            source: None,
            area: None,
            article: None,
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
        text("bm25", &self.method.map(|m| m.encode()));
        text("field", &field_name(self.field));
        text("q", &Some(self.query.clone()).filter(|q| !q.is_empty()));
        text("source", &self.source);
        text("area", &self.area);
        text("doc", &self.article);
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
        let mut state = LinkState::default();
        let mut seen: Vec<&str> = Vec::new();
        let mut transcript_path = None;
        for pair in fragment.split('&') {
            let (key, raw) = pair.split_once('=').unwrap_or((pair, ""));
            if seen.contains(&key) {
                continue;
            }
            seen.push(key);
            let Some(value) = unescape(raw) else { continue };
            let text = || Some(value.clone()).filter(|v| !v.is_empty());
            match key {
                "view" => {
                    state.view = match value.as_str() {
                        "evaluate" => View::Evaluate,
                        _ => View::Search,
                    }
                }
                "pool" => state.pool = text(),
                "hash" => state.hash = decode_hash(&value),
                "rank" => state.rank = value.parse().ok(),
                "bm25" => state.method = Bm25Link::decode(&value),
                "field" => state.field = decode_field(&value),
                "q" => state.query = value,
                "source" => state.source = text(),
                "area" => state.area = text(),
                "doc" => state.article = text(),
                "eq" => state.eval_query = text(),
                "vs" => state.compare = Bm25Link::decode(&value),
                "vsrank" => state.compare_rank = value.parse().ok(),
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
                        .map(|n| n.clamp(1, LLM_QUERIES_MAX))
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
    let mut bytes = Vec::with_capacity(s.len());
    let mut it = s.bytes();
    while let Some(b) = it.next() {
        match b {
            b'%' => {
                let hex = [it.next()?, it.next()?];
                let hex = std::str::from_utf8(&hex).ok()?;
                bytes.push(u8::from_str_radix(hex, 16).ok()?);
            }
            b'+' => bytes.push(b' '),
            _ => bytes.push(b),
        }
    }
    String::from_utf8(bytes).ok()
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
                pool: self.some_text(),
                hash: (self.below(2) == 0).then(|| hex(self)),
                rank: (self.below(3) > 0).then(|| self.rank()),
                method: (self.below(3) > 0).then(|| self.method()),
                field: self.pick(&[Field::Text, Field::Augmented]),
                query: self.text(40),
                source: self.some_text(),
                area: self.some_text(),
                article: self.some_text(),
                eval_query: self.some_text(),
                compare: (self.below(3) == 0).then(|| self.method()),
                compare_rank: (self.below(3) == 0).then(|| self.rank()),
                compare_field: self.pick(&[Field::Text, Field::Augmented]),
                transcript: (self.below(3) == 0).then(|| TranscriptLink {
                    sha256: hex(self).repeat(2),
                    path: (self.below(2) == 0).then(|| "transcripts/stard-react.jsonl".into()),
                }),
                llm_queries: (self.below(3) == 0).then(|| 1 + self.below(2000)),
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
        /// changed.
        fn rank(&mut self) -> Method {
            let names = [&Method::NAMES[..], &Method::LLM_NAMES[..]].concat();
            let m = Method::by_name(self.pick(&names)).unwrap();
            match (m.parameters().first(), self.below(2)) {
                (Some((key, _)), 0) => m
                    .with_param(key, &(1 + self.below(50)).to_string())
                    .unwrap_or(m),
                _ => m,
            }
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
            method: Some(Bm25Link {
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
    fn numbers_are_clamped_and_bad_values_fall_back() {
        let method = |s: &str| LinkState::decode(&format!("bm25={s}")).method;
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
        assert_eq!(n("n=99999999999"), Some(LLM_QUERIES_MAX));
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
            for m in state.method.iter().chain(&state.compare) {
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
