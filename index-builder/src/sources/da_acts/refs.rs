//! Finds the §§ and stykker a Danish provision cites ("jf. § 89",
//! "§ 91, stk. 2-11", "stk. 1, 2 og 4", "§§ 80 b, d og e", "§§ 28-30").
//!
//! References are read as chains: refs joined by ",", "og", "eller", "samt" or
//! "jf.", with qualifiers ("nr. 3", "1. pkt.") skipped. A bare "stk. N" is a
//! stykke of the § last named in its chain ("§ 129, stk. 1, og stk. 2",
//! "§ 79 c, stk. 1, jf. stk. 2"); it is the citing §'s own stykke when the
//! chain names none, or after "jf. dog", or after "jf." following a whole §
//! ("§ 22 b, jf. dog stk. 3" — which then starts a chain of its own).
//!
//! Conservative about other laws: a chain is dropped when it is preceded by a
//! law's genitive ("straffelovens §", "lovens §", "samme lovs §") or followed
//! by "i <law>" / "jf. lov…" ("§ 39, stk. 6, i lov om leje af almene
//! boliger", "§ 10, stk. 1, jf. lovbekendtgørelse nr. 897"), unless that law
//! is the act itself ("denne lovs §", "§ 91, stk. 2-11, i lov om almene
//! boliger m.v." inside almenboligloven — CRAwLeR resolves that one too).
//! A bare "stk." right after a number ("artikel 6, stk. 1") belongs to an
//! article of some other instrument and is dropped as well.
//!
//! [`cross_references`] keeps the chains in other acts, with how the text
//! names the act ([`LawRef`]), for the `da-law` pool to resolve against its
//! documents once all are read.

use super::acts::Act;
use super::chunker::SectionKey;

/// What a reference points at, before it is matched against the act's chunks.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// Every stykke of the §§ from `from` to `to` (inclusive, key order).
    Sections { from: SectionKey, to: SectionKey },
    /// Stykker `from..=to` of a § (`None`: the citing § itself).
    Stykker {
        section: Option<SectionKey>,
        from: u32,
        to: u32,
    },
}

/// How a text names another act.
#[derive(Debug, Clone, PartialEq)]
pub enum LawRef {
    /// "§ 5 i lov om social service …": the lowercase text after "i" (at
    /// most [`NAME_TEXT`] bytes), whose start is the act's name, and the
    /// number a "jf. lovbekendtgørelse nr. 1129 af 22. september 2025"
    /// after it gives.
    Named {
        text: String,
        number: Option<(u32, u16)>,
    },
    /// "jf. lovbekendtgørelse nr. 1129 af 22. september 2025": number and
    /// year.
    Numbered { number: u32, year: u16 },
    /// "straffelovens § 74 a": the genitive without its s, lowercase.
    Genitive(String),
    /// "lovens § 12": the act the text is about (in an executive order, the
    /// act it is issued under).
    TheAct,
}

/// Text kept after "i" for matching an act's name: the longest titles of
/// acts cited by name are about this long.
pub const NAME_TEXT: usize = 200;

/// A chain of references into another act.
#[derive(Debug, Clone, PartialEq)]
pub struct Foreign {
    pub law: LawRef,
    pub targets: Vec<Target>,
}

/// All targets cited in `text` (a chunk's body, after its own heading).
pub fn references(text: &str, act: &Act) -> Vec<Target> {
    scan(text, act).0
}

/// All targets cited in `text`, and the chains that cite another act, with
/// how it is named.
pub fn cross_references(text: &str, act: &Act) -> (Vec<Target>, Vec<Foreign>) {
    scan(text, act)
}

fn scan(text: &str, act: &Act) -> (Vec<Target>, Vec<Foreign>) {
    let p = Parser {
        text,
        toks: tokenize(text),
        act,
    };
    let (mut out, mut foreign) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < p.toks.len() {
        let by_section = p.sym(i, '§');
        let by_stk = !by_section && p.stk_number(i).is_some();
        if !(by_section || by_stk) {
            i += 1;
            continue;
        }
        let chain = p.chain(i);
        let genitive = by_section && p.foreign_genitive_before(i);
        if by_stk && p.follows_number(i) {
            // An article's stykke ("artikel 6, stk. 1"): no act's.
        } else if chain.foreign_after || genitive {
            let mut targets = chain.targets;
            // A genitive's act owns the chain up to a "jf. §" that an act
            // named after the chain owns.
            let split = match (genitive, chain.foreign_after, chain.before_jf) {
                (true, true, Some(k)) => k,
                (true, true, None) | (true, false, _) => targets.len(),
                (false, _, _) => 0,
            };
            let after = targets.split_off(split);
            let laws = [(p.law_before(i), targets), (p.law_after(chain.end), after)];
            for (law, targets) in laws {
                if let (Some(law), false) = (law, targets.is_empty()) {
                    foreign.push(Foreign { law, targets });
                }
            }
        } else {
            out.extend(chain.targets);
        }
        i = chain.end.max(i + 1);
    }
    (out, foreign)
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Word,
    Num,
    Sym,
}

#[derive(Debug, Clone, Copy)]
struct Token<'a> {
    kind: Kind,
    text: &'a str,
    start: usize,
}

/// Words (letters), numbers (ASCII digits) and single other characters;
/// whitespace separates and is dropped.
fn tokenize(text: &str) -> Vec<Token<'_>> {
    let mut toks = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        let kind = if c.is_alphabetic() {
            Kind::Word
        } else if c.is_ascii_digit() {
            Kind::Num
        } else if c.is_whitespace() {
            continue;
        } else {
            toks.push(Token {
                kind: Kind::Sym,
                text: &text[start..start + c.len_utf8()],
                start,
            });
            continue;
        };
        let mut end = start + c.len_utf8();
        while let Some(&(at, next)) = chars.peek() {
            let same = match kind {
                Kind::Word => next.is_alphabetic(),
                _ => next.is_ascii_digit(),
            };
            if !same {
                break;
            }
            end = at + next.len_utf8();
            chars.next();
        }
        toks.push(Token {
            kind,
            text: &text[start..end],
            start,
        });
    }
    toks
}

struct Parser<'a> {
    text: &'a str,
    toks: Vec<Token<'a>>,
    act: &'a Act,
}

/// How two references in a chain are joined.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Joiner {
    /// ",", "og", "eller", "samt".
    Plain,
    /// "jf.": "§ 79 c, stk. 1, jf. stk. 2" stays in § 79 c.
    Jf,
    /// "jf. dog": "§ 22 b, jf. dog stk. 3" is the citing §'s stk. 3.
    JfDog,
}

/// One chain of references and where it ended.
struct Chain {
    targets: Vec<Target>,
    end: usize,
    foreign_after: bool,
    /// How many targets came before the first "jf." that led to a "§":
    /// in "regionslovens § 12, jf. § 15, stk. 5, i lov om kommunernes
    /// styrelse" the genitive's act has those, the act after the rest.
    before_jf: Option<usize>,
}

impl Parser<'_> {
    fn sym(&self, i: usize, c: char) -> bool {
        self.toks
            .get(i)
            .is_some_and(|t| t.kind == Kind::Sym && t.text.starts_with(c))
    }

    fn dash(&self, i: usize) -> bool {
        self.sym(i, '-') || self.sym(i, '–')
    }

    fn word(&self, i: usize) -> Option<String> {
        self.toks
            .get(i)
            .filter(|t| t.kind == Kind::Word)
            .map(|t| t.text.to_lowercase())
    }

    fn is_word(&self, i: usize, words: &[&str]) -> bool {
        self.word(i).is_some_and(|w| words.contains(&w.as_str()))
    }

    fn num(&self, i: usize) -> Option<u32> {
        self.toks
            .get(i)
            .filter(|t| t.kind == Kind::Num)
            .and_then(|t| t.text.parse().ok())
    }

    /// Index of the number in "stk. N" / "stk.N" / "Stk. N" at `i`.
    fn stk_number(&self, i: usize) -> Option<usize> {
        if !self.is_word(i, &["stk"]) {
            return None;
        }
        let j = if self.sym(i + 1, '.') { i + 2 } else { i + 1 };
        self.num(j).map(|_| j)
    }

    /// A § letter at `i` ("§ 96 a"). "i" is taken for the preposition when a
    /// word other than a conjunction follows ("§ 5 i lov om …").
    fn letter(&self, i: usize) -> Option<String> {
        let w = self.word(i)?;
        let mut chars = w.chars();
        let c = chars.next()?;
        if chars.next().is_some() || !self.toks[i].text.starts_with(|c: char| c.is_lowercase()) {
            return None;
        }
        if c == 'i'
            && self.word(i + 1).is_some()
            && !self.is_word(i + 1, &["og", "eller", "samt", "jf"])
        {
            return None;
        }
        Some(w)
    }

    /// "N" or "N x" at `i`.
    fn key(&self, i: usize) -> Option<(SectionKey, usize)> {
        let number = self.num(i)?;
        match self.letter(i + 1) {
            Some(letter) => Some((SectionKey { number, letter }, i + 2)),
            None => Some((
                SectionKey {
                    number,
                    letter: String::new(),
                },
                i + 1,
            )),
        }
    }

    /// "N", "N x", "N-M", "N x-M y" or "N x-y" at `i`.
    fn span(&self, i: usize) -> Option<((SectionKey, SectionKey), usize)> {
        let (from, j) = self.key(i)?;
        if self.dash(j) {
            if let Some((to, k)) = self.key(j + 1) {
                return Some(((from, to), k));
            }
            if let Some(letter) = self.letter(j + 1) {
                let to = SectionKey {
                    number: from.number,
                    letter,
                };
                return Some(((from, to), j + 2));
            }
        }
        Some(((from.clone(), from), j))
    }

    /// Is the number at `i` an ordinal of a "1. pkt.", "4.-7. pkt." or
    /// "1. og 2. led" qualifier rather than a stykke or § number?
    fn ordinal(&self, i: usize) -> bool {
        let mut k = i;
        loop {
            if self.num(k).is_none() || !self.sym(k + 1, '.') {
                return false;
            }
            k += 2;
            if self.is_word(k, &["pkt", "led", "punktum", "afsnit"]) {
                return true;
            }
            if self.dash(k) || self.sym(k, ',') || self.is_word(k, &["og", "eller"]) {
                k += 1;
            } else {
                return false;
            }
        }
    }

    /// A number at `i` that can continue a list: not an ordinal ("2. pkt.")
    /// and not an item marker ("§ 79 b, stk. 1,\n2) er idømt …").
    fn list_number(&self, i: usize) -> bool {
        self.num(i).is_some() && !self.ordinal(i) && !self.sym(i + 1, ')')
    }

    /// The §§ after a "§" or "§§" at `i`: a span, or for "§§" a list of
    /// spans in which a bare letter continues the previous number ("§§ 80 b,
    /// d og e").
    fn sections(&self, i: usize) -> Option<(Vec<(SectionKey, SectionKey)>, usize)> {
        let multi = self.sym(i + 1, '§');
        let first = if multi { i + 2 } else { i + 1 };
        if self.ordinal(first) {
            return None;
        }
        let (span, mut j) = self.span(first)?;
        let mut spans = vec![span];
        while multi && (self.sym(j, ',') || self.is_word(j, &["og", "eller", "samt"])) {
            if self.list_number(j + 1) {
                let (span, k) = self.span(j + 1)?;
                spans.push(span);
                j = k;
            } else if let Some(letter) = self.letter(j + 1) {
                let number = spans.last().map_or(0, |s| s.1.number);
                let key = SectionKey { number, letter };
                spans.push((key.clone(), key));
                j += 2;
            } else {
                break;
            }
        }
        Some((spans, j))
    }

    /// The stykke numbers of "stk. 1, 2 og 4" / "stk. 2-11" from the number
    /// at `i`.
    fn stk_list(&self, mut i: usize) -> (Vec<(u32, u32)>, usize) {
        let mut ranges = Vec::new();
        while let Some(from) = self.num(i).filter(|_| !self.ordinal(i)) {
            i += 1;
            let mut to = from;
            if self.dash(i) {
                if let Some(n) = self.num(i + 1).filter(|_| !self.ordinal(i + 1)) {
                    to = n;
                    i += 2;
                }
            }
            ranges.push((from, to));
            let joined = self.sym(i, ',') || self.is_word(i, &["og", "eller"]);
            if !(joined && self.list_number(i + 1)) {
                break;
            }
            i += 1;
        }
        (ranges, i)
    }

    /// Skips ", nr. 3", ", 1.-3. pkt.", ", litra a" after a reference.
    fn skip_qualifiers(&self, mut i: usize) -> usize {
        loop {
            let k = if self.sym(i, ',') { i + 1 } else { i };
            if self.is_word(k, &["nr"]) {
                let mut j = if self.sym(k + 1, '.') { k + 2 } else { k + 1 };
                if self.num(j).is_none() {
                    return i;
                }
                while self.num(j).is_some() && !self.ordinal(j) {
                    j += 1;
                    if self.letter(j).is_some() {
                        j += 1;
                    }
                    let joined =
                        self.dash(j) || self.sym(j, ',') || self.is_word(j, &["og", "eller"]);
                    if !(joined && self.list_number(j + 1)) {
                        break;
                    }
                    j += 1;
                }
                i = j;
            } else if self.ordinal(k) {
                let mut j = k;
                while !self.is_word(j, &["pkt", "led", "punktum", "afsnit"]) {
                    j += 1;
                }
                i = if self.sym(j + 1, '.') { j + 2 } else { j + 1 };
            } else if self.is_word(k, &["litra"]) && self.letter(k + 1).is_some() {
                i = k + 2;
            } else {
                return i;
            }
        }
    }

    /// Reads one chain from `i` (a "§" or a "stk.").
    fn chain(&self, mut i: usize) -> Chain {
        let mut targets = Vec::new();
        let mut before_jf = None;
        // The § that a following bare "stk." continues, and whether it was
        // cited whole (then "jf. stk. 2" means the citing §'s stykke).
        let mut current: Option<SectionKey> = None;
        let mut current_whole = false;
        loop {
            if self.sym(i, '§') {
                let Some((mut spans, next)) = self.sections(i) else {
                    break;
                };
                i = next;
                let stk_at = if self.sym(i, ',') { i + 1 } else { i };
                let Some(last) = spans.pop() else {
                    break;
                };
                targets.extend(
                    spans
                        .into_iter()
                        .map(|(from, to)| Target::Sections { from, to }),
                );
                let single = (last.0 == last.1).then(|| last.0.clone());
                current_whole = true;
                match (self.stk_number(stk_at), single) {
                    (Some(n), Some(section)) => {
                        let (ranges, next) = self.stk_list(n);
                        i = next;
                        targets.extend(ranges.into_iter().map(|(from, to)| Target::Stykker {
                            section: Some(section.clone()),
                            from,
                            to,
                        }));
                        current = Some(section);
                        current_whole = false;
                    }
                    (_, single) => {
                        current = single;
                        targets.push(Target::Sections {
                            from: last.0,
                            to: last.1,
                        });
                    }
                }
            } else if let Some(n) = self.stk_number(i) {
                let (ranges, next) = self.stk_list(n);
                i = next;
                targets.extend(ranges.into_iter().map(|(from, to)| Target::Stykker {
                    section: current.clone(),
                    from,
                    to,
                }));
            } else {
                break;
            }
            i = self.skip_qualifiers(i);
            let (next, joiner) = self.separators(i);
            if self.sym(next, '§') {
                if joiner != Joiner::Plain {
                    before_jf.get_or_insert(targets.len());
                }
                i = next;
            } else if self.stk_number(next).is_some() {
                let own = joiner == Joiner::JfDog || (joiner == Joiner::Jf && current_whole);
                if own {
                    // "§ 22 b, jf. dog stk. 3": the citing §'s stykke; a new
                    // chain starts there, free of this chain's law.
                    return Chain {
                        foreign_after: self.foreign_after(i),
                        targets,
                        end: next,
                        before_jf,
                    };
                }
                i = next;
            } else {
                break;
            }
        }
        Chain {
            foreign_after: self.foreign_after(i),
            targets,
            end: i,
            before_jf,
        }
    }

    /// Skips joiners between chained references and says which kind they
    /// were.
    fn separators(&self, mut i: usize) -> (usize, Joiner) {
        let mut joiner = Joiner::Plain;
        loop {
            if self.sym(i, ',') || self.is_word(i, &["og", "eller", "samt", "henholdsvis"]) {
                i += 1;
            } else if self.is_word(i, &["jf"]) {
                joiner = Joiner::Jf;
                i += if self.sym(i + 1, '.') { 2 } else { 1 };
            } else if joiner == Joiner::Jf && self.is_word(i, &["dog"]) {
                joiner = Joiner::JfDog;
                i += 1;
            } else {
                return (i, joiner);
            }
        }
    }

    /// Does the text after a chain ending at `i` place it in another law?
    fn foreign_after(&self, i: usize) -> bool {
        let k = if self.sym(i, ',') { i + 1 } else { i };
        if self.is_word(k, &["i"]) {
            self.names_other_law(k + 1)
        } else if self.is_word(k, &["jf"]) {
            let j = if self.sym(k + 1, '.') { k + 2 } else { k + 1 };
            self.word(j).is_some_and(|w| lawish(&w)) && !self.names_this_act(j)
        } else {
            false
        }
    }

    /// Do the words from `i` name a law other than this act ("lov om leje
    /// af almene boliger", "straffeloven", "Europa-Parlamentets og Rådets
    /// forordning")? "denne lov" and the act's own names are this act.
    fn names_other_law(&self, i: usize) -> bool {
        if self.names_this_act(i) {
            return false;
        }
        let mut words = 0;
        let mut j = i;
        while words < 5 && j < self.toks.len() {
            match self.toks[j].kind {
                Kind::Word => {
                    if lawish(&self.toks[j].text.to_lowercase()) {
                        return true;
                    }
                    words += 1;
                }
                Kind::Sym if matches!(self.toks[j].text, "-" | "'" | "’") => {}
                _ => return false,
            }
            j += 1;
        }
        false
    }

    fn names_this_act(&self, i: usize) -> bool {
        let Some(tok) = self.toks.get(i) else {
            return false;
        };
        let rest = self.text[tok.start..].to_lowercase();
        let own = ["denne lov", "nærværende lov"];
        own.iter()
            .copied()
            .chain(self.act.own_names.iter().map(String::as_str))
            .any(|name| {
                rest.strip_prefix(name)
                    .is_some_and(|after| !after.starts_with(char::is_alphabetic))
            })
    }

    /// Is the "§" at `i` preceded by another law's genitive ("straffelovens",
    /// "lovens", "samme lovs", "forordningens")? The act's own genitive
    /// ("denne lovs", "selskabslovens" in selskabsloven) is not foreign.
    fn foreign_genitive_before(&self, i: usize) -> bool {
        let Some(w) = i.checked_sub(1).and_then(|p| self.word(p)) else {
            return false;
        };
        let before = self.text[..self.toks[i].start].trim_end().to_lowercase();
        let own = ["denne lovs", "nærværende lovs"];
        let is_own = own
            .iter()
            .map(|s| s.to_string())
            .chain(self.act.own_names.iter().map(|n| format!("{n}s")))
            .any(|g| {
                before
                    .strip_suffix(&g)
                    .is_some_and(|head| !head.ends_with(char::is_alphabetic))
            });
        !is_own && w.ends_with('s') && lawish(&w)
    }

    /// The act named after a chain ending at `i` (", i lov om …", ", jf.
    /// lovbekendtgørelse nr. …", "i lov nr. …"). An instrument that is no act of the pool
    /// ("i Europa-Parlamentets … forordning") is named too, and resolves to
    /// nothing.
    fn law_after(&self, i: usize) -> Option<LawRef> {
        let k = if self.sym(i, ',') { i + 1 } else { i };
        if self.is_word(k, &["jf"]) {
            let j = if self.sym(k + 1, '.') { k + 2 } else { k + 1 };
            return self
                .numbered(j)
                .map(|(number, year)| LawRef::Numbered { number, year })
                .or_else(|| self.named(j));
        }
        // "§ 6 i lov nr. 1631 af 26. december 2013": by number.
        self.numbered(k + 1)
            .map(|(number, year)| LawRef::Numbered { number, year })
            .or_else(|| self.named(k + 1))
    }

    /// The name from token `i` on, and a "jf. … nr. N af … YYYY" after it
    /// (before the next § or the sentence's end).
    fn named(&self, i: usize) -> Option<LawRef> {
        let tok = self.toks.get(i)?;
        let rest = &self.text[tok.start..];
        let mut end = rest.len().min(NAME_TEXT);
        while !rest.is_char_boundary(end) {
            end -= 1;
        }
        // Zero-width characters inside a word ("so\u{200c}cial service") are
        // no part of the name.
        let text: String = rest[..end]
            .chars()
            .filter(|c| !matches!(c, '\u{200b}'..='\u{200d}' | '\u{2060}' | '\u{ad}'))
            .flat_map(char::to_lowercase)
            .collect();
        // "§ 74 i loven": the act the text is about, as "lovens § 74".
        if text
            .strip_prefix("loven")
            .is_some_and(|after| !after.starts_with(char::is_alphabetic))
        {
            return Some(LawRef::TheAct);
        }
        let mut number = None;
        for j in i..(i + 30).min(self.toks.len()) {
            if self.sym(j, '§') || self.sym(j, ';') {
                break;
            }
            if self.is_word(j, &["jf"]) {
                let k = if self.sym(j + 1, '.') { j + 2 } else { j + 1 };
                number = self.numbered(k);
                break;
            }
        }
        Some(LawRef::Named { text, number })
    }

    /// "lovbekendtgørelse nr. 1129 af 22. september 2025" (or "lov nr.",
    /// "bekendtgørelse nr.") at `i`: the number and the year.
    fn numbered(&self, i: usize) -> Option<(u32, u16)> {
        const KINDS: [&str; 4] = [
            "lovbekendtgørelse",
            "lov",
            "bekendtgørelse",
            "lovbekendtgørelsen",
        ];
        if !self.is_word(i, &KINDS) || !self.is_word(i + 1, &["nr"]) {
            return None;
        }
        let j = if self.sym(i + 2, '.') { i + 3 } else { i + 2 };
        let number = self.num(j)?;
        if !self.is_word(j + 1, &["af"]) {
            return None;
        }
        // "af 22. september 2025": the first four-digit number.
        let year = (j + 2..(j + 7).min(self.toks.len()))
            .map_while(|k| (!self.sym(k, ',')).then(|| self.toks[k]))
            .find(|t| t.kind == Kind::Num && t.text.len() == 4)?;
        Some((number, year.text.parse().ok()?))
    }

    /// The act a genitive before the "§" at `i` names: "lovens §" is the
    /// act the text is about, "straffelovens §" straffeloven.
    fn law_before(&self, i: usize) -> Option<LawRef> {
        let w = self.word(i.checked_sub(1)?)?;
        match w.as_str() {
            "lovens" => Some(LawRef::TheAct),
            _ if w.ends_with("lovens") => Some(LawRef::Genitive(w[..w.len() - 1].to_owned())),
            _ => None,
        }
    }

    /// Is the "stk." at `i` attached to a preceding number ("artikel 6, stk.
    /// 1")? Such stykker belong to an article of another instrument.
    fn follows_number(&self, i: usize) -> bool {
        let Some(p) = i.checked_sub(1).filter(|&p| self.sym(p, ',')) else {
            return false;
        };
        match p.checked_sub(1) {
            Some(q) if self.num(q).is_some() => true,
            Some(q) => {
                self.letter(q).is_some() && q.checked_sub(1).is_some_and(|r| self.num(r).is_some())
            }
            None => false,
        }
    }
}

/// Words that name (or are the genitive of) a law or another legal
/// instrument.
fn lawish(w: &str) -> bool {
    const INSTRUMENTS: [&str; 12] = [
        "forordning",
        "direktiv",
        "konvention",
        "traktat",
        "bekendtgørelse",
        "protokol",
        "anordning",
        "regulativ",
        "overenskomst",
        "statut",
        "cirkulære",
        "reglement",
    ];
    w.starts_with("lov")
        || ["loven", "lovens", "lov", "lovs"]
            .iter()
            .any(|s| w.ends_with(s))
        || INSTRUMENTS.iter().any(|s| w.contains(s))
        || matches!(w, "eu" | "eøs")
}

#[cfg(test)]
mod tests;
