//! Query reformulation (GreekBarRetrieval's Reform-BM25 and Reform-dense):
//! one call per query turns question and facts into keywords for BM25 or
//! into a statement of the legal issue to embed. The caller ranks the new
//! text with [`Method::ranks_reformulation`](crate::methods::Method::ranks_reformulation).

use serde::{Deserialize, Serialize};

use super::ask::{list_schema, string_schema, Asker, Cost, Failure, Settings};
use super::backend::{Chat, LlmError};
use super::prompts::{render, Prompts};
use super::reply::{as_query, list_field, string_field};

/// Which reformulation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reform {
    /// Keywords and short phrases, searched with BM25.
    Sparse,
    /// A short prose statement of the legal issue, embedded.
    Dense,
}

/// The most keywords asked for.
const MAX_KEYWORDS: usize = 30;

/// A reformulated query.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reformulation {
    /// The text to rank with, or the original query when the model's
    /// replies were unusable (then `failure` says so).
    pub text: String,
    /// Set when the model failed twice and the original query was used.
    pub failure: Option<Failure>,
    /// What the call cost.
    pub cost: Cost,
}

/// Reformulates `query` as `kind` asks.
pub async fn reformulate<C: Chat>(
    llm: &C,
    settings: &Settings,
    prompts: Prompts,
    kind: Reform,
    query: &str,
) -> Result<Reformulation, LlmError> {
    let mut asker = Asker::new(llm, settings, prompts.retry, prompts.version);
    let vars = [("query", query.trim())];
    let answer = match kind {
        Reform::Sparse => {
            let user = render(prompts.sparse, &vars);
            let schema = list_schema("keywords", MAX_KEYWORDS, None);
            asker
                .ask(prompts.system, user, schema, |text| {
                    list_field(text, "keywords")
                        .filter(|k| !k.is_empty())
                        .map(|k| as_query(k.join("; ")))
                })
                .await?
        }
        Reform::Dense => {
            let user = render(prompts.dense, &vars);
            let schema = string_schema("statement");
            asker
                .ask(prompts.system, user, schema, |text| {
                    string_field(text, "statement").map(as_query)
                })
                .await?
        }
    };
    Ok(match answer {
        Ok(text) => Reformulation {
            text,
            failure: None,
            cost: asker.cost,
        },
        Err(failure) => Reformulation {
            text: query.to_owned(),
            failure: Some(failure),
            cost: asker.cost,
        },
    })
}
