//! SentencePiece's Unigram model: a word is split into the vocabulary
//! pieces whose log-probabilities sum highest (Viterbi over every piece
//! that starts at each character). A character no piece starts with becomes
//! `<unk>`, scored 10 below the lowest piece; neighbouring `<unk>`s fuse
//! into one token. Ties and float sums follow the `tokenizers` crate
//! exactly (same order of additions, first path kept on equal scores), so
//! the ids are the reference's.

use crate::embed::EmbedError;

const NO_PIECE: u32 = u32::MAX;
/// SentencePiece's penalty for an unknown character, below the lowest score.
const UNK_PENALTY: f64 = 10.0;

#[derive(Clone)]
pub(super) struct Unigram {
    trie: PieceTrie,
    scores: Vec<f64>,
    unk_id: u32,
    unk_score: f64,
}

/// A summary: the vocabulary is too long to print.
impl std::fmt::Debug for Unigram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Unigram")
            .field("pieces", &self.len())
            .field("unk_id", &self.unk_id)
            .finish_non_exhaustive()
    }
}

impl Unigram {
    /// `vocab` in id order. Pieces must be distinct and non-empty.
    pub(super) fn new(vocab: &[(String, f64)], unk_id: usize) -> Result<Unigram, EmbedError> {
        if unk_id >= vocab.len() {
            return Err(EmbedError::Tokenizer(format!(
                "unk_id {unk_id} is outside the vocabulary of {}",
                vocab.len()
            )));
        }
        let trie = PieceTrie::new(vocab.iter().map(|(piece, _)| piece.as_bytes()))?;
        let scores: Vec<f64> = vocab.iter().map(|&(_, score)| score).collect();
        let min_score = scores.iter().copied().fold(f64::INFINITY, f64::min);
        Ok(Unigram {
            trie,
            scores,
            unk_id: unk_id as u32,
            unk_score: min_score - UNK_PENALTY,
        })
    }

    pub(super) fn len(&self) -> usize {
        self.scores.len()
    }

    /// The id of exactly this piece.
    pub(super) fn piece_id(&self, piece: &str) -> Option<u32> {
        self.trie.get(piece.as_bytes())
    }

    /// Appends the ids of `word` (one pre-tokenized word) to `out`.
    pub(super) fn encode(&self, word: &str, out: &mut Vec<u32>) {
        let bytes = word.as_bytes();
        let mut best = vec![
            Best {
                score: 0.0,
                start: usize::MAX,
                id: NO_PIECE,
            };
            bytes.len() + 1
        ];
        let mut start = 0;
        while start < bytes.len() {
            let char_len = utf8_len(bytes[start]);
            let base = best[start].score;
            let mut covers_char = false;
            let mut offer = |end: usize, id: u32, score: f64| {
                let candidate = score + base;
                let slot = &mut best[end];
                if slot.start == usize::MAX || candidate > slot.score {
                    *slot = Best {
                        score: candidate,
                        start,
                        id,
                    };
                }
            };
            for (len, id) in self.trie.prefixes(&bytes[start..]) {
                offer(start + len, id, self.scores[id as usize]);
                covers_char |= len == char_len;
            }
            if !covers_char {
                offer(start + char_len, self.unk_id, self.unk_score);
            }
            start += char_len;
        }

        let first = out.len();
        let mut end = bytes.len();
        let mut unk_run_end = None;
        while end > 0 {
            let last = &best[end];
            if last.id == self.unk_id {
                unk_run_end.get_or_insert(end);
            } else {
                if let Some(run_end) = unk_run_end.take() {
                    out.push(self.fused_unk(&bytes[end..run_end]));
                }
                out.push(last.id);
            }
            end = last.start;
        }
        if let Some(run_end) = unk_run_end {
            out.push(self.fused_unk(&bytes[..run_end]));
        }
        out[first..].reverse();
    }

    /// A run of `<unk>` steps is one token: the piece it spells if there is
    /// one (as the crate looks the run's text up), else `<unk>`.
    fn fused_unk(&self, text: &[u8]) -> u32 {
        self.trie.get(text).unwrap_or(self.unk_id)
    }
}

/// The best path found so far to a position: its score and last piece.
#[derive(Debug, Clone, Copy)]
struct Best {
    score: f64,
    start: usize,
    id: u32,
}

/// Byte length of the UTF-8 sequence a lead byte starts.
fn utf8_len(lead: u8) -> usize {
    match lead {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

/// A byte trie over the pieces, stored breadth-first so that each node's
/// children are contiguous and sorted by byte: node `n`'s children are
/// `first_child[n]..first_child[n + 1]`.
#[derive(Clone)]
struct PieceTrie {
    labels: Vec<u8>,
    first_child: Vec<u32>,
    piece: Vec<u32>,
}

impl PieceTrie {
    fn new<'a>(pieces: impl Iterator<Item = &'a [u8]>) -> Result<PieceTrie, EmbedError> {
        let mut sorted: Vec<(&[u8], u32)> = pieces.zip(0u32..).collect();
        sorted.sort_unstable();
        for pair in sorted.windows(2) {
            if pair[0].0 == pair[1].0 {
                let piece = String::from_utf8_lossy(pair[0].0);
                return Err(EmbedError::Tokenizer(format!(
                    "piece {piece:?} occurs twice"
                )));
            }
        }
        if sorted.first().is_some_and(|(p, _)| p.is_empty()) {
            return Err(EmbedError::Tokenizer(
                "empty piece in the vocabulary".into(),
            ));
        }
        let mut trie = PieceTrie {
            labels: vec![0],
            first_child: Vec::new(),
            piece: vec![NO_PIECE],
        };
        // Breadth-first: (range of `sorted` under the node, its depth).
        let mut queue = std::collections::VecDeque::from([(0..sorted.len(), 0usize)]);
        while let Some((range, depth)) = queue.pop_front() {
            trie.first_child.push(trie.labels.len() as u32);
            let mut i = range.start;
            while i < range.end {
                let (piece, id) = sorted[i];
                let label = piece[depth];
                let mut j = i;
                while j < range.end && sorted[j].0[depth] == label {
                    j += 1;
                }
                // The shortest of a group sorts first: the child's own piece.
                let own = if piece.len() == depth + 1 {
                    id
                } else {
                    NO_PIECE
                };
                let below = if own == NO_PIECE { i } else { i + 1 };
                trie.labels.push(label);
                trie.piece.push(own);
                queue.push_back((below..j, depth + 1));
                i = j;
            }
        }
        trie.first_child.push(trie.labels.len() as u32);
        Ok(trie)
    }

    fn child(&self, node: usize, byte: u8) -> Option<usize> {
        let (lo, hi) = (
            self.first_child[node] as usize,
            self.first_child[node + 1] as usize,
        );
        let at = self.labels[lo..hi].binary_search(&byte).ok()?;
        Some(lo + at)
    }

    fn get(&self, key: &[u8]) -> Option<u32> {
        let mut node = 0;
        for &byte in key {
            node = self.child(node, byte)?;
        }
        (self.piece[node] != NO_PIECE).then_some(self.piece[node])
    }

    /// `(length, id)` of every piece that prefixes `text`, shortest first.
    fn prefixes<'a>(&'a self, text: &'a [u8]) -> impl Iterator<Item = (usize, u32)> + 'a {
        let mut node = 0;
        text.iter()
            .map_while(move |&byte| {
                node = self.child(node, byte)?;
                Some(self.piece[node])
            })
            .enumerate()
            .filter(|&(_, id)| id != NO_PIECE)
            .map(|(i, id)| (i + 1, id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(pieces: &[(&str, f64)]) -> Unigram {
        let vocab: Vec<(String, f64)> = pieces.iter().map(|&(p, s)| (p.to_owned(), s)).collect();
        Unigram::new(&vocab, 0).unwrap()
    }

    fn ids(m: &Unigram, word: &str) -> Vec<u32> {
        let mut out = Vec::new();
        m.encode(word, &mut out);
        out
    }

    #[test]
    fn trie_finds_pieces_and_prefixes() {
        let m = model(&[
            ("<unk>", 0.0),
            ("ab", -1.0),
            ("a", -1.0),
            ("abc", -1.0),
            ("b", -2.0),
        ]);
        assert_eq!(m.piece_id("ab"), Some(1));
        assert_eq!(m.piece_id("abcd"), None);
        assert_eq!(m.piece_id(""), None);
        let found: Vec<_> = m.trie.prefixes(b"abcd").collect();
        assert_eq!(found, vec![(1, 2), (2, 1), (3, 3)]);
    }

    #[test]
    fn viterbi_prefers_the_highest_total_and_keeps_the_first_tie() {
        let m = model(&[
            ("<unk>", 0.0),
            ("ab", -3.0),
            ("a", -1.0),
            ("b", -1.0),
            ("c", -1.0),
        ]);
        assert_eq!(ids(&m, "ab"), vec![2, 3]);
        let tie = model(&[("<unk>", 0.0), ("ab", -2.0), ("a", -1.0), ("b", -1.0)]);
        // Both paths score -2: "ab" is offered first (from position 0) and
        // "b" (from 1) does not replace it with an equal score.
        assert_eq!(ids(&tie, "ab"), vec![1]);
    }

    #[test]
    fn unknown_characters_fuse_into_one_unk() {
        let m = model(&[("<unk>", 0.0), ("a", -1.0)]);
        assert_eq!(ids(&m, "aΩΨa"), vec![1, 0, 1]);
        assert_eq!(ids(&m, "ΩΨ"), vec![0]);
    }

    #[test]
    fn duplicate_or_empty_pieces_are_errors() {
        let vocab = |p: &[&str]| p.iter().map(|&p| (p.to_owned(), 0.0)).collect::<Vec<_>>();
        assert!(Unigram::new(&vocab(&["<unk>", "a", "a"]), 0).is_err());
        assert!(Unigram::new(&vocab(&["<unk>", ""]), 0).is_err());
        assert!(Unigram::new(&vocab(&["<unk>"]), 1).is_err());
    }
}
