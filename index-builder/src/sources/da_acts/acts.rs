//! Which law a Retsinformation file holds, and the names we give it.
//!
//! Chunk ids start with a law's short name. The seven CRAwLeR-DK laws keep the
//! benchmark's spellings exactly (including its `aaregnskabsloven` and
//! `erhversfondsloven`), so our ids line up with its `chunks.jsonl`; the other
//! acts follow the same pattern (lowercase Danish short name, æ/ø/å folded to
//! ae/oe/aa). Files are matched by title, not by file name, because a newer
//! consolidation of the same act has a new number.

use anyhow::Result;

use crate::error::bad_input;

/// Known acts: (file in `../shared/data/da-statutes/` the title was taken
/// from, title without "Bekendtgørelse af", id prefix, name shown to users,
/// abbreviation). The file name is for reference and for the test that
/// checks the table. Where each name comes from is in `data/README.md`
/// ("Danish act names"): the titles are the files'; the popular names are
/// CRAwLeR-DK's law names, spelled as the acts' own texts spell them; the
/// abbreviations are the customary ones of Danish legal writing, typed by
/// us (the files' `short_name` is a placeholder, `LBK H#LOKDOK03`, in all).
#[rustfmt::skip]
const KNOWN_ACTS: &[(&str, &str, &str, &str, &str)] = &[
    ("2025_1294.json", "straffeloven", "straffeloven", "Straffeloven", "strfl."),
    ("2025_331.json", "lov om aktie- og anpartsselskaber (selskabsloven)", "selskabsloven", "Selskabsloven", "sel."),
    ("2025_1129.json", "lov om social service", "serviceloven", "Serviceloven", "servicel."),
    ("2025_282.json", "barnets lov", "barnetslov", "Barnets lov", ""),
    ("2026_207.json", "lov om almene boliger m.v.", "almenboligloven", "Almenboligloven", "almenboligl."),
    ("2024_1057.json", "årsregnskabsloven", "aaregnskabsloven", "Årsregnskabsloven", "ÅRL"),
    ("2025_321.json", "lov om erhvervsdrivende fonde", "erhversfondsloven", "Erhvervsfondsloven", "erhvervsfondsl."),
    ("2020_2020.json", "lov om fonde og visse foreninger", "fondsloven", "Fondsloven", "fondsl."),
    ("2024_289.json", "lov om supplerende bestemmelser til forordning om beskyttelse af fysiske personer i forbindelse med behandling af personoplysninger og om fri udveksling af sådanne oplysninger (databeskyttelsesloven)", "databeskyttelsesloven", "Databeskyttelsesloven", "databeskyttelsesl."),
    ("2014_433.json", "forvaltningsloven", "forvaltningsloven", "Forvaltningsloven", "fvl."),
    ("2020_145.json", "lov om offentlighed i forvaltningen", "offentlighedsloven", "Offentlighedsloven", "offl."),
    ("2025_1298.json", "lov om rettens pleje", "retsplejeloven", "Retsplejeloven", "rpl."),
    ("2024_1162.json", "konkursloven", "konkursloven", "Konkursloven", "kl."),
    ("2021_1853.json", "lov om køb", "koebeloven", "Købeloven", "kbl."),
    ("2016_193.json", "lov om aftaler og andre retshandler på formuerettens område", "aftaleloven", "Aftaleloven", "aftl."),
    ("2023_1093.json", "lov om ophavsret", "ophavsretsloven", "Ophavsretsloven", "ophl."),
    ("2026_118.json", "færdselsloven", "faerdselsloven", "Færdselsloven", "fl."),
];

/// The names of one act.
#[derive(Debug, Clone, PartialEq)]
pub struct Act {
    /// Id prefix and `Article::source` (`almenboligloven`).
    pub short: String,
    /// Name for titles (`Almenboligloven`).
    pub display: String,
    /// The official abbreviation (`strfl.`), where one is customary.
    pub abbreviation: Option<String>,
    /// Lowercase phrases by which the act's own text names the act, for
    /// telling "§ 91 i lov om almene boliger" (this act) from "§ 39 i lov om
    /// leje af almene boliger" (another): the title without "Bekendtgørelse
    /// af", a trailing "m.v." or a parenthesised short name, and the short
    /// name itself.
    pub own_names: Vec<String>,
}

/// Identifies an act by its `title` field. Unknown titles of the form
/// "Bekendtgørelse af xloven" or "… (xloven)" get a derived short name, so a
/// new act works without editing the table; anything else is an error.
pub fn identify(title: &str) -> Result<Act> {
    let bare = bare_title(title);
    let own_names = own_names(&bare);
    if let Some(&(_, _, short, display, abbr)) = KNOWN_ACTS.iter().find(|a| a.1 == bare) {
        return Ok(Act {
            short: short.into(),
            display: display.into(),
            abbreviation: (!abbr.is_empty()).then(|| abbr.into()),
            own_names,
        });
    }
    let name = parenthesised_name(&bare)
        .or_else(|| (!bare.contains(' ') && bare.ends_with("loven")).then_some(bare.as_str()))
        .ok_or_else(|| {
            bad_input(format!(
                "unknown act \"{title}\": add it to the table in sources/da_acts/acts.rs"
            ))
        })?;
    let mut display = name.to_string();
    if let Some(first) = display.chars().next() {
        display.replace_range(..first.len_utf8(), &first.to_uppercase().to_string());
    }
    Ok(Act {
        short: ascii_fold(name),
        display,
        abbreviation: None,
        own_names,
    })
}

/// Lowercase title without the "Bekendtgørelse af" of a consolidated act, with
/// whitespace collapsed.
pub fn bare_title(title: &str) -> String {
    let lower = title
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    match lower.strip_prefix("bekendtgørelse af ") {
        Some(rest) => rest.to_string(),
        None => lower,
    }
}

/// A trailing "(xloven)" in a title.
fn parenthesised_name(bare: &str) -> Option<&str> {
    let inner = bare.strip_suffix(')')?;
    let open = inner.rfind('(')?;
    let name = &inner[open + 1..];
    (!name.contains(' ') && name.ends_with("loven")).then_some(name)
}

pub fn own_names(bare: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut main = bare;
    if let Some(name) = parenthesised_name(bare) {
        names.push(name.to_string());
        main = bare[..bare.len() - name.len() - 2].trim_end();
    }
    let main = main.strip_suffix(" m.v.").unwrap_or(main);
    names.push(main.to_string());
    names
}

/// Folds Danish letters to the ASCII spellings used in ids.
fn ascii_fold(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            'æ' => "ae".to_string(),
            'ø' => "oe".to_string(),
            'å' => "aa".to_string(),
            c => c.to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_titles_map_to_crawler_spellings() {
        let act = identify("Bekendtgørelse af lov om almene boliger m.v.").unwrap();
        assert_eq!(act.short, "almenboligloven");
        assert_eq!(act.own_names, vec!["lov om almene boliger"]);
        let act = identify("Bekendtgørelse af  årsregnskabsloven").unwrap();
        assert_eq!(act.short, "aaregnskabsloven");
        let act = identify("Bekendtgørelse af lov om aktie- og anpartsselskaber (selskabsloven)")
            .unwrap();
        assert_eq!(act.short, "selskabsloven");
        assert_eq!(
            act.own_names,
            vec!["selskabsloven", "lov om aktie- og anpartsselskaber"]
        );
    }

    #[test]
    fn unknown_titles_derive_a_name_or_fail() {
        let act = identify("Bekendtgørelse af lov om sikkerhed for gasanlæg (gassikkerhedsloven)")
            .unwrap();
        assert_eq!(
            (act.short.as_str(), act.display.as_str()),
            ("gassikkerhedsloven", "Gassikkerhedsloven")
        );
        let act = identify("Bekendtgørelse af værgemålsloven").unwrap();
        assert_eq!(act.short, "vaergemaalsloven");
        let err = identify("Bekendtgørelse om vejafmærkning").unwrap_err();
        assert!(err.to_string().contains("unknown act"), "{err}");
    }
}
