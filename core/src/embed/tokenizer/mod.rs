//! Our runner of the shipped `tokenizer.json`, producing the ids the
//! HuggingFace `tokenizers` crate does (the reference; see
//! `core/tests/embed_tokenizer.rs`) in a fraction of its wasm size.
//!
//! Encoding a text, in the reference's order:
//! 1. special tokens (`<s>`, `</s>`, …) written literally in the text are
//!    cut out and become their ids;
//! 2. each stretch between them is normalised ([`normalize`]: the listed
//!    replacements and SentencePiece's nmt_nfkc charsmap) and dropped if
//!    nothing is left;
//! 3. Metaspace: spaces become `▁`, a `▁` is prefixed, and the stretch is
//!    cut into words before each `▁`;
//! 4. each word is split into pieces by the Unigram model ([`unigram`]).

mod charsmap;
mod json;
mod normalize;
mod unigram;

use normalize::Step;
use unigram::Unigram;

use super::EmbedError;

#[derive(Debug, Clone)]
pub(super) struct Tokenizer {
    /// Special tokens matched in the raw text, with their ids.
    added: Vec<(String, u32)>,
    steps: Vec<Step>,
    metaspace: char,
    model: Unigram,
}

impl Tokenizer {
    pub(super) fn from_json(bytes: &[u8]) -> Result<Tokenizer, EmbedError> {
        let config = json::parse(bytes)?;
        let model = Unigram::new(&config.vocab, config.unk_id)?;
        // Each special token is also a piece, so ids mean one thing.
        for (content, id) in &config.added {
            if model.piece_id(content) != Some(*id) {
                return Err(EmbedError::Tokenizer(format!(
                    "added token {content:?} is not piece {id} of the vocabulary"
                )));
            }
        }
        Ok(Tokenizer {
            added: config.added,
            steps: config.steps,
            metaspace: config.metaspace,
            model,
        })
    }

    pub(super) fn token_to_id(&self, token: &str) -> Option<u32> {
        self.model.piece_id(token)
    }

    pub(super) fn vocab_size(&self) -> usize {
        self.model.len()
    }

    /// The ids of `text`, without `<s>` / `</s>` around them.
    pub(super) fn encode(&self, text: &str) -> Vec<u32> {
        let mut ids = Vec::new();
        let mut stretch_start = 0;
        let mut at = 0;
        while at < text.len() {
            match self.special_at(&text[at..]) {
                Some((len, id)) => {
                    self.encode_stretch(&text[stretch_start..at], &mut ids);
                    ids.push(id);
                    at += len;
                    stretch_start = at;
                }
                None => at += text[at..].chars().next().map_or(1, char::len_utf8),
            }
        }
        self.encode_stretch(&text[stretch_start..], &mut ids);
        ids
    }

    /// The longest special token `text` starts with: `(byte length, id)`.
    fn special_at(&self, text: &str) -> Option<(usize, u32)> {
        self.added
            .iter()
            .filter(|(content, _)| text.starts_with(content.as_str()))
            .map(|(content, id)| (content.len(), *id))
            .max_by_key(|&(len, _)| len)
    }

    fn encode_stretch(&self, stretch: &str, ids: &mut Vec<u32>) {
        if stretch.is_empty() {
            return;
        }
        let normalized = normalize::normalize(&self.steps, stretch);
        if normalized.is_empty() {
            return;
        }
        let mut spaced = String::with_capacity(normalized.len() + 3);
        if !normalized.starts_with([' ', self.metaspace]) {
            spaced.push(self.metaspace);
        }
        spaced.extend(
            normalized
                .chars()
                .map(|c| if c == ' ' { self.metaspace } else { c }),
        );
        let mut word_start = 0;
        for (i, c) in spaced.char_indices() {
            if c == self.metaspace && i > word_start {
                self.model.encode(&spaced[word_start..i], ids);
                word_start = i;
            }
        }
        self.model.encode(&spaced[word_start..], ids);
    }
}
