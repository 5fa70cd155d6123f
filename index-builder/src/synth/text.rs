//! A synthetic paragraph: chain sentences up to a drawn length, with the
//! reference phrases worked in.

use super::draw::Draw;
use super::markov::Chain;

/// About `want` words from `chain` (whole sentences), each phrase closing
/// a sentence of its own ("…, jf. § 12."). Starts with a capital: the Danish
/// chunker reads "Stk. 2." before a lowercase word as a reference, not a
/// new stykke. `chain` is not empty.
pub fn body(chain: &Chain, want: usize, draw: &mut Draw, phrases: &[String]) -> String {
    let mut out = String::new();
    let mut words = 0;
    let mut phrases = phrases.iter();
    loop {
        let start = out.len();
        words += chain.sentence(draw, &mut out);
        // Every sentence ends in a full stop, so a phrase after it starts
        // no reference chain with the next sentence.
        let end = out[start..].trim_end_matches(['.', ';', ':', ',']).len() + start;
        out.truncate(end);
        if let Some(phrase) = phrases.next() {
            out.push_str(", ");
            out.push_str(phrase);
        }
        out.push('.');
        if words >= want && phrases.len() == 0 {
            return capitalised(out);
        }
    }
}

fn capitalised(text: String) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) if c.is_lowercase() => c.to_uppercase().chain(chars).collect(),
        _ => text,
    }
}
