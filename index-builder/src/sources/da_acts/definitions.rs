//! A document's `definitions[]` (`term`, `definition`, `source_provision`,
//! the `provision_ref` of the § that defines it), each tied to the stykker
//! that define it.

use serde_json::Value;

use super::super::dataset::{Article, Definition};
use crate::terms::Term;

/// The definitions of `doc` (none when it has no `definitions` field);
/// `defined_in` gives a `provision_ref`'s stykke ids. Of those, the ones
/// that use the term are kept (all, if none does).
pub fn read(
    doc: &Value,
    articles: &[Article],
    defined_in: impl Fn(&str) -> Vec<String>,
) -> Result<Vec<Definition>, String> {
    let list = match doc.get("definitions") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(list)) => list,
        Some(_) => return Err("field `definitions` must be a list".into()),
    };
    let source = articles
        .first()
        .map(|a| a.source.clone())
        .unwrap_or_default();
    list.iter()
        .enumerate()
        .map(|(i, value)| {
            let field = |name: &str| match value.get(name) {
                Some(Value::String(s)) => Ok(s.trim().to_owned()),
                Some(_) => Err(format!("definitions[{i}]: field `{name}` must be a string")),
                None => Err(format!("definitions[{i}]: missing field `{name}`")),
            };
            let term = field("term")?;
            let provision = field("source_provision")?;
            let mut stykker = defined_in(&provision);
            if let Some(matcher) = Term::new(&term) {
                let uses = |id: &String| {
                    articles
                        .iter()
                        .find(|a| &a.id == id)
                        .is_some_and(|a| !matcher.find(&a.text).is_empty())
                };
                if stykker.iter().any(uses) {
                    stykker.retain(uses);
                }
            }
            Ok(Definition {
                source: source.clone(),
                term,
                definition: field("definition")?,
                defined_in: stykker,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::{read_act, Naming};

    fn act(definitions: serde_json::Value) -> anyhow::Result<Vec<super::Definition>> {
        let doc = json!({
            "title": "Bekendtgørelse om tilbagebetaling", "short_name": "BEK H#1",
            "id": "2023:1367", "issued_date": "2023-11-20",
            "provisions": [
                {"provision_ref": "1:1", "chapter": "1", "section": "1",
                 "content": "§ 1. Skyldneren betaler."},
                {"provision_ref": "1:2", "chapter": "1", "section": "2",
                 "content": "§ 2. Ved skyldneren forstås den person, der har fået ydelsen. Stk. 2. Ved fordringshaveren forstås myndigheden."},
            ],
            "definitions": definitions,
        });
        let bytes = serde_json::to_vec(&doc).unwrap();
        Ok(read_act("2023_1367.json", &bytes, Naming::Eli)?
            .unwrap()
            .definitions)
    }

    #[test]
    fn definitions_point_at_the_stykker_that_define_them() {
        let defs = act(json!([
            {"term": "skyldneren", "definition": "den person, der har fået ydelsen", "source_provision": "1:2"},
            {"term": "fordringshaveren", "definition": "myndigheden", "source_provision": "1:2"},
            {"term": "ydelse", "definition": "pengene", "source_provision": "9:99"},
        ]))
        .unwrap();
        let places: Vec<(&str, &[String])> = defs
            .iter()
            .map(|d| (d.term.as_str(), d.defined_in.as_slice()))
            .collect();
        assert_eq!(
            places,
            [
                ("skyldneren", &["BEK-2023-1367_§2_stk1".to_owned()][..]),
                (
                    "fordringshaveren",
                    &["BEK-2023-1367_§2_stk2".to_owned()][..]
                ),
                ("ydelse", &[][..]),
            ]
        );
        assert!(defs.iter().all(|d| d.source == "BEK-2023-1367"));
    }

    #[test]
    fn malformed_definitions_are_named() {
        let err = act(json!([{"definition": "x", "source_provision": "1:2"}])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "2023_1367.json: definitions[0]: missing field `term`"
        );
        let err = act(json!({"term": "x"})).unwrap_err();
        assert!(
            err.to_string().contains("`definitions` must be a list"),
            "{err}"
        );
    }
}
