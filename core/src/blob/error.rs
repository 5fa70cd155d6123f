use std::fmt;

use crate::index::IndexError;

/// Why a blob could not be written or loaded. Every variant names what was
/// wrong, so a user holding a damaged or outdated file knows what to do.
#[derive(Debug, Clone, PartialEq)]
pub enum BlobError {
    /// The file does not start with the blob magic: not a Nomos index.
    NotABlob,
    /// A blob of another format version; it must be rebuilt.
    UnsupportedVersion {
        /// The blob's version.
        found: u32,
        /// The version this build reads.
        supported: u32,
    },
    /// Fewer (or more) bytes than the blob's own length field says.
    WrongLength {
        /// The length field's value.
        expected: u64,
        /// The bytes there are.
        found: u64,
    },
    /// The xxh3 checksum over the file does not match: the bytes changed.
    ChecksumMismatch {
        /// The checksum in the file.
        stored: u64,
        /// The checksum of its bytes.
        computed: u64,
    },
    /// The section table is malformed (overlaps, misalignment, bad sizes).
    SectionTable(String),
    /// A section the reader requires is absent.
    MissingSection(&'static str),
    /// A section's archive failed rkyv's byte-level validation.
    Archive {
        /// The section's name.
        section: &'static str,
        /// rkyv's complaint.
        message: String,
    },
    /// A section is well-formed but inconsistent with the rest of the blob.
    Invalid {
        /// The section's name.
        section: &'static str,
        /// What does not fit.
        message: String,
    },
    /// A lexical field's postings failed the index's own checks.
    Index {
        /// The field's name.
        field: &'static str,
        /// The index's complaint.
        error: IndexError,
    },
    /// The input handed to the encoder breaks a blob invariant.
    Input(String),
    /// A sibling file (the text or vectors moved out of a light blob) is
    /// not attached, damaged, or belongs to another blob.
    Sibling {
        /// What it holds (`text`, `vectors`).
        kind: &'static str,
        /// Its file name, as the blob lists it.
        file: String,
        /// What is wrong, as the end of a sentence.
        message: String,
    },
}

impl BlobError {
    pub(crate) fn invalid(section: &'static str, message: impl fmt::Display) -> Self {
        BlobError::Invalid {
            section,
            message: message.to_string(),
        }
    }
}

impl fmt::Display for BlobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BlobError::NotABlob => f.write_str("not a Nomos index blob (bad magic bytes)"),
            BlobError::UnsupportedVersion { found, supported } => write!(
                f,
                "blob format version {found} is not supported (this build reads version \
                 {supported}); rebuild the blob with `nomos build`"
            ),
            BlobError::WrongLength { expected, found } => write!(
                f,
                "blob is {found} bytes but its header says {expected}: the file is \
                 truncated or has trailing data"
            ),
            BlobError::ChecksumMismatch { stored, computed } => write!(
                f,
                "blob checksum mismatch (stored {stored:016x}, computed {computed:016x}): \
                 the file is corrupted"
            ),
            BlobError::SectionTable(msg) => write!(f, "malformed blob section table: {msg}"),
            BlobError::MissingSection(name) => write!(f, "blob has no `{name}` section"),
            BlobError::Archive { section, message } => {
                write!(f, "blob section `{section}` is malformed: {message}")
            }
            BlobError::Invalid { section, message } => {
                write!(f, "blob section `{section}` is inconsistent: {message}")
            }
            BlobError::Index { field, error } => {
                write!(f, "blob lexical field `{field}` is inconsistent: {error}")
            }
            BlobError::Input(msg) => write!(f, "cannot build blob: {msg}"),
            BlobError::Sibling {
                kind,
                file,
                message,
            } => write!(f, "the pool's {kind} file `{file}` {message}"),
        }
    }
}

impl std::error::Error for BlobError {}
