//! SentencePiece's precompiled normalisation map (`precompiled_charsmap`):
//! a darts-clone double-array trie over UTF-8 byte strings whose leaves
//! point into a blob of NUL-terminated replacement strings.
//!
//! Layout: `u32` (little-endian) byte length of the trie, the trie's
//! `u32` units, then the replacement blob. Lookups follow the `tokenizers`
//! crate (what produced our reference ids), which takes the *shortest* key
//! that prefixes the input, not sentencepiece's longest.

use crate::embed::EmbedError;

/// A decoded charsmap.
#[derive(Clone)]
pub(super) struct Charsmap {
    units: Vec<u32>,
    replacements: String,
}

/// A summary: the tables are too long to print.
impl std::fmt::Debug for Charsmap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Charsmap")
            .field("trie_units", &self.units.len())
            .field("replacement_bytes", &self.replacements.len())
            .finish()
    }
}

impl Charsmap {
    /// Decodes the base64 text of tokenizer.json's `precompiled_charsmap`.
    pub(super) fn from_base64(text: &str) -> Result<Charsmap, EmbedError> {
        let bytes = decode_base64(text)?;
        let bad = |what: &str| EmbedError::Tokenizer(format!("precompiled_charsmap: {what}"));
        let (head, rest) = bytes
            .split_first_chunk::<4>()
            .ok_or_else(|| bad("too short"))?;
        let trie_len = u32::from_le_bytes(*head) as usize;
        if !trie_len.is_multiple_of(4) || trie_len == 0 || trie_len > rest.len() {
            return Err(bad("bad trie length"));
        }
        let (trie, blob) = rest.split_at(trie_len);
        let units = trie
            .chunks_exact(4)
            .map(|u| u32::from_le_bytes([u[0], u[1], u[2], u[3]]))
            .collect();
        let replacements =
            String::from_utf8(blob.to_vec()).map_err(|_| bad("replacements are not UTF-8"))?;
        Ok(Charsmap {
            units,
            replacements,
        })
    }

    /// The replacement for the shortest key that prefixes `key`, if any.
    /// A NUL byte ends the key, as in darts-clone. An empty replacement
    /// means "delete".
    pub(super) fn lookup(&self, key: &[u8]) -> Option<&str> {
        let mut pos = offset(*self.units.first()?);
        for &byte in key {
            if byte == 0 {
                return None;
            }
            pos ^= usize::from(byte);
            let unit = *self.units.get(pos)?;
            if unit & (1 << 31 | 0xFF) != u32::from(byte) {
                return None;
            }
            pos ^= offset(unit);
            if unit & (1 << 8) != 0 {
                let start = (*self.units.get(pos)? & 0x7FFF_FFFF) as usize;
                let tail = self.replacements.get(start..)?;
                return Some(tail.split('\0').next().unwrap_or(tail));
            }
        }
        None
    }
}

/// Where a unit's children start, relative to its own position.
fn offset(unit: u32) -> usize {
    ((unit >> 10) << ((unit & (1 << 9)) >> 6)) as usize
}

/// Standard base64 with `=` padding, as Python's `b64encode` writes it.
fn decode_base64(text: &str) -> Result<Vec<u8>, EmbedError> {
    let bad = || EmbedError::Tokenizer("precompiled_charsmap is not base64".into());
    let digits = text.trim_end_matches('=').as_bytes();
    if !text.len().is_multiple_of(4) || text.len() - digits.len() > 2 {
        return Err(bad());
    }
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for &c in digits {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return Err(bad()),
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips_python_output() {
        // base64.b64encode(b"nomos\x00\xff") == b"bm9tb3MA/w=="
        assert_eq!(decode_base64("bm9tb3MA/w==").unwrap(), b"nomos\x00\xff");
        assert_eq!(decode_base64("").unwrap(), b"");
        assert!(decode_base64("bm9tb3MA/w=").is_err());
        assert!(decode_base64("bm9t*3MA").is_err());
    }

    #[test]
    fn malformed_maps_are_errors() {
        assert!(Charsmap::from_base64("AAA=").is_err()); // no length
        assert!(Charsmap::from_base64("AAAAAA==").is_err()); // empty trie
        assert!(Charsmap::from_base64("CAAAAAAAAA==").is_err()); // trie past the end
    }
}
