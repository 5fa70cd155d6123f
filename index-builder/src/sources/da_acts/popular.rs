//! Popular names that no title carries, derived from the titles: a text
//! cites "straffuldbyrdelseslovens § 8", "skovlovens § 17" or "§ 48 i
//! arbejdsskadesikringsloven", while the documents are titled "lov om
//! fuldbyrdelse af straf m.v.", "lov om skove" and "lov om
//! arbejdsskadesikring". A name "<stem>loven" is an act's when its stem is
//! made of every word of the act's title after "lov om" (bar small words),
//! each once, in any order, joined by nothing or a linking "s" or "e", and
//! when exactly one title in the pool fits. Precision comes first: a wrong
//! act is worse than none, so a stem that fits two titles, or only some of
//! a title's words ("vurderingsloven", "lov om vurdering og styring af
//! oversvømmelsesrisikoen"), names nothing.

/// Words a title's popular name leaves out.
const SMALL_WORDS: [&str; 16] = [
    "om", "af", "for", "og", "til", "med", "ved", "i", "på", "samt", "visse", "den", "det", "de",
    "en", "et",
];

/// Endings a title word may have that its form in a popular name drops
/// ("skove": "skov", "lægemidler": "lægemiddel" by the shared-stem rule).
const INFLECTIONS: [&str; 10] = ["", "e", "en", "er", "r", "n", "ne", "ene", "erne", "et"];

/// A stem part shorter than this is no word of a title.
const MIN_PART: usize = 3;

/// A shared start at least this long makes two forms one word whatever
/// their endings ("lægemiddel", "lægemidler").
const LONG_STEM: usize = 7;

/// The one title in `titles` (lowercase, "lov om …" without "m.v.") that
/// `name` ("straffuldbyrdelsesloven") is the popular name of.
pub fn title_of<'a>(name: &str, titles: &[&'a str]) -> Option<&'a str> {
    let stem: Vec<char> = name.strip_suffix("loven")?.chars().collect();
    if stem.len() < MIN_PART {
        return None;
    }
    let mut found = None;
    for &title in titles {
        let Some(words) = title_words(title) else {
            continue;
        };
        if words.len() <= 8 && spells(&stem, &words, 0, 0) {
            if found.is_some() {
                return None;
            }
            found = Some(title);
        }
    }
    found
}

/// The words of "lov om …" a popular name is made of; `None` for other
/// titles and for amending acts ("lov om ændring af …").
fn title_words(title: &str) -> Option<Vec<Vec<char>>> {
    let body = title.strip_prefix("lov om ")?;
    if body.starts_with("ændring") {
        return None;
    }
    let words: Vec<Vec<char>> = body
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty() && !SMALL_WORDS.contains(w))
        .map(|w| w.chars().collect())
        .collect();
    (!words.is_empty()).then_some(words)
}

/// Does `stem[at..]` spell every word of `words` not in `used` (a bit set)?
fn spells(stem: &[char], words: &[Vec<char>], at: usize, used: u32) -> bool {
    if at == stem.len() {
        return used.count_ones() as usize == words.len();
    }
    for (k, word) in words.iter().enumerate() {
        if used & (1 << k) != 0 {
            continue;
        }
        let longest = (stem.len() - at).min(word.len() + 1);
        for len in MIN_PART..=longest {
            if same_word(&stem[at..at + len], word) && spells(stem, words, at + len, used | 1 << k)
            {
                return true;
            }
        }
    }
    false
}

/// Is `part` of a popular name the title word `word`: the same start, then
/// an inflection of the word's that the part drops, and at most a linking
/// "s" or "e" that the part adds; or a long shared start.
fn same_word(part: &[char], word: &[char]) -> bool {
    let shared = part.iter().zip(word).take_while(|(a, b)| a == b).count();
    if shared < MIN_PART {
        return false;
    }
    let (part_rest, word_rest) = (&part[shared..], &word[shared..]);
    if shared >= LONG_STEM && part_rest.len() <= 3 && word_rest.len() <= 3 {
        return true;
    }
    let linking = matches!(part_rest, [] | ['s'] | ['e']);
    let ending: String = word_rest.iter().collect();
    linking && INFLECTIONS.contains(&ending.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Titles of the pool's acts, as the pool spells them.
    const TITLES: [&str; 12] = [
        "lov om fuldbyrdelse af straf",
        "lov om skove",
        "lov om arbejdsskadesikring",
        "lov om lægemidler",
        "lov om planter og plantesundhed",
        "lov om aktie- og anpartsselskaber",
        "lov om vurdering og styring af oversvømmelsesrisikoen fra vandløb og søer",
        "lov om udstykning og anden registrering i matriklen",
        "lov om udstykning og salg af statslige arealer med campingpladser",
        "lov om ændring af lov om skove",
        "lov om buskørsel",
        "lov om afgift af lønsum",
    ];

    #[test]
    fn popular_names_are_made_of_every_title_word() {
        let title = |name| title_of(name, &TITLES);
        // BEK-2009-625: "jf. straffuldbyrdelseslovens § 8, stk. 2".
        assert_eq!(
            title("straffuldbyrdelsesloven"),
            Some("lov om fuldbyrdelse af straf")
        );
        // BEK-2012-755: "skovlovens § 17".
        assert_eq!(title("skovloven"), Some("lov om skove"));
        // BEK-2015-1196: "§ 48 i arbejdsskadesikringsloven".
        assert_eq!(
            title("arbejdsskadesikringsloven"),
            Some("lov om arbejdsskadesikring")
        );
        assert_eq!(title("lægemiddelloven"), Some("lov om lægemidler"));
        assert_eq!(title("buskørselsloven"), Some("lov om buskørsel"));
        assert_eq!(
            title("lønsumsafgiftsloven"),
            Some("lov om afgift af lønsum")
        );
    }

    #[test]
    fn a_name_that_fits_no_title_or_two_names_nothing() {
        let title = |name| title_of(name, &TITLES);
        // "planloven" is lov om planlægning, not the plants act.
        assert_eq!(title("planloven"), None);
        // "aktivloven" is no act on companies.
        assert_eq!(title("aktivloven"), None);
        // Only the first of the title's words.
        assert_eq!(title("vurderingsloven"), None);
        // Fits two titles' first words, and neither title whole.
        assert_eq!(title("udstykningsloven"), None);
        assert_eq!(title("loven"), None);
        assert_eq!(title("straffeloven"), None);
        assert_eq!(title("skove"), None);
        // Two titles fit: none is chosen.
        assert_eq!(
            title_of("skovloven", &["lov om skove", "lov om skov"]),
            None
        );
    }
}
