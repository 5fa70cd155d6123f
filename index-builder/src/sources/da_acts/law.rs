//! Names for every document of Retsinformation (`da-law`): what a lawyer
//! sees of it. The source id is its type, year and number (`LBK-2025-1129`,
//! [`DocRef`]), which also gives the type and year facets and the ELI link;
//! the source's name is its popular name where it has one (`Serviceloven`,
//! `Selskabsloven`), else its citation (`BEK nr. 836 af 2013`); the title is
//! the full title; the number and date are the official ones.

use serde_json::Value;

use super::acts::{self, Act};
use super::{issued_date, string_field, year_and_number};
use crate::sources::dataset::{SourceInfo, SourceInput};
use nomos_core::eli::DocRef;

/// Only acts have popular names; an executive order's title may end in
/// an act's ("… efter lov om … (xloven)").
const NAMED_KINDS: [&str; 2] = ["LBK", "LOV"];

/// Longest alias the blob's sources section takes.
const MAX_ALIAS: usize = 200;

/// The act and source names of one document; the error says which field is
/// wrong.
pub fn identify(doc: &Value, title: &str) -> Result<(Act, SourceInput), String> {
    let (year, number) = year_and_number(doc)?;
    let date = issued_date(doc)?;
    let kind = kind(string_field(doc, "short_name")?)?;
    let bad_id = || format!("field `id` is \"{year}:{number}\", not a document number");
    let doc_ref = DocRef::new(
        kind,
        year.parse().map_err(|_| bad_id())?,
        number.parse().map_err(|_| bad_id())?,
    )
    .ok_or_else(bad_id)?;
    let named = NAMED_KINDS
        .contains(&kind)
        .then(|| acts::identify(title).ok())
        .flatten();
    let act = match named {
        Some(act) => Act {
            short: doc_ref.to_string(),
            ..act
        },
        None => Act {
            short: doc_ref.to_string(),
            display: doc_ref.citation(),
            abbreviation: None,
            own_names: acts::own_names(&acts::bare_title(title)),
        },
    };
    // A named act is cited by its names; others by number (the name).
    let mut aliases: Vec<String> = act.abbreviation.iter().cloned().collect();
    if act.display != doc_ref.citation() {
        aliases.extend(act.own_names.iter().cloned());
    }
    aliases.retain(|a| a.chars().count() <= MAX_ALIAS);
    let info = SourceInfo {
        name: act.display.clone(),
        title: title.split_whitespace().collect::<Vec<_>>().join(" "),
        aliases,
        number: format!("{kind} nr. {number}"),
        date: date.to_owned(),
    };
    let source = SourceInput {
        source: act.short.clone(),
        info,
    };
    Ok((act, source))
}

/// The type in `short_name`: `LBK` of `LBK H#LOKDOK03`, `ABK` of
/// `ABK#LOKDOK60`.
fn kind(short_name: &str) -> Result<&str, String> {
    let kind = short_name
        .split([' ', '#'])
        .next()
        .filter(|k| (2..=5).contains(&k.len()) && k.bytes().all(|b| b.is_ascii_uppercase()));
    kind.ok_or_else(|| format!("field `short_name` is \"{short_name}\", not a document type"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(title: &str, short_name: &str, id: &str) -> Value {
        serde_json::json!({
            "title": title, "short_name": short_name, "id": id, "issued_date": "2025-09-22",
        })
    }

    #[test]
    fn consolidated_acts_keep_their_popular_names() {
        let title = "Bekendtgørelse af lov om social service";
        let (act, source) = identify(&doc(title, "LBK H#LOKDOK03", "2025:1129"), title).unwrap();
        assert_eq!(act.short, "LBK-2025-1129");
        assert_eq!(act.display, "Serviceloven");
        assert_eq!(source.source, "LBK-2025-1129");
        assert_eq!(source.info.name, "Serviceloven");
        assert_eq!(source.info.aliases, ["servicel.", "lov om social service"]);
        assert_eq!(source.info.number, "LBK nr. 1129");
        assert_eq!(source.info.date, "2025-09-22");
        assert_eq!(source.info.title, title);
    }

    #[test]
    fn other_documents_are_named_by_number() {
        let title = "Bekendtgørelse om ændring af bekendtgørelse om ophold i varetægtsfængsel";
        let (act, source) = identify(&doc(title, "BEK H#LOKDOK04", "2020:2025"), title).unwrap();
        assert_eq!(act.short, "BEK-2020-2025");
        assert_eq!(source.info.name, "BEK nr. 2025 af 2020");
        assert!(source.info.aliases.is_empty());
        assert_eq!(
            act.own_names,
            ["bekendtgørelse om ændring af bekendtgørelse om ophold i varetægtsfængsel"]
        );
        // An executive order ending in an act's name is not that act.
        let title =
            "Bekendtgørelse om ikrafttræden af lov om sikkerhed for gasanlæg (gassikkerhedsloven)";
        let (act, _) = identify(&doc(title, "BEK H#LOKDOK04", "2020:7"), title).unwrap();
        assert_eq!(act.display, "BEK nr. 7 af 2020");
        let (act, _) =
            identify(&doc("Anordning", "ABK#LOKDOK60", "2012:1373"), "Anordning").unwrap();
        assert_eq!(act.short, "ABK-2012-1373");
    }

    #[test]
    fn bad_fields_are_named() {
        let err = |d: Value| identify(&d, "Lov om noget").unwrap_err();
        assert_eq!(
            err(doc("t", "lbk", "2025:1")),
            "field `short_name` is \"lbk\", not a document type"
        );
        assert_eq!(
            err(doc("t", "LBK", "CM016392")),
            "field `id` is \"CM016392\", not \"YEAR:NUMBER\""
        );
        assert_eq!(
            err(doc("t", "LBK", "25:1")),
            "field `id` is \"25:1\", not a document number"
        );
        assert_eq!(
            err(serde_json::json!({"id": "2025:1", "issued_date": "2025-01-01"})),
            "missing string field `short_name`"
        );
    }
}
