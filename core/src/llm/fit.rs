//! Fitting the observer's prompt into the endpoint's context window. With
//! whole candidate articles (`chars` 0), ReAct-BM25's observer read
//! 28,173 tokens over long Greek articles, which an 8,192-token llama.cpp
//! server refused, ending the run. So when the run knows its endpoint's
//! window ([`Settings::context`](super::Settings::context)), each
//! candidate's text is cut to the most bytes that let the prompt fit, the
//! shorter candidates keeping their whole text, and the round records the
//! cut. Nothing is measured at the endpoint: the cut depends on the
//! recorded settings only, so a replay cuts alike.

/// The context window assumed for a live endpoint that does not report
/// its own (llama.cpp's `/props` does): the smallest that the local
/// servers here run with by default (llama.cpp's examples, Ollama's 4096;
/// `scripts/llm-server.sh` reports 8192).
pub const DEFAULT_CONTEXT: u32 = 4096;

/// Bytes a prompt token is assumed to hold, as a fraction, on the safe
/// side: Qwen2.5's tokenizer (llama.cpp `/tokenize`, 40 texts each) made a
/// token of 2.13 UTF-8 bytes of the Greek codes (1.77 in the densest
/// text), 2.88 of the Danish acts (1.55) and 5.08 of STARD's Chinese
/// (3.95). Three bytes in two tokens leaves room for the densest seen.
const BYTES_PER_TOKEN: (usize, usize) = (3, 2);

/// Tokens kept free for the chat template's wrapping of the messages.
const TEMPLATE_TOKENS: u32 = 64;

/// Reply tokens reserved when the run sets no reply limit.
const DEFAULT_REPLY_TOKENS: u32 = 1024;

/// The least a cut candidate shows, however crowded the prompt: its
/// opening words, so the observer can still tell what it is.
pub const MIN_CANDIDATE_BYTES: usize = 120;

/// The most bytes of text each candidate may show so that a prompt of
/// `fixed` bytes besides the candidates' texts (of `lengths` bytes each),
/// with a reply of `reply_tokens`, fits `context` tokens; `None` when
/// every text fits whole. Shorter texts stay whole and the longer ones
/// share what is left alike; never below [`MIN_CANDIDATE_BYTES`].
pub fn candidate_cap(
    context: u32,
    reply_tokens: Option<u32>,
    fixed: usize,
    lengths: &[usize],
) -> Option<usize> {
    let reply = reply_tokens.unwrap_or(DEFAULT_REPLY_TOKENS);
    let tokens = context
        .saturating_sub(reply)
        .saturating_sub(TEMPLATE_TOKENS) as usize;
    let budget = (tokens * BYTES_PER_TOKEN.0 / BYTES_PER_TOKEN.1).saturating_sub(fixed);
    if lengths.iter().sum::<usize>() <= budget {
        return None;
    }
    let mut sorted = lengths.to_vec();
    sorted.sort_unstable();
    let mut left = budget;
    let mut cap = 0;
    for (i, &len) in sorted.iter().enumerate() {
        let share = left / (sorted.len() - i);
        if len > share {
            cap = share;
            break;
        }
        left -= len;
    }
    Some(cap.max(MIN_CANDIDATE_BYTES))
}

/// `text` cut to at most `cap` bytes, at a character boundary, with `…`
/// (3 bytes, counted) when cut.
pub fn cut_to_bytes(text: &str, cap: usize) -> String {
    if text.len() <= cap {
        return text.to_owned();
    }
    let mut end = cap.saturating_sub('…'.len_utf8());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

/// Where a llama.cpp server reports its context window, given the chat
/// completions URL (`…/v1/chat/completions` → `…/props`).
pub fn props_url(completions: &str) -> String {
    let base = completions.trim_end_matches('/');
    let base = base.strip_suffix("/chat/completions").unwrap_or(base);
    let base = base.strip_suffix("/v1").unwrap_or(base);
    format!("{base}/props")
}

/// The context window a llama.cpp `/props` answer reports
/// (`default_generation_settings.n_ctx`, one slot's window), if it is one.
pub fn context_from_props(body: &[u8]) -> Option<u32> {
    let props: serde_json::Value = serde_json::from_slice(body).ok()?;
    let n = props
        .get("default_generation_settings")?
        .get("n_ctx")?
        .as_u64()?;
    u32::try_from(n).ok().filter(|&n| n > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tokens a prompt of `bytes` takes at the assumed rate.
    fn tokens(bytes: usize) -> usize {
        bytes * BYTES_PER_TOKEN.1 / BYTES_PER_TOKEN.0
    }

    #[test]
    fn the_window_is_read_from_llama_cpps_props() {
        assert_eq!(
            props_url("http://127.0.0.1:8089/v1/chat/completions"),
            "http://127.0.0.1:8089/props"
        );
        assert_eq!(
            props_url("https://h/x/chat/completions"),
            "https://h/x/props"
        );
        // As llama.cpp's server (xllamacpp 0.2) answers, abridged.
        let body =
            br#"{"default_generation_settings": {"n_ctx": 8192, "params": {}}, "total_slots": 1}"#;
        assert_eq!(context_from_props(body), Some(8192));
        for body in [
            &br#"{"n_ctx": 8192}"#[..],
            b"<html>",
            br#"{"default_generation_settings": {"n_ctx": 0}}"#,
        ] {
            assert_eq!(context_from_props(body), None);
        }
    }

    #[test]
    fn texts_that_fit_are_not_cut() {
        assert_eq!(
            candidate_cap(8192, Some(1024), 2_000, &[3_000, 4_000]),
            None
        );
    }

    #[test]
    fn the_issues_prompt_is_cut_to_fit_an_8k_server() {
        // rounds=2, candidates=5 over long Greek articles: 28,173 tokens
        // at the server, about 60 kB of article text.
        let lengths = [30_000, 12_000, 9_000, 6_000, 800];
        let fixed = 1_500;
        let cap = candidate_cap(8192, Some(1024), fixed, &lengths).unwrap();
        let shown: usize = lengths.iter().map(|&l| l.min(cap)).sum();
        let room = 8192 - 1024 - TEMPLATE_TOKENS as usize;
        assert!(tokens(fixed + shown) <= room, "cap {cap}");
        // The short article stays whole, and the room is used, not wasted.
        assert!(cap > 800, "cap {cap}");
        assert!(tokens(fixed + shown + lengths.len()) >= room, "cap {cap}");
    }

    #[test]
    fn a_crowded_prompt_still_shows_each_candidates_opening() {
        let cap = candidate_cap(1024, Some(1024), 500, &[5_000; 10]).unwrap();
        assert_eq!(cap, MIN_CANDIDATE_BYTES);
    }

    #[test]
    fn cuts_fall_on_character_boundaries_and_count_the_ellipsis() {
        let greek = "Ελευθερία του τύπου";
        for cap in 4..greek.len() {
            let cut = cut_to_bytes(greek, cap);
            assert!(cut.len() <= cap, "{cap}: {cut}");
            assert!(cut.ends_with('…'));
        }
        assert_eq!(cut_to_bytes(greek, greek.len()), greek);
    }
}
