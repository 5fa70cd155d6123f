//! Taking in a blob's bytes, downloaded or read from disk, within the
//! app's size cap. The size known before the first byte (the file's, the
//! manifest's or the `Content-Length`) and the length the blob's own
//! prefix declares are checked against [`MAX_BLOB_BYTES`], and the first
//! bytes against the blob format (magic and version), before the rest is
//! read: a file of another kind, version or size is refused without being
//! read whole. Memory is reserved with `try_reserve`, so a size the browser
//! cannot give is an error, not an abort.

use std::fmt;

use nomos_core::blob::{Blob, BlobError};

use crate::format::megabytes;

/// The largest blob the app opens: 250 MB. A pool's monolithic blob takes
/// about 700 bytes an article with vectors (the Danish acts: 2.8 MB for
/// 11,192 without), so 10⁵ articles fit with room to spare; larger pools
/// are meant to come in fragments, each a blob of its own. Loading needs
/// about twice the blob's size in the page's WebAssembly memory at its
/// peak (at most 4 GiB), and no browser tab should be asked for more than
/// a few hundred MB.
pub const MAX_BLOB_BYTES: u64 = 250_000_000;

/// Why a blob's bytes were refused before they were all read.
#[derive(Debug, Clone, PartialEq)]
pub enum IntakeError {
    /// Nothing to read.
    Empty,
    /// More than [`MAX_BLOB_BYTES`]: announced, declared by the blob's
    /// prefix, or received.
    TooLarge { bytes: u64 },
    /// The browser would not give the app this much memory.
    OutOfMemory { bytes: u64 },
    /// The first bytes are not a blob this build reads.
    Blob(BlobError),
}

impl fmt::Display for IntakeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IntakeError::Empty => f.write_str("the file is empty"),
            IntakeError::TooLarge { bytes } => write!(
                f,
                "it is {}; the app opens blobs of at most {}",
                megabytes(*bytes),
                megabytes(MAX_BLOB_BYTES)
            ),
            IntakeError::OutOfMemory { bytes } => write!(
                f,
                "the browser could not give the app {} of memory for it",
                megabytes(*bytes)
            ),
            IntakeError::Blob(e) => e.fmt(f),
        }
    }
}

/// A blob's bytes as they arrive.
#[derive(Debug, Default)]
pub struct BlobIntake {
    bytes: Vec<u8>,
    /// The blob's prefix has been read and checked.
    prefix_checked: bool,
}

impl BlobIntake {
    /// The size known before the first byte: refused when empty or over
    /// the cap. Nothing is reserved for it (it may be a compressed size,
    /// or wrong); the blob's own prefix says how much to reserve.
    pub fn announce(&mut self, bytes: u64) -> Result<(), IntakeError> {
        match bytes {
            0 => Err(IntakeError::Empty),
            n if n > MAX_BLOB_BYTES => Err(IntakeError::TooLarge { bytes: n }),
            _ => Ok(()),
        }
    }

    /// The next bytes. Until the blob's prefix is complete, its magic and
    /// version are checked as far as they go; then the length it declares
    /// must be within the cap, and is reserved at once.
    pub fn take(&mut self, chunk: &[u8]) -> Result<(), IntakeError> {
        let total = self.bytes.len() as u64 + chunk.len() as u64;
        if total > MAX_BLOB_BYTES {
            return Err(IntakeError::TooLarge { bytes: total });
        }
        if !self.prefix_checked {
            let start = self.bytes.len();
            let mut head = self.bytes.clone();
            head.extend_from_slice(&chunk[..chunk.len().min(PREFIX_BYTES.saturating_sub(start))]);
            if let Some(declared) = Blob::declared_len(&head).map_err(IntakeError::Blob)? {
                self.prefix_checked = true;
                if declared > MAX_BLOB_BYTES {
                    return Err(IntakeError::TooLarge { bytes: declared });
                }
                let more = (declared as usize).saturating_sub(start);
                self.bytes
                    .try_reserve_exact(more)
                    .map_err(|_| IntakeError::OutOfMemory { bytes: declared })?;
            }
        }
        self.bytes
            .try_reserve(chunk.len())
            .map_err(|_| IntakeError::OutOfMemory { bytes: total })?;
        self.bytes.extend_from_slice(chunk);
        Ok(())
    }

    /// All the bytes, for [`Blob::load`] to check in full.
    pub fn finish(self) -> Result<Vec<u8>, IntakeError> {
        match self.bytes.is_empty() {
            true => Err(IntakeError::Empty),
            false => Ok(self.bytes),
        }
    }
}

/// How many first bytes declare a blob's length (its frame's prefix).
const PREFIX_BYTES: usize = 32;

#[cfg(test)]
mod tests {
    use super::*;

    use nomos_core::blob::{FORMAT_VERSION, MAGIC};

    /// The 32-byte prefix of a blob of `version` declaring `len` bytes.
    fn prefix(version: u32, len: u64) -> Vec<u8> {
        let mut p = MAGIC.to_vec();
        p.extend_from_slice(&version.to_le_bytes());
        p.extend_from_slice(&[0; 12]);
        p.extend_from_slice(&len.to_le_bytes());
        p
    }

    #[test]
    fn empty_and_oversized_files_are_refused_before_reading() {
        let mut intake = BlobIntake::default();
        assert_eq!(intake.announce(0), Err(IntakeError::Empty));
        assert_eq!(
            intake.announce(2 << 30),
            Err(IntakeError::TooLarge { bytes: 2 << 30 })
        );
        assert_eq!(
            IntakeError::TooLarge { bytes: 2 << 30 }.to_string(),
            "it is 2147.5 MB; the app opens blobs of at most 250.0 MB"
        );
        assert_eq!(intake.announce(MAX_BLOB_BYTES), Ok(()));
        assert_eq!(BlobIntake::default().finish(), Err(IntakeError::Empty));
    }

    #[test]
    fn another_version_is_refused_from_its_first_twelve_bytes() {
        let mut intake = BlobIntake::default();
        let other = prefix(FORMAT_VERSION + 1, 1000);
        intake.take(&other[..8]).unwrap();
        let refused = intake.take(&other[8..12]).unwrap_err();
        assert_eq!(
            refused,
            IntakeError::Blob(BlobError::UnsupportedVersion {
                found: FORMAT_VERSION + 1,
                supported: FORMAT_VERSION
            })
        );
        assert!(refused.to_string().contains("rebuild the blob"));
        assert_eq!(
            BlobIntake::default().take(b"PK\x03\x04 a zip file"),
            Err(IntakeError::Blob(BlobError::NotABlob))
        );
    }

    #[test]
    fn a_declared_length_over_the_cap_is_refused_before_it_is_reserved() {
        let mut intake = BlobIntake::default();
        let huge = prefix(FORMAT_VERSION, 1 << 40);
        assert_eq!(
            intake.take(&huge),
            Err(IntakeError::TooLarge { bytes: 1 << 40 })
        );
        assert_eq!(intake.bytes.capacity(), 0);
    }

    #[test]
    fn the_declared_length_is_reserved_once_and_bytes_are_kept_in_order() {
        let mut intake = BlobIntake::default();
        let head = prefix(FORMAT_VERSION, 5000);
        for piece in head.chunks(7) {
            intake.take(piece).unwrap();
        }
        intake.take(&[9; 100]).unwrap();
        assert!(intake.bytes.capacity() >= 5000);
        let bytes = intake.finish().unwrap();
        assert_eq!(bytes[..32], head[..]);
        assert_eq!(bytes.len(), 132);
    }

    #[test]
    fn bytes_past_the_cap_are_refused_as_they_arrive() {
        let mut intake = BlobIntake::default();
        intake
            .take(&prefix(FORMAT_VERSION, MAX_BLOB_BYTES))
            .unwrap();
        let chunk = vec![0; 1 << 20];
        let mut refused = None;
        for _ in 0..(MAX_BLOB_BYTES >> 20) + 1 {
            if let Err(e) = intake.take(&chunk) {
                refused = Some(e);
                break;
            }
        }
        assert!(matches!(refused, Some(IntakeError::TooLarge { bytes }) if bytes > MAX_BLOB_BYTES));
    }
}
