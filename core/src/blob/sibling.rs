//! Sibling files: a blob's display text or document vectors moved into
//! files of their own ([`split`]), so that a reader fetches them only when
//! it needs them. A BM25 search needs neither: the light blob keeps the
//! indexes, and the browser shows results before it has the text.
//!
//! A sibling is framed like a blob (magic `NOMOSSIB`, version, checksum,
//! length, section table) and holds two sections: `SIBH`
//! ([`SiblingHeader`]: what it holds, its content hash, the blob's
//! document count), then the moved section (`TEXT` or `DNSP`) byte for byte
//! as it was in the blob. The light blob lists each sibling in its `SIBL`
//! section ([`SiblingsSection`]) by file name, length and content hash;
//! the blob's own content hash covers that list, so a blob names exactly
//! one text and one vectors file. [`Blob::attach`] checks a sibling's
//! frame, that it is the file the blob lists, and then its section as
//! [`Blob::load`] checks one inside a blob.

use rkyv::rancor;
use rkyv::util::AlignedVec;

use super::archived::{access, aligned};
use super::dense_section::load_dense;
use super::encode::{archive, content_hash, content_hash_of};
use super::format::{
    ArchivedDenseSection, ArchivedSiblingHeader, ArchivedSiblingsSection, ArchivedTextSection,
    SectionKind, SiblingEntry, SiblingHeader, SiblingKind, SiblingModel, SiblingsSection,
    FORMAT_VERSION,
};
use super::frame::{self, SIBLING_MAGIC};
use super::{Blob, BlobError, DenseModel, Field};
use crate::dense::DenseIndex;

/// The tag of a sibling file's header section.
const HEADER_TAG: [u8; 4] = *b"SIBH";

/// A sibling file as a blob lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiblingRef {
    /// What it holds.
    pub kind: SiblingKind,
    /// Its file name, beside the blob.
    pub file: String,
    /// xxh3-128 of its sections after its header.
    pub content_hash: u128,
    /// Its length in bytes.
    pub len: u64,
}

impl SiblingKind {
    /// Both kinds.
    pub const ALL: [SiblingKind; 2] = [SiblingKind::Text, SiblingKind::Vectors];

    /// `text` or `vectors`, for messages, `nomos info` and the manifest.
    pub fn name(self) -> &'static str {
        match self {
            SiblingKind::Text => "text",
            SiblingKind::Vectors => "vectors",
        }
    }

    /// The section the file holds.
    fn section(self) -> SectionKind {
        match self {
            SiblingKind::Text => SectionKind::Text,
            SiblingKind::Vectors => SectionKind::Dense,
        }
    }

    /// The file name [`split`] gives it: the blob's stem, then this.
    pub fn suffix(self) -> &'static str {
        match self {
            SiblingKind::Text => ".text",
            SiblingKind::Vectors => ".vectors",
        }
    }
}

/// A light blob and its siblings, as [`split`] makes them.
pub struct Split {
    /// The light blob's bytes.
    pub blob: Vec<u8>,
    /// Each sibling as the blob lists it, with its bytes.
    pub siblings: Vec<(SiblingRef, Vec<u8>)>,
}

/// Moves the sections of `kinds` that `bytes` (a whole blob, validated
/// first) has into siblings named `stem` plus [`SiblingKind::suffix`],
/// and returns the light blob that lists them. Every other section is kept
/// byte for byte; the header gets the new content hash.
pub fn split(bytes: &[u8], stem: &str, kinds: &[SiblingKind]) -> Result<Split, BlobError> {
    let blob = Blob::load(bytes)?;
    if !blob.siblings.is_empty() {
        return Err(BlobError::Input("the blob is split already".into()));
    }
    if !plain_file_name(stem) {
        return Err(BlobError::Input(format!(
            "`{stem}` cannot name sibling files: use letters, digits, `.`, `_` and `-`"
        )));
    }
    let table = frame::parse(bytes, FORMAT_VERSION)?;
    let mut kept: Vec<([u8; 4], u32, &[u8])> = Vec::new();
    let mut entries = Vec::new();
    let mut siblings = Vec::new();
    for entry in table.iter().skip(1) {
        let section = &bytes[entry.offset..entry.offset + entry.len];
        let Some(&kind) = kinds.iter().find(|k| k.section().tag() == entry.tag) else {
            kept.push((entry.tag, entry.flags, section));
            continue;
        };
        let hash = content_hash([section]);
        let header = archive(&SiblingHeader {
            kind,
            content_hash: hash,
            n_docs: blob.header.n_docs,
        })?;
        let file_bytes = frame::assemble_as(
            SIBLING_MAGIC,
            FORMAT_VERSION,
            &[(HEADER_TAG, 0, &header), (entry.tag, 0, section)],
        )?;
        let sibling = SiblingRef {
            kind,
            file: format!("{stem}{}", kind.suffix()),
            content_hash: hash,
            len: file_bytes.len() as u64,
        };
        entries.push(SiblingEntry {
            kind,
            file: sibling.file.clone(),
            content_hash: hash,
            len: sibling.len,
        });
        siblings.push((sibling, file_bytes));
    }
    if entries.is_empty() {
        return Err(BlobError::Input("the blob has nothing to move out".into()));
    }
    let vectors_model = siblings
        .iter()
        .any(|(s, _)| s.kind == SiblingKind::Vectors)
        .then_some(blob.dense_model.as_ref())
        .flatten()
        .map(|m| SiblingModel {
            model: m.id.clone(),
            model_hash: m.manifest_hash.clone(),
            dim: m.dim as u32,
            pooling: m.pooling.to_string(),
        });
    let list = archive(&SiblingsSection {
        files: entries,
        vectors_model,
    })?;
    kept.push((SectionKind::Siblings.tag(), 0, &list));
    let mut header = blob.header.clone();
    header.content_hash = content_hash(kept.iter().map(|(_, _, bytes)| *bytes));
    let header = archive(&header)?;
    let mut parts = vec![(SectionKind::Header.tag(), 0, header.as_slice())];
    parts.extend(kept);
    Ok(Split {
        blob: frame::assemble(FORMAT_VERSION, &parts)?,
        siblings,
    })
}

/// A file name that is one path component of safe characters.
fn plain_file_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
}

/// What a light blob's `SIBL` section says, checked.
pub(super) struct Listed {
    pub siblings: Vec<SiblingRef>,
    pub vectors_model: Option<DenseModel>,
}

/// Checks the `SIBL` section: plain file names, at most one file a kind, a
/// model exactly for a vectors file, and no section both in the blob and
/// in a sibling (`in_blob` says which kinds' sections the blob has).
pub(super) fn check_listed(
    list: &ArchivedSiblingsSection,
    in_blob: impl Fn(SiblingKind) -> bool,
) -> Result<Listed, BlobError> {
    let name = SectionKind::Siblings.name();
    let mut siblings: Vec<SiblingRef> = Vec::new();
    for entry in list.files.iter() {
        let kind = rkyv::deserialize::<SiblingKind, rancor::Error>(&entry.kind)
            .map_err(|e| BlobError::invalid(name, e))?;
        if siblings.iter().any(|s| s.kind == kind) {
            return Err(BlobError::invalid(
                name,
                format!("two {} files", kind.name()),
            ));
        }
        if in_blob(kind) {
            return Err(BlobError::invalid(
                name,
                format!("the {} is both in the blob and in a file", kind.name()),
            ));
        }
        if !plain_file_name(&entry.file) {
            return Err(BlobError::invalid(
                name,
                format!("`{}` is not a plain file name", entry.file),
            ));
        }
        siblings.push(SiblingRef {
            kind,
            file: entry.file.to_string(),
            content_hash: entry.content_hash.to_native(),
            len: entry.len.to_native(),
        });
    }
    let has_vectors = siblings.iter().any(|s| s.kind == SiblingKind::Vectors);
    let vectors_model = match (list.vectors_model.as_ref(), has_vectors) {
        (None, false) => None,
        (Some(m), true) => {
            let pooling = m.pooling.parse().map_err(|e| {
                BlobError::invalid(
                    name,
                    format!("{e}; this build of nomos cannot rank with it"),
                )
            })?;
            if m.model.is_empty() {
                return Err(BlobError::invalid(name, "the vectors' model has no id"));
            }
            Some(DenseModel {
                id: m.model.to_string(),
                manifest_hash: m.model_hash.to_string(),
                dim: m.dim.to_native() as usize,
                pooling,
            })
        }
        _ => {
            return Err(BlobError::invalid(
                name,
                "a vectors model without a vectors file, or the reverse",
            ))
        }
    };
    Ok(Listed {
        siblings,
        vectors_model,
    })
}

impl Blob {
    /// The sibling files this blob lists (none for a whole blob).
    pub fn siblings(&self) -> &[SiblingRef] {
        &self.siblings
    }

    /// The sibling of `kind`, if the blob lists one.
    pub fn sibling(&self, kind: SiblingKind) -> Option<&SiblingRef> {
        self.siblings.iter().find(|s| s.kind == kind)
    }

    /// Whether the data of `kind` is there to use: in the blob, or
    /// attached from its sibling (vectors: until a pool takes them).
    pub fn has(&self, kind: SiblingKind) -> bool {
        match kind {
            SiblingKind::Text => self.ranges.text.is_some() || self.sibling_text.get().is_some(),
            SiblingKind::Vectors => !self.dense.is_empty(),
        }
    }

    /// Checks `bytes` as this blob's sibling of `kind` (see
    /// [`Blob::attach_text`], [`Blob::read_vectors`]) and makes its text or
    /// vectors available.
    pub fn attach(&mut self, kind: SiblingKind, bytes: &[u8]) -> Result<(), BlobError> {
        match kind {
            SiblingKind::Text => self.attach_text(bytes),
            SiblingKind::Vectors => {
                self.dense = self.read_vectors(bytes)?;
                Ok(())
            }
        }
    }

    /// Checks `bytes` as this blob's text file and makes its text
    /// available to [`Blob::article`]. Takes `&self` (a blob shared by a
    /// loaded pool gets its text when it arrives); the first text attached
    /// stays.
    pub fn attach_text(&self, bytes: &[u8]) -> Result<(), BlobError> {
        let payload = self.checked_sibling(SiblingKind::Text, bytes)?;
        let text: &ArchivedTextSection =
            access(&payload, "text").map_err(|e| self.inconsistent(SiblingKind::Text, e))?;
        text.validate(self.n_docs())
            .map_err(|e| self.inconsistent(SiblingKind::Text, e))?;
        let _ = self.sibling_text.set(payload);
        Ok(())
    }

    /// Checks `bytes` as this blob's vectors file and returns its vectors
    /// per field, for a pool (a pool's `add_dense`).
    pub fn read_vectors(&self, bytes: &[u8]) -> Result<Vec<(Field, DenseIndex)>, BlobError> {
        let kind = SiblingKind::Vectors;
        let payload = self.checked_sibling(kind, bytes)?;
        let dense: &ArchivedDenseSection =
            access(&payload, "dense").map_err(|e| self.inconsistent(kind, e))?;
        let (model, sets) =
            load_dense(dense, self.n_docs()).map_err(|e| self.inconsistent(kind, e))?;
        if self.dense_model.as_ref() != Some(&model) {
            return Err(self.refused(
                kind,
                format!(
                    "holds vectors of model {} ({}), not those the blob lists",
                    model.id, model.pooling
                ),
            ));
        }
        Ok(sets)
    }

    /// The error about this blob's sibling of `kind`.
    fn refused(&self, kind: SiblingKind, message: String) -> BlobError {
        BlobError::Sibling {
            kind: kind.name(),
            file: self
                .sibling(kind)
                .map_or_else(String::new, |s| s.file.clone()),
            message,
        }
    }

    fn inconsistent(&self, kind: SiblingKind, e: BlobError) -> BlobError {
        self.refused(kind, format!("is inconsistent: {e}"))
    }

    /// The moved section of `bytes`, aligned, once its frame is checked and
    /// it is the file the blob lists for `kind`.
    fn checked_sibling(
        &self,
        kind: SiblingKind,
        bytes: &[u8],
    ) -> Result<AlignedVec<16>, BlobError> {
        let Some(listed) = self.sibling(kind) else {
            return Err(BlobError::invalid(
                SectionKind::Siblings.name(),
                format!("this blob lists no {} file", kind.name()),
            ));
        };
        let refused = |message: String| self.refused(kind, message);
        let table = frame::parse_as(SIBLING_MAGIC, bytes, FORMAT_VERSION).map_err(|e| match e {
            BlobError::NotABlob => refused("is not a Nomos sibling file (bad magic bytes)".into()),
            e => refused(format!("is damaged: {e}")),
        })?;
        let tags: Vec<[u8; 4]> = table.iter().map(|e| e.tag).collect();
        if tags != [HEADER_TAG, kind.section().tag()] {
            let names: Vec<String> = tags
                .iter()
                .map(|t| String::from_utf8_lossy(t).into_owned())
                .collect();
            return Err(refused(format!(
                "has sections [{}], not SIBH and {}",
                names.join(", "),
                String::from_utf8_lossy(&kind.section().tag())
            )));
        }
        let section = |i: usize| aligned(&bytes[table[i].offset..table[i].offset + table[i].len]);
        let header_bytes = section(0);
        let header: &ArchivedSiblingHeader = access(&header_bytes, "sibling header")
            .map_err(|e| refused(format!("is damaged: {e}")))?;
        let hash = content_hash_of(bytes, &table);
        if hash != header.content_hash.to_native() {
            return Err(refused(
                "is damaged: its content hash does not match its sections".into(),
            ));
        }
        if hash != listed.content_hash || header.n_docs.to_native() != self.header.n_docs {
            return Err(refused(format!(
                "belongs to another version of this pool (content hash {hash:032x}, the blob \
                 lists {:032x}): fetch the blob and its files again, or split the blob anew",
                listed.content_hash
            )));
        }
        Ok(section(1))
    }
}
