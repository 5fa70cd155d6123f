//! How many bytes one read may bring. Every download and every file the
//! user picks is read under a [`Limit`]: the size a manifest or meta
//! lists for the file, or else a cap for its kind. A read is stopped at
//! the first chunk past the limit, so a hostile or mistaken answer costs
//! at most the limit (and one chunk) of memory, never its whole size.

use std::fmt;

/// The most a file of one kind may be when nothing lists its size (the
/// app's caps are in `size_caps`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cap {
    /// What such a file is, for messages ("transcript").
    pub kind: &'static str,
    pub bytes: u64,
}

/// The most bytes one read may bring.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// A manifest or meta lists the file's size: more is refused.
    Listed(u64),
    /// Nothing lists it: the cap of its kind.
    Cap(Cap),
}

impl Limit {
    pub fn bytes(&self) -> u64 {
        match self {
            Limit::Listed(n) => *n,
            Limit::Cap(cap) => cap.bytes,
        }
    }

    /// The size to report progress against: a listed size, else the
    /// server's (`Content-Length`), if any.
    pub fn total(&self, announced: Option<u64>) -> Option<u64> {
        match self {
            Limit::Listed(n) => Some(*n),
            Limit::Cap(_) => announced,
        }
    }

    /// Refuses `name` when `bytes` of it (all of it when `whole`, else
    /// what came so far) are past the limit.
    pub fn check(&self, name: &str, bytes: u64, whole: bool) -> Result<(), TooLarge> {
        match bytes > self.bytes() {
            true => Err(TooLarge {
                name: name.to_owned(),
                bytes,
                whole,
                limit: *self,
            }),
            false => Ok(()),
        }
    }
}

/// A file refused for its size, before it was read whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooLarge {
    /// Its URL or file name.
    pub name: String,
    /// Its size when `whole`, else how much came before the read stopped.
    pub bytes: u64,
    pub whole: bool,
    pub limit: Limit,
}

impl fmt::Display for TooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let TooLarge {
            name,
            bytes,
            whole,
            limit,
        } = self;
        let size = match whole {
            true => format!("{bytes} bytes"),
            false => format!("more than {bytes} bytes"),
        };
        match limit {
            Limit::Listed(n) => write!(
                f,
                "{name} is refused: it is {size}, and its listing says {n} bytes; the site \
                 is inconsistent or the answer is not the file"
            ),
            Limit::Cap(cap) => write!(
                f,
                "{name} is refused: it is {size}, and the app reads a {} of at most {} bytes",
                cap.kind, cap.bytes
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CAP: Cap = Cap {
        kind: "transcript",
        bytes: 100,
    };

    #[test]
    fn a_listed_size_is_the_most_a_read_may_bring() {
        let limit = Limit::Listed(10);
        assert_eq!(limit.check("meta", 10, true), Ok(()));
        let refused = limit.check("meta", 11, false).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "meta is refused: it is more than 11 bytes, and its listing says 10 bytes; the \
             site is inconsistent or the answer is not the file"
        );
        assert_eq!(limit.total(Some(99)), Some(10));
    }

    #[test]
    fn without_a_listing_the_kinds_cap_applies() {
        let limit = Limit::Cap(CAP);
        assert_eq!(limit.check("t.jsonl", 100, false), Ok(()));
        let refused = limit.check("models/m.gguf", 98_362_432, true).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "models/m.gguf is refused: it is 98362432 bytes, and the app reads a transcript \
             of at most 100 bytes"
        );
        assert_eq!(limit.total(Some(99)), Some(99));
        assert_eq!(limit.total(None), None);
    }
}
