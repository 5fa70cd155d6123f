//! Reading what a model wrote. Endpoints that enforce a schema return
//! bare JSON; others wrap it in prose or a code fence, so the first JSON
//! value in the text is taken, and then checked for the one field each
//! prompt asks for.

use serde_json::Value;

/// The first complete JSON object or array in `text`, if any.
pub fn first_json_value(text: &str) -> Option<Value> {
    for (start, c) in text.char_indices() {
        if c != '{' && c != '[' {
            continue;
        }
        let mut values = serde_json::Deserializer::from_str(&text[start..]).into_iter::<Value>();
        if let Some(Ok(value)) = values.next() {
            return Some(value);
        }
    }
    None
}

/// The string field `field` of the first JSON object in `text`, trimmed
/// and non-empty.
pub fn string_field(text: &str, field: &str) -> Option<String> {
    let value = first_json_value(text)?;
    let s = value.get(field)?.as_str()?.trim();
    (!s.is_empty()).then(|| s.to_owned())
}

/// Longest reply, in characters, that becomes a query (a planner's query,
/// keywords, a statement): the search box's own limit; the rest is cut.
pub const REPLY_QUERY_MAX: usize = 20_000;

/// `text` cut to its first [`REPLY_QUERY_MAX`] characters: a model's
/// reply, from an endpoint or a shared transcript, has no length of its own.
pub fn as_query(mut text: String) -> String {
    if let Some((end, _)) = text.char_indices().nth(REPLY_QUERY_MAX) {
        text.truncate(end);
    }
    text
}

/// The list of strings `field` of the first JSON object in `text` (or the
/// first JSON array, when the model answered with a bare list), each
/// trimmed, empties dropped. `None` when there is no such list; an empty
/// list is a valid answer.
pub fn list_field(text: &str, field: &str) -> Option<Vec<String>> {
    let value = first_json_value(text)?;
    let list = match &value {
        Value::Array(items) => items,
        Value::Object(map) => map.get(field)?.as_array()?,
        _ => return None,
    };
    let mut out = Vec::with_capacity(list.len());
    for item in list {
        let s = match item {
            Value::String(s) => s.trim().to_owned(),
            Value::Number(n) => n.to_string(),
            _ => return None,
        };
        if !s.is_empty() {
            out.push(s);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_becoming_a_query_is_cut() {
        let long = "αβ ".repeat(REPLY_QUERY_MAX);
        assert_eq!(as_query(long).chars().count(), REPLY_QUERY_MAX);
        assert_eq!(as_query("lejeaftale".into()), "lejeaftale");
    }

    #[test]
    fn finds_json_in_prose_and_fences() {
        let text = "Sure! Here it is:\n```json\n{\"keywords\": [\"μίσθωση\", \" \", \"άρθρο 574 ΑΚ\"]}\n```";
        assert_eq!(
            list_field(text, "keywords").unwrap(),
            ["μίσθωση", "άρθρο 574 ΑΚ"]
        );
    }

    #[test]
    fn skips_braces_that_are_not_json() {
        let text = "Use {curly} words. {\"query\": \"lejeaftale opsigelse\"}";
        assert_eq!(string_field(text, "query").unwrap(), "lejeaftale opsigelse");
    }

    #[test]
    fn a_bare_list_is_accepted() {
        assert_eq!(list_field("[\"A::1\", 7]", "keep").unwrap(), ["A::1", "7"]);
    }

    #[test]
    fn missing_or_mistyped_fields_are_none() {
        assert_eq!(list_field("{\"keep\": \"A::1\"}", "keep"), None);
        assert_eq!(string_field("{\"query\": \"  \"}", "query"), None);
        assert_eq!(string_field("no json here", "query"), None);
        assert_eq!(list_field("{\"keep\": [", "keep"), None);
        assert_eq!(
            list_field("{\"keep\": []}", "keep").unwrap(),
            Vec::<String>::new()
        );
    }
}
