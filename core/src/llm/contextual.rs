//! Contextual queries written by an LLM, as CRAwLeR-DK made its set
//! (BENCHMARKS.md §2.2): for a target chunk and the chunks it cites, a
//! question about one rule of the target that only its context makes
//! findable ([`write_query`]); after the caller's rank filter, a judge's
//! verdict on whether the question needs that context ([`assure`]). The
//! prompts are ours, in our words, after the recipe's conditions and
//! criteria; versioned apart from the retrieval prompts ([`QueryPrompts`]),
//! as a set of queries is made once and then only read.

use serde_json::json;

use super::ask::{Asker, Cost, Failure, Settings};
use super::backend::{Chat, LlmError};
use super::chat::Schema;
use super::prompts::render;
use super::reply::first_json_value;

/// One language's templates for making queries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueryPrompts {
    /// `LANG/queries-vN`, recorded in every request.
    pub version: &'static str,
    /// The system message of both requests.
    pub system: &'static str,
    /// The question: `{{chunk}}`, `{{implicit}}`, `{{context}}`.
    pub write: &'static str,
    /// The verdict: `{{query}}` and the same three.
    pub assure: &'static str,
    /// Asks once more after a reply that was not the JSON asked for.
    pub retry: &'static str,
}

macro_rules! query_set {
    ($lang:literal, $v:literal, $retry:literal) => {
        QueryPrompts {
            version: concat!($lang, "/queries-", $v),
            system: include_str!(concat!("prompts/", $lang, "/queries-", $v, "/system.txt")),
            write: include_str!(concat!("prompts/", $lang, "/queries-", $v, "/write.txt")),
            assure: include_str!(concat!("prompts/", $lang, "/queries-", $v, "/assure.txt")),
            retry: include_str!(concat!("prompts/", $lang, "/", $retry, "/retry.txt")),
        }
    };
}

/// Danish sources, with one worked example (CRAwLeR-DK's own kind).
pub const DANISH: QueryPrompts = query_set!("da", "v1", "v2");
/// Every other language: English instructions asking for the question in
/// the provisions' language.
pub const OTHER: QueryPrompts = query_set!("en", "v1", "v1");

impl QueryPrompts {
    /// The set a run uses: the one its transcript was recorded with (a
    /// replay), else the one for the source's analyzer. `Err` names a
    /// recorded set this build lacks.
    pub fn for_run(analyzer: &str, settings: &Settings) -> Result<QueryPrompts, String> {
        match &settings.prompts {
            None if analyzer.starts_with("da") => Ok(DANISH),
            None => Ok(OTHER),
            Some(version) => [DANISH, OTHER]
                .into_iter()
                .find(|p| p.version == version)
                .ok_or_else(|| {
                    format!(
                        "the transcript was recorded with query prompt set {version}, which \
                         this build does not have ({}, {})",
                        DANISH.version, OTHER.version
                    )
                }),
        }
    }
}

/// A chunk to write a query for, with what it refers to.
#[derive(Debug, Clone, Copy)]
pub struct Target<'a> {
    /// The target chunk's text.
    pub chunk: &'a str,
    /// Its neighbours' text (its implicit context), or "".
    pub implicit: &'a str,
    /// The chunks it cites: (id, text), at least one.
    pub context: &'a [(&'a str, &'a str)],
}

impl Target<'_> {
    fn vars<'v>(&'v self, context: &'v str) -> [(&'static str, &'v str); 3] {
        [
            ("chunk", self.chunk.trim()),
            ("implicit", self.implicit.trim()),
            ("context", context),
        ]
    }

    /// The context chunks as the prompts show them: each with its id.
    fn context_text(&self) -> String {
        self.context
            .iter()
            .map(|(id, text)| format!("[{id}] {}", text.trim()))
            .collect::<Vec<_>>()
            .join("\n\n")
    }

    fn ids(&self) -> Vec<String> {
        self.context
            .iter()
            .map(|(id, _)| (*id).to_owned())
            .collect()
    }
}

/// A query the LLM wrote, and the context chunks it says it used.
#[derive(Debug, Clone, PartialEq)]
pub struct Written {
    /// The question, trimmed.
    pub query: String,
    /// The ids of the context chunks it used, each one shown.
    pub utilized: Vec<String>,
}

/// Asks for a query for `target` (see the module docs). A reply that is
/// not `{"utilized_context_chunk_ids": [ids shown], "query": "…"}` is
/// retried once, then a [`Failure`].
pub async fn write_query<C: Chat>(
    llm: &C,
    settings: &Settings,
    prompts: QueryPrompts,
    target: Target<'_>,
) -> Result<(Result<Written, Failure>, Cost), LlmError> {
    let mut asker = Asker::new(llm, settings, prompts.retry, prompts.version);
    let context = target.context_text();
    let user = render(prompts.write, &target.vars(&context));
    let ids = target.ids();
    let schema = Schema {
        name: "contextual_query".to_owned(),
        schema: json!({
            "type": "object",
            "properties": {
                "utilized_context_chunk_ids": {
                    "type": "array",
                    "items": {"type": "string", "enum": ids},
                    "minItems": 1,
                    "maxItems": ids.len(),
                },
                "query": {"type": "string", "minLength": 1},
            },
            "required": ["utilized_context_chunk_ids", "query"],
            "additionalProperties": false,
        }),
    };
    let shown = user.clone();
    let answer = asker
        .ask(prompts.system, user, schema, |text| {
            written(text, &ids, &shown)
        })
        .await?;
    Ok((answer, asker.cost))
}

/// The judge's verdict on `query` for `target`: `true` for "Yes".
pub async fn assure<C: Chat>(
    llm: &C,
    settings: &Settings,
    prompts: QueryPrompts,
    target: Target<'_>,
    query: &str,
) -> Result<(Result<bool, Failure>, Cost), LlmError> {
    let mut asker = Asker::new(llm, settings, prompts.retry, prompts.version);
    let context = target.context_text();
    let mut vars = target.vars(&context).to_vec();
    vars.push(("query", query.trim()));
    let user = render(prompts.assure, &vars);
    let schema = Schema {
        name: "assurance".to_owned(),
        schema: json!({
            "type": "object",
            "properties": {
                "reason": {"type": "string"},
                "verdict": {"type": "string", "enum": ["Yes", "No"]},
            },
            "required": ["reason", "verdict"],
            "additionalProperties": false,
        }),
    };
    let answer = asker.ask(prompts.system, user, schema, verdict).await?;
    Ok((answer, asker.cost))
}

/// Fewest words a question has: a small model asked for "the question"
/// answered with that word, which no baseline finds and so every filter
/// keeps.
const MIN_WORDS: usize = 3;

/// The query and ids of a reply, when every id it names is one of `ids`
/// (at least one), and its query has [`MIN_WORDS`] and is not a piece of
/// `prompt` (the example's question, a placeholder or the target copied).
fn written(text: &str, ids: &[String], prompt: &str) -> Option<Written> {
    let value = first_json_value(text)?;
    let query = value.get("query")?.as_str()?.trim();
    if query.split_whitespace().count() < MIN_WORDS || prompt.contains(query) {
        return None;
    }
    let utilized: Vec<String> = value
        .get("utilized_context_chunk_ids")?
        .as_array()?
        .iter()
        .map(|v| v.as_str().map(str::to_owned))
        .collect::<Option<_>>()?;
    let named = !utilized.is_empty() && utilized.iter().all(|u| ids.contains(u));
    (!query.is_empty() && named).then(|| Written {
        query: query.to_owned(),
        utilized,
    })
}

/// "Yes" or "No", as the judge wrote it.
fn verdict(text: &str) -> Option<bool> {
    match first_json_value(text)?.get("verdict")?.as_str()?.trim() {
        "Yes" => Some(true),
        "No" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::tests::{block_on, Scripted};
    use crate::llm::ChatRequest;

    /// A model answering with `replies` in turn.
    fn scripted(
        replies: &'static [&'static str],
    ) -> Scripted<impl Fn(&ChatRequest, usize) -> String> {
        Scripted::new(move |_: &ChatRequest, n: usize| replies[n].to_owned())
    }

    const CONTEXT: [(&str, &str); 2] = [
        ("lov_§2_stk1", "§ 2. Udsendte ansatte."),
        ("lov_§10_stk1", "§ 10. 300 kr."),
    ];

    fn target() -> Target<'static> {
        Target {
            chunk: "Stk. 2. For ansatte omfattet af § 2 gælder stk. 1 ikke.",
            implicit: "",
            context: &CONTEXT,
        }
    }

    #[test]
    fn a_query_names_only_the_context_shown_and_is_retried_once() {
        let llm = scripted(&[
            r#"{"utilized_context_chunk_ids": ["lov_§99_stk1"], "query": "Får udsendte 300 kr.?"}"#,
            r#"{"utilized_context_chunk_ids": ["lov_§2_stk1"], "query": " Får udsendte 300 kr.? "}"#,
        ]);
        let (answer, cost) =
            block_on(write_query(&llm, &Settings::default(), DANISH, target())).unwrap();
        assert_eq!(
            answer.unwrap(),
            Written {
                query: "Får udsendte 300 kr.?".into(),
                utilized: vec!["lov_§2_stk1".into()],
            }
        );
        assert_eq!((cost.calls, cost.retries), (2, 1));
        let seen = llm.seen.borrow();
        assert_eq!(seen[0].prompt_version, "da/queries-v1");
        let prompt = &seen[0].messages[1].content;
        assert!(prompt.contains("[lov_§10_stk1] § 10. 300 kr."), "{prompt}");
        let schema = &seen[0].schema.as_ref().unwrap().schema;
        assert_eq!(
            schema["properties"]["utilized_context_chunk_ids"]["items"]["enum"],
            json!(["lov_§2_stk1", "lov_§10_stk1"])
        );
    }

    #[test]
    fn a_query_copied_from_the_prompt_or_too_short_is_no_question() {
        let ids = ["a".to_owned()];
        let reply = |q: &str| format!(r#"{{"utilized_context_chunk_ids": ["a"], "query": "{q}"}}"#);
        let prompt = "Eksempel: Får ansatte særtillæg? Målstykket: Stk. 2. Reglen gælder.";
        assert_eq!(written(&reply("spørgsmålet"), &ids, prompt), None);
        assert_eq!(
            written(&reply("Får ansatte særtillæg?"), &ids, prompt),
            None
        );
        assert_eq!(
            written(&reply("Stk. 2. Reglen gælder."), &ids, prompt),
            None
        );
        assert!(written(&reply("Gælder reglen for udsendte?"), &ids, prompt).is_some());
    }

    #[test]
    fn the_verdict_is_yes_or_no_and_anything_else_fails() {
        let llm = scripted(&[r#"{"reason": "r", "verdict": "No"}"#]);
        let (answer, _) =
            block_on(assure(&llm, &Settings::default(), DANISH, target(), "q")).unwrap();
        assert_eq!(answer, Ok(false));
        let llm = scripted(&[r#"{"verdict": "maybe"}"#, "Yes"]);
        let (answer, cost) =
            block_on(assure(&llm, &Settings::default(), OTHER, target(), "q")).unwrap();
        assert!(answer.is_err());
        assert_eq!(cost.failures, 1);
        assert!(llm.seen.borrow()[0].messages[1]
            .content
            .contains("<query>\nq\n</query>"));
    }

    #[test]
    fn a_replay_uses_the_set_it_was_recorded_with() {
        let mut settings = Settings::default();
        assert_eq!(QueryPrompts::for_run("da", &settings), Ok(DANISH));
        assert_eq!(QueryPrompts::for_run("gbr-greek", &settings), Ok(OTHER));
        settings.prompts = Some("en/queries-v1".into());
        assert_eq!(QueryPrompts::for_run("da", &settings), Ok(OTHER));
        settings.prompts = Some("da/queries-v9".into());
        assert!(QueryPrompts::for_run("da", &settings).is_err());
    }
}
