//! The fixed binary frame around the rkyv sections: a 32-byte prefix and a
//! section table, both plain little-endian integers, so that the magic, the
//! version, the length and the checksum are checked before any archive is
//! touched (an old-version blob may not even be valid rkyv for this build).
//!
//! ```text
//! offset  size  field
//!      0     8  magic `NOMOSIDX`
//!      8     4  format version (u32)
//!     12     4  number of sections (u32)
//!     16     8  xxh3-64 of every byte of the file except these 8
//!     24     8  total file length in bytes (u64)
//!     32  24×n  section table: tag [u8; 4], flags u32, offset u64, length u64
//!      …        sections, each starting at a multiple of 16, zero-padded
//! ```
//!
//! Sections are in table order, back to back apart from alignment padding,
//! and the last one ends the file, so every byte is accounted for.

use xxhash_rust::xxh3::Xxh3;

use super::BlobError;

/// The first eight bytes of every blob.
pub const MAGIC: [u8; 8] = *b"NOMOSIDX";
/// The first eight bytes of a blob's sibling file (same frame, another
/// kind of file, so neither is ever taken for the other).
pub const SIBLING_MAGIC: [u8; 8] = *b"NOMOSSIB";
const PREFIX_LEN: usize = 32;
const ENTRY_LEN: usize = 24;
const CHECKSUM_AT: usize = 16;
/// rkyv archives need their root aligned; 16 covers every type we archive.
pub const ALIGN: usize = 16;

/// Section flag: a reader that does not know the tag may skip the section.
/// This is the extension point for later optional data (dense vectors):
/// older readers keep working on newer blobs that only add such sections.
pub const FLAG_OPTIONAL: u32 = 1;

/// One section table entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SectionEntry {
    pub tag: [u8; 4],
    pub flags: u32,
    pub offset: usize,
    pub len: usize,
}

/// Lays sections out after the prefix and table and seals the checksum.
pub fn assemble(version: u32, sections: &[([u8; 4], u32, &[u8])]) -> Result<Vec<u8>, BlobError> {
    assemble_as(MAGIC, version, sections)
}

/// [`assemble`] for a file starting with `magic`.
pub fn assemble_as(
    magic: [u8; 8],
    version: u32,
    sections: &[([u8; 4], u32, &[u8])],
) -> Result<Vec<u8>, BlobError> {
    let count =
        u32::try_from(sections.len()).map_err(|_| BlobError::Input("too many sections".into()))?;
    let mut offset = align_up(PREFIX_LEN + ENTRY_LEN * sections.len());
    let mut table = Vec::with_capacity(ENTRY_LEN * sections.len());
    for &(tag, flags, bytes) in sections {
        table.extend_from_slice(&tag);
        table.extend_from_slice(&flags.to_le_bytes());
        table.extend_from_slice(&(offset as u64).to_le_bytes());
        table.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
        offset = align_up(offset + bytes.len());
    }
    let mut out = Vec::with_capacity(offset);
    out.extend_from_slice(&magic);
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&[0; 8]);
    out.extend_from_slice(&[0; 8]);
    out.extend_from_slice(&table);
    for &(_, _, bytes) in sections {
        out.resize(align_up(out.len()), 0);
        out.extend_from_slice(bytes);
    }
    let total = out.len() as u64;
    out[24..32].copy_from_slice(&total.to_le_bytes());
    seal(&mut out);
    Ok(out)
}

/// Writes the checksum of `bytes` into its field (nothing if the file is
/// too short to have one).
pub fn seal(bytes: &mut [u8]) {
    let sum = checksum(bytes);
    if let Some(field) = bytes.get_mut(CHECKSUM_AT..CHECKSUM_AT + 8) {
        field.copy_from_slice(&sum.to_le_bytes());
    }
}

/// The checksum over every byte except the checksum field itself.
pub fn checksum(bytes: &[u8]) -> u64 {
    let mut h = Xxh3::new();
    h.update(bytes.get(..CHECKSUM_AT).unwrap_or(bytes));
    h.update(bytes.get(CHECKSUM_AT + 8..).unwrap_or(&[]));
    h.digest()
}

/// What the first bytes of a file say, checked as far as they go: the
/// magic, then the version (from 12 bytes on), then the file's length as
/// its prefix declares it (`None` until all 32 prefix bytes are there).
/// Lets a reader refuse a file of another kind, version or size before
/// reading the rest of it.
pub fn declared_len(start: &[u8], version: u32) -> Result<Option<u64>, BlobError> {
    declared_len_as(MAGIC, start, version)
}

/// [`declared_len`] for a file starting with `magic`.
fn declared_len_as(magic: [u8; 8], start: &[u8], version: u32) -> Result<Option<u64>, BlobError> {
    let magic_len = start.len().min(magic.len());
    if start[..magic_len] != magic[..magic_len] {
        return Err(BlobError::NotABlob);
    }
    if start.len() >= 12 {
        let found = u32_at(start, 8);
        if found != version {
            return Err(BlobError::UnsupportedVersion {
                found,
                supported: version,
            });
        }
    }
    Ok((start.len() >= PREFIX_LEN).then(|| u64_at(start, 24)))
}

/// Checks the prefix (magic, version, length, checksum) and the section
/// table, in that order, and returns the table.
pub fn parse(bytes: &[u8], version: u32) -> Result<Vec<SectionEntry>, BlobError> {
    parse_as(MAGIC, bytes, version)
}

/// [`parse`] for a file starting with `magic`.
pub fn parse_as(
    magic: [u8; 8],
    bytes: &[u8],
    version: u32,
) -> Result<Vec<SectionEntry>, BlobError> {
    let Some(expected) = declared_len_as(magic, bytes, version)? else {
        return Err(BlobError::WrongLength {
            expected: PREFIX_LEN as u64,
            found: bytes.len() as u64,
        });
    };
    if expected != bytes.len() as u64 {
        return Err(BlobError::WrongLength {
            expected,
            found: bytes.len() as u64,
        });
    }
    let stored = u64_at(bytes, CHECKSUM_AT);
    let computed = checksum(bytes);
    if stored != computed {
        return Err(BlobError::ChecksumMismatch { stored, computed });
    }
    parse_table(bytes)
}

/// Checks the section table (and only it: [`parse`] checks the prefix
/// first) and returns it.
pub fn parse_table(bytes: &[u8]) -> Result<Vec<SectionEntry>, BlobError> {
    if bytes.len() < PREFIX_LEN {
        return Err(BlobError::WrongLength {
            expected: PREFIX_LEN as u64,
            found: bytes.len() as u64,
        });
    }
    let bad = |msg: String| Err(BlobError::SectionTable(msg));
    let count = u32_at(bytes, 12) as usize;
    let table_end = count
        .checked_mul(ENTRY_LEN)
        .and_then(|n| n.checked_add(PREFIX_LEN))
        .filter(|&end| end <= bytes.len());
    let Some(table_end) = table_end else {
        return bad(format!("{count} sections do not fit in the file"));
    };
    let mut entries: Vec<SectionEntry> = Vec::with_capacity(count);
    let mut cursor = table_end;
    for i in 0..count {
        let at = PREFIX_LEN + i * ENTRY_LEN;
        let mut tag = [0u8; 4];
        tag.copy_from_slice(&bytes[at..at + 4]);
        let flags = u32_at(bytes, at + 4);
        let (offset, len) = (u64_at(bytes, at + 8), u64_at(bytes, at + 16));
        let name = String::from_utf8_lossy(&tag).into_owned();
        if flags & !FLAG_OPTIONAL != 0 {
            return bad(format!("section `{name}` has unknown flags {flags:#x}"));
        }
        if entries.iter().any(|e| e.tag == tag) {
            return bad(format!("section `{name}` appears twice"));
        }
        let padded = align_up(cursor) as u64;
        if offset != padded {
            return bad(format!(
                "section `{name}` starts at {offset}, expected {padded}"
            ));
        }
        let end = offset
            .checked_add(len)
            .filter(|&end| end <= bytes.len() as u64);
        let Some(end) = end else {
            return bad(format!("section `{name}` runs past the end of the file"));
        };
        if bytes[cursor..offset as usize].iter().any(|&b| b != 0) {
            return bad(format!("non-zero padding before section `{name}`"));
        }
        entries.push(SectionEntry {
            tag,
            flags,
            offset: offset as usize,
            len: len as usize,
        });
        cursor = end as usize;
    }
    if cursor != bytes.len() {
        return bad(format!(
            "{} unaccounted bytes after the last section",
            bytes.len() - cursor
        ));
    }
    Ok(entries)
}

fn align_up(n: usize) -> usize {
    n.div_ceil(ALIGN) * ALIGN
}

/// Callers have checked `at + 4 <= bytes.len()`.
fn u32_at(bytes: &[u8], at: usize) -> u32 {
    let mut b = [0u8; 4];
    b.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(b)
}

/// Callers have checked `at + 8 <= bytes.len()`.
fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    const V: u32 = 7;

    fn sample() -> Vec<u8> {
        assemble(
            V,
            &[(*b"AAAA", 0, b"hello"), (*b"BBBB", FLAG_OPTIONAL, b"")],
        )
        .unwrap()
    }

    #[test]
    fn round_trip_lays_sections_out_aligned() {
        let bytes = sample();
        let table = parse(&bytes, V).unwrap();
        assert_eq!(table.len(), 2);
        assert_eq!(table[0].offset % ALIGN, 0);
        assert_eq!(&bytes[table[0].offset..][..table[0].len], b"hello");
        assert_eq!(table[1].flags, FLAG_OPTIONAL);
        assert_eq!(table[1].offset + table[1].len, bytes.len());
    }

    #[test]
    fn prefix_errors_come_in_order() {
        let bytes = sample();
        assert_eq!(parse(b"PK\x03\x04", V), Err(BlobError::NotABlob));
        assert!(matches!(
            parse(&bytes[..20], V),
            Err(BlobError::WrongLength { .. })
        ));
        assert!(matches!(
            parse(&bytes, V + 1),
            Err(BlobError::UnsupportedVersion { found: V, .. })
        ));
        assert!(matches!(
            parse(&bytes[..bytes.len() - 1], V),
            Err(BlobError::WrongLength { .. })
        ));
        let mut flipped = bytes.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert!(matches!(
            parse(&flipped, V),
            Err(BlobError::ChecksumMismatch { .. })
        ));
    }

    #[test]
    fn the_first_bytes_say_kind_version_and_length() {
        let bytes = sample();
        assert_eq!(declared_len(&[], V), Ok(None));
        assert_eq!(declared_len(&bytes[..11], V + 1), Ok(None));
        assert_eq!(declared_len(b"PK\x03", V), Err(BlobError::NotABlob));
        assert!(matches!(
            declared_len(&bytes[..12], V + 1),
            Err(BlobError::UnsupportedVersion { found: V, .. })
        ));
        assert_eq!(declared_len(&bytes[..31], V), Ok(None));
        assert_eq!(declared_len(&bytes[..32], V), Ok(Some(bytes.len() as u64)));
    }

    #[test]
    fn resealed_table_damage_is_caught() {
        let mut bytes = sample();
        // Point the second section one byte off its aligned start.
        let at = PREFIX_LEN + ENTRY_LEN + 8;
        bytes[at] ^= 1;
        seal(&mut bytes);
        assert!(matches!(parse(&bytes, V), Err(BlobError::SectionTable(_))));
    }
}
