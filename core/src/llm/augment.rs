//! Contextual chunks (Anthropic's contextual retrieval, as CRAwLeR-DK's
//! `augmented_chunks.jsonl`): for each chunk, a short context that
//! situates it in its act, written by an LLM that reads the act around the
//! chunk. The context is prepended to the chunk's text as its augmented
//! text.

use super::ask::{string_schema, Asker, Cost, Failure, Settings};
use super::backend::{Chat, LlmError};
use super::prompts::{render, Prompts};
use super::reply::string_field;

/// A chunk to situate.
#[derive(Debug, Clone, Copy)]
pub struct Chunk<'a> {
    /// Its act's name.
    pub source: &'a str,
    /// The act's text around the chunk (see [`act_window`]).
    pub document: &'a str,
    /// The chunk's text.
    pub chunk: &'a str,
}

/// The context for one chunk, or the failure after a retry.
pub async fn situate<C: Chat>(
    llm: &C,
    settings: &Settings,
    prompts: Prompts,
    chunk: Chunk<'_>,
) -> Result<(Result<String, Failure>, Cost), LlmError> {
    let mut asker = Asker::new(llm, settings, prompts.retry, prompts.version);
    let user = render(
        prompts.augment,
        &[
            ("source", chunk.source),
            ("document", chunk.document),
            ("chunk", chunk.chunk.trim()),
        ],
    );
    let answer = asker
        .ask(prompts.system, user, string_schema("context"), |text| {
            string_field(text, "context")
        })
        .await?;
    Ok((answer, asker.cost))
}

/// The act's chunks `texts` joined by blank lines, cut to about `chars`
/// characters centred on chunk `i` (whole chunks only, at least chunk `i`
/// itself): a model's context holds the section around a chunk when it
/// cannot hold the whole act.
pub fn act_window(texts: &[&str], i: usize, chars: usize) -> String {
    let len = |t: &str| t.chars().count() + 2;
    let (mut lo, mut hi) = (i, i + 1);
    let mut used = len(texts[i]);
    loop {
        let mut grew = false;
        if lo > 0 && used + len(texts[lo - 1]) <= chars {
            lo -= 1;
            used += len(texts[lo]);
            grew = true;
        }
        if hi < texts.len() && used + len(texts[hi]) <= chars {
            used += len(texts[hi]);
            hi += 1;
            grew = true;
        }
        if !grew {
            break;
        }
    }
    texts[lo..hi].join("\n\n")
}

/// The augmented text CRAwLeR-DK indexes: the context, then the chunk.
pub fn augmented_text(context: &str, chunk: &str) -> String {
    format!("{}\n\n{}", context.trim(), chunk.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_grows_around_the_chunk_within_the_budget() {
        let texts = ["aaaa", "bbbb", "cccc", "dddd", "eeee"];
        // Each costs 6; 18 holds three.
        assert_eq!(act_window(&texts, 2, 18), "bbbb\n\ncccc\n\ndddd");
        assert_eq!(act_window(&texts, 0, 18), "aaaa\n\nbbbb\n\ncccc");
        // A budget smaller than the chunk still gives the chunk.
        assert_eq!(act_window(&texts, 4, 1), "eeee");
        assert_eq!(act_window(&texts, 1, 1000), texts.join("\n\n"));
    }
}
