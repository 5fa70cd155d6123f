//! Finds the articles of the Constitution a Greek paragraph cites: "άρθρο 28",
//! "του άρθρου 86", "άρθρου 16 παρ. 2", "των άρθρων 9, 9Α και 19", "των
//! άρθρων 5 παράγραφος 4, 6, 8 … 96 παράγραφος 4 και 97", "του προηγούμενου
//! άρθρου". Paragraph numbers are skipped (articles are the unit), which is
//! why they must be told apart from article numbers: "παράγραφος" takes one
//! number, "παράγραφοι" a list that ends at its "και N" / "έως και N", and
//! what follows belongs to the article list again.
//!
//! Conservative about other instruments: a list followed by a genitive
//! ("του ν.δ. 3370/1955", "της Συντακτικής Πράξης", "του Κανονισμού",
//! "του Συντάγματος της 1ης Ιανουαρίου 1952") is dropped, except "του
//! Συντάγματος" alone and "του παρόντος"; references inside «…» (quoted
//! titles of other acts) are dropped too. References to the citing article
//! itself ("του παρόντος άρθρου", "της παραγράφου 1") carry no number here
//! or are removed by the caller.

/// What a reference points at, before it is matched against the articles.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// An article by number as written (`9Α`).
    Article(String),
    /// Articles `from` to `to` in constitution order ("άρθρα 1 έως 3").
    Range(String, String),
    /// "του προηγούμενου άρθρου".
    Previous,
    /// "του επόμενου άρθρου".
    Next,
}

/// All targets cited in `text`.
pub fn references(text: &str) -> Vec<Target> {
    let p = Parser {
        toks: tokenize(text),
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < p.toks.len() {
        if p.toks[i].quoted || !p.is_article_word(i) {
            i += 1;
            continue;
        }
        if let Some(prev) = i.checked_sub(1).and_then(|j| p.word(j)) {
            match prev.as_str() {
                "προηγούμενου" | "προηγουμένου" | "προηγούμενο" => {
                    out.push(Target::Previous)
                }
                "επόμενου" | "επομένου" | "επόμενο" => {
                    out.push(Target::Next)
                }
                _ => {}
            }
        }
        let (targets, end) = p.article_list(i + 1);
        if !p.foreign_after(end) {
            out.extend(targets);
        }
        i = end.max(i + 1);
    }
    out
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
    text: String,
    /// Inside «…».
    quoted: bool,
}

/// Words, numbers and single other characters, each marked if it sits
/// inside «…». "9Α" gives a number and a one-letter word.
fn tokenize(text: &str) -> Vec<Token> {
    let mut toks = Vec::new();
    let mut depth = 0usize;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let kind = if c.is_alphabetic() {
            Kind::Word
        } else if c.is_ascii_digit() {
            Kind::Num
        } else {
            match c {
                '«' => depth += 1,
                '»' => depth = depth.saturating_sub(1),
                c if c.is_whitespace() => {}
                c => toks.push(Token {
                    kind: Kind::Sym,
                    text: c.to_string(),
                    quoted: depth > 0,
                }),
            }
            continue;
        };
        let mut word = c.to_string();
        while let Some(&next) = chars.peek() {
            let same = match kind {
                Kind::Word => next.is_alphabetic(),
                _ => next.is_ascii_digit(),
            };
            if !same {
                break;
            }
            word.push(next);
            chars.next();
        }
        toks.push(Token {
            kind,
            text: word,
            quoted: depth > 0,
        });
    }
    toks
}

struct Parser {
    toks: Vec<Token>,
}

impl Parser {
    fn word(&self, i: usize) -> Option<String> {
        self.toks
            .get(i)
            .filter(|t| t.kind == Kind::Word)
            .map(|t| t.text.to_lowercase())
    }

    fn is_word(&self, i: usize, words: &[&str]) -> bool {
        self.word(i).is_some_and(|w| words.contains(&w.as_str()))
    }

    fn is_num(&self, i: usize) -> bool {
        self.toks.get(i).is_some_and(|t| t.kind == Kind::Num)
    }

    fn sym(&self, i: usize, s: &str) -> bool {
        self.toks
            .get(i)
            .is_some_and(|t| t.kind == Kind::Sym && t.text == s)
    }

    fn is_article_word(&self, i: usize) -> bool {
        self.is_word(i, &["άρθρο", "άρθρου", "άρθρα", "άρθρων"])
    }

    /// An article number at `i`: digits and an optional capital letter
    /// ("9Α", "9 Α"), as written; Latin A–D are read as the Greek letters
    /// the titles use.
    fn number(&self, i: usize) -> Option<(String, usize)> {
        if !self.is_num(i) {
            return None;
        }
        let mut n = self.toks[i].text.clone();
        if let Some(letter) = self.toks.get(i + 1).filter(|t| t.kind == Kind::Word) {
            let mut chars = letter.text.chars();
            if let (Some(c), None) = (chars.next(), chars.next()) {
                let greek = match c {
                    'A' => Some('Α'),
                    'B' => Some('Β'),
                    'C' => Some('Γ'),
                    'D' => Some('Δ'),
                    'Α' | 'Β' | 'Γ' | 'Δ' => Some(c),
                    _ => None,
                };
                if let Some(g) = greek {
                    n.push(g);
                    return Some((n, i + 2));
                }
            }
        }
        Some((n, i + 1))
    }

    /// The articles listed from `i` (just after "άρθρο"/"άρθρων"), skipping
    /// paragraph and case qualifiers; returns them and where the list ends.
    fn article_list(&self, mut i: usize) -> (Vec<Target>, usize) {
        let mut out = Vec::new();
        while let Some((first, next)) = self.number(i) {
            i = self.skip_qualifiers(next);
            let joined_range = self.is_word(i, &["έως"]);
            if joined_range {
                let k = if self.is_word(i + 1, &["και"]) {
                    i + 2
                } else {
                    i + 1
                };
                if let Some((last, next)) = self.number(k) {
                    out.push(Target::Range(first, last));
                    i = self.skip_qualifiers(next);
                } else {
                    out.push(Target::Article(first));
                    break;
                }
            } else {
                out.push(Target::Article(first));
            }
            let joined = self.sym(i, ",") || self.is_word(i, &["και", "ή"]);
            if joined && self.is_num(i + 1) && !self.sym(i + 2, ")") {
                i += 1;
            } else {
                break;
            }
        }
        (out, i)
    }

    /// Skips "παράγραφος 4", "παράγραφοι 2,3 και 4", "παρ. 2", "εδάφιο γ'",
    /// "περίπτωση ε'" after an article number.
    fn skip_qualifiers(&self, mut i: usize) -> usize {
        loop {
            if self.is_word(i, &["παράγραφος", "παραγράφου", "παρ"]) {
                let k = if self.sym(i + 1, ".") { i + 2 } else { i + 1 };
                if !self.is_num(k) {
                    return i;
                }
                i = k + 1;
            } else if self.is_word(i, &["παράγραφοι", "παραγράφων", "παράγραφοί"])
            {
                if !self.is_num(i + 1) {
                    return i;
                }
                i = self.paragraph_list(i + 1);
            } else if self.is_word(
                i,
                &["εδάφιο", "εδάφια", "περίπτωση", "περιπτώσεις", "στοιχείο"],
            ) && self.word(i + 1).is_some_and(|w| w.chars().count() <= 2)
            {
                i += 2;
                if self.sym(i, "'") || self.sym(i, "΄") || self.sym(i, "’") {
                    i += 1;
                }
            } else {
                return i;
            }
        }
    }

    /// A plural paragraph list from the number at `i`: it ends after the
    /// element joined by "και" or "έως (και)", or before a joiner that is
    /// not followed by a number.
    fn paragraph_list(&self, i: usize) -> usize {
        let mut end = i + 1;
        loop {
            let (next, last) = if self.is_word(end, &["και"]) {
                (end + 1, true)
            } else if self.is_word(end, &["έως"]) {
                (
                    end + if self.is_word(end + 1, &["και"]) {
                        2
                    } else {
                        1
                    },
                    true,
                )
            } else if self.sym(end, ",") {
                (end + 1, false)
            } else {
                return end;
            };
            if !self.is_num(next) {
                return end;
            }
            end = next + 1;
            if last {
                return end;
            }
        }
    }

    /// Is the list ending at `i` followed by the genitive of another act?
    fn foreign_after(&self, i: usize) -> bool {
        if !self.is_word(i, &["του", "της", "των"]) {
            return false;
        }
        match self.word(i + 1).as_deref() {
            Some("παρόντος" | "παρούσας") => false,
            Some("συντάγματος") => self.is_word(i + 2, &["της", "του"]),
            Some(_) => true,
            None => false,
        }
    }
}

#[cfg(test)]
mod tests;
