use std::fmt;

use super::varint::VarintError;

/// Why an index could not be built or rebuilt from raw parts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IndexError {
    /// A count (documents, terms, tokens in a document, posting bytes) does
    /// not fit the `u32` the layout stores it in.
    TooLarge {
        /// What is counted.
        what: &'static str,
    },
    /// Two parts that must have matching lengths do not.
    LengthMismatch {
        /// The part whose length is wrong.
        what: &'static str,
        /// The length it must have.
        expected: usize,
        /// The length it has.
        found: usize,
    },
    /// The same term string appears twice in the vocabulary.
    DuplicateTerm {
        /// The second occurrence's id.
        term: u32,
    },
    /// Term offsets do not start at 0, decrease, or do not end at the end of
    /// the posting bytes.
    BadOffsets {
        /// The first term whose offset is wrong.
        term: u32,
    },
    /// A term's posting list is malformed.
    Postings {
        /// The term.
        term: u32,
        /// What is wrong.
        problem: PostingsProblem,
    },
    /// A document's length differs from the sum of its term frequencies.
    DocLenMismatch {
        /// The document.
        doc: u32,
        /// Its stored length.
        stored: u32,
        /// Its term frequencies' sum.
        summed: u64,
    },
}

/// What is wrong with one posting list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PostingsProblem {
    /// A varint runs past the end of the term's bytes.
    Truncated,
    /// A varint encodes a value above `u32::MAX`.
    VarintOverflow,
    /// A document id is not below the number of documents.
    DocOutOfRange {
        /// The id decoded.
        doc: u64,
    },
    /// Document ids do not strictly increase.
    NonIncreasing,
    /// A term frequency of zero.
    ZeroTf,
    /// The stored document frequency is zero or differs from the number of
    /// postings.
    DocFreqMismatch {
        /// The stored frequency.
        stored: u32,
        /// The postings decoded.
        decoded: u32,
    },
}

impl From<VarintError> for PostingsProblem {
    fn from(e: VarintError) -> Self {
        match e {
            VarintError::Truncated => PostingsProblem::Truncated,
            VarintError::Overflow => PostingsProblem::VarintOverflow,
        }
    }
}

impl fmt::Display for IndexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IndexError::TooLarge { what } => write!(f, "too many {what} for a u32"),
            IndexError::LengthMismatch {
                what,
                expected,
                found,
            } => write!(f, "{what}: expected length {expected}, found {found}"),
            IndexError::DuplicateTerm { term } => write!(f, "term {term} occurs twice"),
            IndexError::BadOffsets { term } => write!(f, "bad posting offsets at term {term}"),
            IndexError::Postings { term, problem } => {
                write!(f, "postings of term {term}: {problem}")
            }
            IndexError::DocLenMismatch {
                doc,
                stored,
                summed,
            } => write!(
                f,
                "document {doc}: stored length {stored}, term frequencies sum to {summed}"
            ),
        }
    }
}

impl fmt::Display for PostingsProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PostingsProblem::Truncated => f.write_str("truncated varint"),
            PostingsProblem::VarintOverflow => f.write_str("varint overflows u32"),
            PostingsProblem::DocOutOfRange { doc } => write!(f, "document id {doc} out of range"),
            PostingsProblem::NonIncreasing => f.write_str("document ids not increasing"),
            PostingsProblem::ZeroTf => f.write_str("zero term frequency"),
            PostingsProblem::DocFreqMismatch { stored, decoded } => write!(
                f,
                "document frequency {stored} but {decoded} postings decoded"
            ),
        }
    }
}

impl std::error::Error for IndexError {}
