//! Citation jump: finds the citations in a query (`straffeloven § 244`,
//! `strfl. § 244, stk. 1`, `ΑΚ 914`, `άρθρο 14 παρ. 2 Σ`, `AK::914`,
//! `ν. 4624/2019 άρθρο 5`, `LBK nr 1294 af 2025`) and resolves them to the
//! loaded pool's documents.
//!
//! Pure: [`parse`] reads a query against a [`Lexicon`] (the pool's act
//! names, aliases and numbers, from the blob's sources section, plus
//! GreekBarRetrieval's codes from [`forms`]); [`CiteIndex::resolve`] turns
//! a [`Citation`] into [`Jump`]s. A citation that names no act (`§ 244`)
//! resolves in every act that has the article, the preferred act first
//! (the app passes the act the user last opened). [`CiteIndex::official`]
//! writes a document's citation in its official form, for "Copy citation".

mod forms;
mod lexicon;
mod parse;
mod resolve;
#[cfg(test)]
mod tests;

pub use forms::GBR_CODES;
pub use lexicon::Lexicon;
pub use parse::{parse, ActRef, Citation};
pub use resolve::{CiteIndex, Jump};

use crate::analysis::nfd::nfd;

/// The form names are compared in: lowercase, Greek accents and diaeresis
/// removed, final sigma as sigma, dots dropped.
pub fn fold(s: &str) -> String {
    nfd(s)
        .into_iter()
        .filter(|c| !('\u{300}'..='\u{36f}').contains(c) && *c != '.')
        .flat_map(char::to_lowercase)
        .map(|c| if c == 'ς' { 'σ' } else { c })
        .collect()
}

/// An article number's letter as a comparable key: Greek capitals that look
/// like Latin ones are typed either way (`5Α` and `5A` are Article 5Α of
/// the Constitution), so both fold to the Latin lowercase.
pub fn article_key(number: &str, letter: &str) -> String {
    let letter: String = fold(letter)
        .chars()
        .map(|c| match c {
            'α' => 'a',
            'β' => 'b',
            'ε' => 'e',
            'ζ' => 'z',
            'η' => 'h',
            'ι' => 'i',
            'κ' => 'k',
            'μ' => 'm',
            'ν' => 'n',
            'ο' => 'o',
            'ρ' => 'p',
            'τ' => 't',
            'υ' => 'y',
            'χ' => 'x',
            c => c,
        })
        .collect();
    format!("{}{letter}", number.trim_start_matches('0'))
}
