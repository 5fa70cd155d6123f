//! Real text cut into sentences of words for training, without the
//! sentences that cite: synthetic references are drawn apart, at the real
//! rate and pointing at synthetic documents, so none may come from the
//! chain (it would copy "§ 244" from one act into another at random).

/// `words` cut into sentences. A sentence ends at a word ending in `.`,
/// `;` or `:` followed by a capitalised word; sentences with a word for
/// which `cites` is true are left out.
pub fn sentences<'a>(words: &[&'a str], cites: &dyn Fn(&str) -> bool) -> Vec<Vec<&'a str>> {
    let mut out = Vec::new();
    let mut current = Vec::new();
    for (i, word) in words.iter().enumerate() {
        current.push(*word);
        let ends = word.ends_with(['.', ';', ':'])
            && words
                .get(i + 1)
                .is_none_or(|w| w.chars().next().is_some_and(char::is_uppercase));
        if ends {
            let sentence = std::mem::take(&mut current);
            if !sentence.iter().any(|w| cites(w)) {
                out.push(sentence);
            }
        }
    }
    if !current.is_empty() && !current.iter().any(|w| cites(w)) {
        out.push(current);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_at_capitals_and_drops_citing_sentences() {
        let cites = |w: &str| w.contains('§');
        let text = "Loven gælder m.v. her. Se § 3. Den gælder ikke";
        let words: Vec<&str> = text.split_whitespace().collect();
        assert_eq!(
            sentences(&words, &cites),
            [
                vec!["Loven", "gælder", "m.v.", "her."],
                vec!["Den", "gælder", "ikke"]
            ]
        );
    }
}
