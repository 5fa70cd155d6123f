//! Reading citations out of a query, by the forms of [`super::forms`].

use std::ops::Range;

use super::forms::{
    ARTICLE_WORDS, DANISH_ACT_KINDS, FILLER, FOLLOWING, GREEK_ACT_KINDS, ITEM_WORDS, LIST_WORDS,
    PARAGRAPH_WORDS, PLURAL_ARTICLE_WORDS, RANGE_WORDS,
};

/// Most articles one chain lists (a list or ranges), so a crafted query
/// cannot make one citation of thousands.
const CHAIN_MAX: usize = 50;
use super::lexicon::Lexicon;
use super::{article_key, fold};

/// Which act a citation names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ActRef {
    /// None: `§ 244` alone, to be looked up in every act.
    Any,
    /// These acts of the lexicon (by name, abbreviation, code or number).
    Acts(Vec<usize>),
}

/// One citation found in a query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Citation {
    /// The act it names.
    pub act: ActRef,
    /// The article (§) as an [`article_key`]; `None`: the act itself
    /// (`lov nr. 1294`).
    pub article: Option<String>,
    /// The last article of a range (`§§ 12-15 b`, `άρθρα 1 έως 3`): every
    /// article from `article` to this one, in order.
    pub through: Option<String>,
    /// The stykke or paragraph (`stk. 1`, `παρ. 2`).
    pub paragraph: Option<u32>,
    /// The item (`nr. 2`).
    pub item: Option<u32>,
    /// Where it is in the query, in bytes.
    pub span: Range<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Word,
    Num,
    Sym,
}

#[derive(Debug, Clone)]
struct Token {
    kind: Kind,
    /// Folded for words; as written otherwise.
    text: String,
    span: Range<usize>,
    /// No space before it.
    glued: bool,
}

/// Words (letters, with inner dots as in `ν.δ.`), numbers (ASCII digits)
/// and single other characters.
fn tokenize(s: &str) -> Vec<Token> {
    let mut toks = Vec::new();
    let chars: Vec<(usize, char)> = s.char_indices().collect();
    let mut i = 0;
    let mut glued = false;
    while i < chars.len() {
        let (start, c) = chars[i];
        if c.is_whitespace() {
            glued = false;
            i += 1;
            continue;
        }
        let mut j = i + 1;
        let kind = if c.is_alphabetic() {
            while j < chars.len()
                && (chars[j].1.is_alphabetic()
                    || (chars[j].1 == '.' && chars.get(j + 1).is_some_and(|n| n.1.is_alphabetic())))
            {
                j += 1;
            }
            Kind::Word
        } else if c.is_ascii_digit() {
            while j < chars.len() && chars[j].1.is_ascii_digit() {
                j += 1;
            }
            Kind::Num
        } else {
            Kind::Sym
        };
        let end = chars.get(j).map_or(s.len(), |c| c.0);
        let raw = &s[start..end];
        toks.push(Token {
            kind,
            text: if kind == Kind::Word {
                fold(raw)
            } else {
                raw.to_string()
            },
            span: start..end,
            glued,
        });
        glued = true;
        i = j;
    }
    toks
}

/// Every citation in `query`, left to right, not overlapping.
pub fn parse(query: &str, lexicon: &Lexicon) -> Vec<Citation> {
    let p = Parser {
        toks: tokenize(query),
        lex: lexicon,
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < p.toks.len() {
        match p.citation(i) {
            Some((found, end)) => {
                out.extend(found);
                i = end;
            }
            None => i += 1,
        }
    }
    out
}

struct Parser<'a> {
    toks: Vec<Token>,
    lex: &'a Lexicon,
}

/// The places of a chain, each with the end of its range.
type Chain = Vec<(Place, Option<String>)>;

/// An article, paragraph and item read after `§` or `άρθρο`.
struct Place {
    article: String,
    paragraph: Option<u32>,
    item: Option<u32>,
    end: usize,
}

impl Parser<'_> {
    fn tok(&self, i: usize) -> Option<&Token> {
        self.toks.get(i)
    }

    fn is_word(&self, i: usize, set: &[&str]) -> bool {
        self.tok(i)
            .is_some_and(|t| t.kind == Kind::Word && set.contains(&t.text.as_str()))
    }

    fn is_sym(&self, i: usize, c: &str) -> bool {
        self.tok(i)
            .is_some_and(|t| t.kind == Kind::Sym && t.text == c)
    }

    fn num(&self, i: usize) -> Option<u32> {
        self.tok(i)
            .filter(|t| t.kind == Kind::Num && t.text.len() <= 9)
            .and_then(|t| t.text.parse().ok())
    }

    /// Past dots and commas.
    fn skip_punct(&self, mut i: usize) -> usize {
        while self.is_sym(i, ".") || self.is_sym(i, ",") {
            i += 1;
        }
        i
    }

    /// Past punctuation and filler words, and "and following" (`και
    /// επόμενα`) before an act's name.
    fn skip_filler(&self, mut i: usize) -> usize {
        loop {
            let j = self.skip_punct(i);
            if self.is_word(j, FILLER) {
                i = j + 1;
            } else if self.is_word(j, &["και"]) && self.is_word(j + 1, FOLLOWING) {
                i = j + 2;
            } else {
                return j;
            }
        }
    }

    fn span(&self, from: usize, end: usize) -> Range<usize> {
        let start = self.toks[from].span.start;
        let stop = self.toks[end.max(from + 1) - 1].span.end;
        start..stop
    }

    fn citation(&self, i: usize) -> Option<(Vec<Citation>, usize)> {
        let t = self.tok(i)?;
        // `§ 244 …`, `§§ 12-15 b …`, `άρθρο 14 …`, `άρθρων 9, 9Α και 19`:
        // the act may follow.
        if t.text == "§" || self.is_word(i, ARTICLE_WORDS) {
            let plural = self.is_sym(i + 1, "§") || self.is_word(i, PLURAL_ARTICLE_WORDS);
            let start = if self.is_sym(i + 1, "§") {
                i + 2
            } else {
                i + 1
            };
            let (places, chain_end) = self.chain(start, plural)?;
            let after = self.skip_filler(chain_end);
            let (act, end) = match self.act(after) {
                Some((acts, end)) => (ActRef::Acts(acts), end),
                None => (ActRef::Any, chain_end),
            };
            return Some((self.make_all(act, places, i, end), end));
        }
        // `914 ΑΚ`, `914 παρ. 2 ΑΚ`.
        if t.kind == Kind::Num {
            let place = self.place(i)?;
            let (acts, end) = self.act(place.end).filter(|(_, e)| *e > place.end)?;
            return Some((
                self.make_all(ActRef::Acts(acts), vec![(place, None)], i, end),
                end,
            ));
        }
        // An act first: `straffeloven § 244`, `ΑΚ 914`, `AK::914`,
        // `ν. 4624/2019 άρθρο 5`, or a numbered act alone.
        let (acts, after) = self.act(i)?;
        let mut j = self.skip_filler(after);
        if self.is_sym(j, ":") && self.is_sym(j + 1, ":") {
            j += 2;
        }
        let mut plural = false;
        if self.is_sym(j, "§") || self.is_word(j, ARTICLE_WORDS) {
            plural = self.is_sym(j + 1, "§") || self.is_word(j, PLURAL_ARTICLE_WORDS);
            j += 1 + usize::from(self.is_sym(j + 1, "§"));
        }
        if let Some((places, end)) = self.chain(j, plural) {
            return Some((self.make_all(ActRef::Acts(acts), places, i, end), end));
        }
        self.numbered_act(i).map(|_| {
            let c = Citation {
                act: ActRef::Acts(acts),
                article: None,
                through: None,
                paragraph: None,
                item: None,
                span: self.span(i, after),
            };
            (vec![c], after)
        })
    }

    /// One article, or after a plural (`§§`, `άρθρων`) a list and ranges
    /// of them: `12-15 b`, `19 og 20`, `80 b, d og e`, `9, 9Α και 19`,
    /// `1 έως 3`. Each place with the end of its range.
    fn chain(&self, i: usize, plural: bool) -> Option<(Chain, usize)> {
        let first = self.place(i)?;
        let mut end = first.end;
        let mut number = self.tok(i).map(|t| t.text.clone()).unwrap_or_default();
        let mut places = vec![(first, None)];
        while plural && places.len() < CHAIN_MAX {
            let j = end;
            if self.is_sym(j, "-") || self.is_sym(j, "–") || self.is_word(j, RANGE_WORDS) {
                let k = if self.is_word(j + 1, &["και"]) {
                    j + 2
                } else {
                    j + 1
                };
                let Some(to) = self.place(k) else { break };
                end = to.end;
                if let Some(last) = places.last_mut() {
                    last.1 = Some(to.article);
                }
                continue;
            }
            let k = if self.is_sym(j, ",") { j + 1 } else { j };
            let k = if self.is_word(k, LIST_WORDS) {
                k + 1
            } else {
                k
            };
            if k == j {
                break;
            }
            if let Some(next) = self.place(k) {
                number = self.tok(k).map(|t| t.text.clone()).unwrap_or_default();
                end = next.end;
                places.push((next, None));
            } else if let Some(t) = self
                .tok(k)
                .filter(|t| t.kind == Kind::Word && t.text.chars().count() == 1 && t.text != "i")
            {
                // `§§ 80 b, d og e`: another letter of the same number.
                end = k + 1;
                places.push((
                    Place {
                        article: article_key(&number, &t.text),
                        paragraph: None,
                        item: None,
                        end,
                    },
                    None,
                ));
            } else {
                break;
            }
        }
        Some((places, end))
    }

    fn make_all(&self, act: ActRef, places: Chain, from: usize, end: usize) -> Vec<Citation> {
        places
            .into_iter()
            .map(|(p, through)| Citation {
                act: act.clone(),
                article: Some(p.article),
                through,
                paragraph: p.paragraph,
                item: p.item,
                span: self.span(from, end),
            })
            .collect()
    }

    /// `244`, `52 a`, `5Α`, then `, stk. 1`, `παρ. 2`, `, nr. 2`.
    fn place(&self, i: usize) -> Option<Place> {
        let i = if self.is_sym(i, "§") { i + 1 } else { i };
        let number = self
            .tok(i)
            .filter(|t| t.kind == Kind::Num && t.text.len() <= 6)?;
        let mut end = i + 1;
        let mut letter = "";
        if let Some(t) = self.tok(end) {
            let one = t.kind == Kind::Word && t.text.chars().count() == 1;
            // `52 a`, `§ 137 i, stk. 1`, but not `§ 5 i lov …`; `5Α` glued.
            let i_letter = t.text == "i" && self.ends_a_number(end + 1);
            let letter_like = (t.text != "i" || i_letter) && t.text != "σ";
            if one && (t.glued || (letter_like && !self.starts_act(end))) {
                letter = &t.text;
                end += 1;
            }
        }
        let article = article_key(&number.text, letter);
        let mut paragraph = None;
        let j = self.skip_punct(end);
        // `παράγραφοι 2 και 3`: a list of paragraphs, ending at its `και N`.
        if self.is_word(j, &["παραγραφοι"]) {
            let mut k = j + 1;
            while let Some(n) = self.num(k) {
                paragraph.get_or_insert(n);
                end = k + 1;
                let last = self.is_word(k - 1, &["και"]);
                let next = if self.is_sym(k + 1, ",") {
                    k + 2
                } else {
                    k + 1
                };
                let next = if self.is_word(next, &["και", "εως"]) {
                    next + 1
                } else {
                    next
                };
                if last || next == k + 1 {
                    break;
                }
                k = if self.is_word(next, &["και"]) {
                    next + 1
                } else {
                    next
                };
            }
        }
        if self.is_word(j, PARAGRAPH_WORDS) {
            if let Some(n) = self.num(self.skip_punct(j + 1)) {
                paragraph = Some(n);
                end = self.skip_punct(j + 1) + 1;
            }
        }
        let mut item = None;
        let j = self.skip_punct(end);
        if self.is_word(j, ITEM_WORDS) && !self.is_word(j.wrapping_sub(1), DANISH_ACT_KINDS) {
            if let Some(n) = self.num(self.skip_punct(j + 1)) {
                item = Some(n);
                end = self.skip_punct(j + 1) + 1;
            }
        }
        Some(Place {
            article,
            paragraph,
            item,
            end,
        })
    }

    /// Whether the token at `i` ends a § number: the end, punctuation, or
    /// a word that goes on a citation (`stk.`, `og`, `jf.`).
    fn ends_a_number(&self, i: usize) -> bool {
        match self.tok(i) {
            None => true,
            Some(t) if t.kind == Kind::Sym => t.text != "§",
            Some(t) => {
                t.kind == Kind::Word
                    && (PARAGRAPH_WORDS.contains(&t.text.as_str())
                        || ITEM_WORDS.contains(&t.text.as_str())
                        || LIST_WORDS.contains(&t.text.as_str())
                        || t.text == "jf")
            }
        }
    }

    /// Whether a name of an act starts at `i` (a one-letter word such as
    /// `Σ` is then the act, not an article's letter).
    fn starts_act(&self, i: usize) -> bool {
        self.act(i).is_some()
    }

    /// The acts named at `i` and where the name ends: a numbered act, or the
    /// longest name in the lexicon (a Danish genitive `straffelovens` too).
    fn act(&self, i: usize) -> Option<(Vec<usize>, usize)> {
        if let Some((number, year, end)) = self.numbered_act(i) {
            let acts = self.lex.numbered(number, year);
            return (!acts.is_empty()).then_some((acts, end));
        }
        let first = self.tok(i).filter(|t| t.kind != Kind::Sym)?;
        let known = super::lexicon::words(&first.text).first().is_some_and(|w| {
            self.lex.starts_a_name(w)
                || w.strip_suffix('s')
                    .is_some_and(|s| self.lex.starts_a_name(s))
        });
        if !known {
            return None;
        }
        let mut words: Vec<String> = Vec::new();
        let mut best = None;
        let mut j = i;
        while words.len() < self.lex.longest.max(1) {
            let Some(t) = self
                .tok(j)
                .filter(|t| t.kind != Kind::Sym || t.text == "/" || t.text == "_")
            else {
                break;
            };
            if t.kind == Kind::Sym {
                j += 1;
                continue;
            }
            words.extend(super::lexicon::words(&t.text));
            j += 1;
            let acts = self.lex.named(&words);
            if !acts.is_empty() {
                best = Some((acts, j));
            } else if words.len() == 1 {
                if let Some(stem) = words[0].strip_suffix('s') {
                    let acts = self.lex.named(&[stem.to_string()]);
                    if !acts.is_empty() {
                        best = Some((acts, j));
                    }
                }
            }
            if self.is_sym(j, ".") {
                j += 1;
            }
        }
        let (acts, end) = best?;
        // A trailing abbreviation dot belongs to the name.
        let end = if self.is_sym(end, ".") && self.toks[end].glued {
            end + 1
        } else {
            end
        };
        Some((acts, end))
    }

    /// `lov nr. 1294`, `LBK nr 1294 af 2025`, `LBK nr. 1294 af 07/11/2025`,
    /// `ν. 4624/2019`, `π.δ. 18/1989`: (number, year, end).
    fn numbered_act(&self, i: usize) -> Option<(u32, Option<u32>, usize)> {
        if self.is_word(i, DANISH_ACT_KINDS) {
            let j = self.skip_punct(i + 1);
            if !self.is_word(j, &["nr"]) {
                return None;
            }
            let k = self.skip_punct(j + 1);
            let number = self.num(k)?;
            let mut end = k + 1;
            let mut year = None;
            if self.is_word(end, &["af"]) {
                // `af 2025`, `af 07/11/2025`, `af 7. november 2025`.
                let mut m = end + 1;
                for _ in 0..5 {
                    match self.num(m) {
                        Some(y) if self.tok(m).is_some_and(|t| t.text.len() == 4) => {
                            year = Some(y);
                            end = m + 1;
                            break;
                        }
                        _ if self
                            .tok(m)
                            .is_some_and(|t| t.kind != Kind::Word || t.text.len() > 2) =>
                        {
                            m += 1
                        }
                        _ => break,
                    }
                }
            }
            return Some((number, year, end));
        }
        if self.is_word(i, GREEK_ACT_KINDS) {
            let j = self.skip_punct(i + 1);
            let number = self.num(j)?;
            if !self.is_sym(j + 1, "/") {
                return None;
            }
            let year = self
                .num(j + 2)
                .filter(|_| self.toks[j + 2].text.len() == 4)?;
            return Some((number, Some(year), j + 3));
        }
        None
    }
}
