use std::fmt;

/// Why dense vectors or a query embedding were refused.
#[derive(Debug, Clone, PartialEq)]
pub enum DenseError {
    /// Vectors must have at least one dimension.
    ZeroDimension,
    /// A count does not fit the `u32` the blob stores it in.
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
    /// A NaN or infinite value (`what` = vector, scale, mean or query).
    NonFinite {
        /// Where: vector, scale, mean or query.
        what: &'static str,
        /// The value's position.
        at: usize,
    },
    /// A negative scale (scales are `max |x| / 127`).
    NegativeScale {
        /// The document.
        doc: usize,
    },
    /// An int8 code of −128: codes are symmetric, in −127..=127.
    CodeOutOfRange {
        /// The document.
        doc: usize,
    },
    /// Bits set beyond the dimension in a document's last binary word.
    StrayBits {
        /// The document.
        doc: usize,
    },
    /// The per-document runs of vectors do not start at 0, end at the
    /// number of vectors, or give every document at least one; or their
    /// window starts are not one per vector, from 0, rising per document.
    BadPassages {
        /// The first document whose run is wrong.
        doc: usize,
    },
    /// Inverted lists (see [`super::Ivf`]) that do not fit the vectors.
    BadLists(String),
}

impl fmt::Display for DenseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DenseError::ZeroDimension => f.write_str("dense vectors need at least one dimension"),
            DenseError::TooLarge { what } => write!(f, "too many {what} for a u32"),
            DenseError::LengthMismatch {
                what,
                expected,
                found,
            } => write!(f, "{what}: {found} values, expected {expected}"),
            DenseError::NonFinite { what, at } => {
                write!(f, "{what} value {at} is not finite")
            }
            DenseError::NegativeScale { doc } => write!(f, "document {doc} has a negative scale"),
            DenseError::CodeOutOfRange { doc } => {
                write!(f, "document {doc} has an int8 code of -128")
            }
            DenseError::BadPassages { doc } => write!(
                f,
                "document {doc}'s vectors: passage offsets must run from 0 to the number of \
                 vectors, at least one vector per document, with one window start per \
                 vector rising from 0 within each document"
            ),
            DenseError::BadLists(problem) => write!(f, "inverted lists: {problem}"),
            DenseError::StrayBits { doc } => {
                write!(
                    f,
                    "document {doc} has binary code bits beyond the dimension"
                )
            }
        }
    }
}

impl std::error::Error for DenseError {}
