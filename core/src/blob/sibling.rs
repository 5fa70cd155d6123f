//! Sibling files: a blob's display text or document vectors moved into
//! files of their own ([`split`]), so that a reader fetches them only when
//! it needs them. A BM25 search needs neither: the light blob keeps the
//! indexes, and the browser shows results before it has the text.
//!
//! A sibling is framed like a blob (magic `NOMOSSIB`, version, checksum,
//! length, section table) and holds two sections: `SIBH`
//! ([`SiblingHeader`]: what it holds, its content hash, the blob's
//! document count), then the moved section (`TEXT` or `DNSP`) byte for byte
//! as it was in the blob, or for a text part ([`super::text_parts`]) its
//! run of blocks. The light blob lists its vectors file in its `SIBL`
//! section ([`SiblingsSection`]) and its text parts in `TXTP`
//! ([`TextPartsSection`]), by file name, length and content hash; the
//! blob's own content hash covers those lists, so a blob names exactly
//! which files hold its text and its vectors. (Light blobs from before
//! text parts list one text file in `SIBL`: still read, as one part.) [`Blob::attach`] checks a sibling's
//! frame, that it is the file the blob lists, and then its section as
//! [`Blob::load`] checks one inside a blob.

use std::ops::Range;

use rkyv::rancor;
use rkyv::util::AlignedVec;

use super::archived::{access, aligned};
use super::dense_section::load_dense;
use super::encode::{archive, content_hash, content_hash_of};
use super::format::{
    ArchivedDenseSection, ArchivedSiblingHeader, ArchivedSiblingsSection, ArchivedTextPartsSection,
    ArchivedTextSection, SectionKind, SiblingEntry, SiblingHeader, SiblingKind, SiblingModel,
    SiblingsSection, TextPartEntry, TextPartsSection, FORMAT_VERSION,
};
use super::frame::{self, SIBLING_MAGIC};
use super::text_parts;
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
    /// The documents whose text or vectors it holds (a text part: a run;
    /// otherwise all).
    pub docs: Range<usize>,
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

    /// The file name [`split`] gives it: the blob's stem, then this (a
    /// text part's: the stem, `.`, its number, then this).
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
/// first) has into siblings named `stem` plus [`SiblingKind::suffix`] (the
/// text into parts whose deflated blocks reach `part_bytes` each, see
/// [`super::text_parts`]), and returns the light blob that lists them.
/// Every other section is kept byte for byte; the header gets the new
/// content hash.
pub fn split(
    bytes: &[u8],
    stem: &str,
    kinds: &[SiblingKind],
    part_bytes: usize,
) -> Result<Split, BlobError> {
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
    let mut parts = None;
    let mut siblings = Vec::new();
    let n_docs = blob.n_docs();
    for entry in table.iter().skip(1) {
        let section = &bytes[entry.offset..entry.offset + entry.len];
        let Some(&kind) = kinds.iter().find(|k| k.section().tag() == entry.tag) else {
            kept.push((entry.tag, entry.flags, section));
            continue;
        };
        if kind == SiblingKind::Text {
            let mut listed = Vec::new();
            for (i, cut) in text_parts::cut(section, part_bytes)?
                .into_iter()
                .enumerate()
            {
                let file = format!("{stem}.{i}{}", kind.suffix());
                let (sibling, file_bytes) =
                    sibling_file(kind, file, cut.docs, &archive(&cut.section)?, n_docs)?;
                listed.push(TextPartEntry {
                    file: sibling.file.clone(),
                    content_hash: sibling.content_hash,
                    len: sibling.len,
                    end_doc: sibling.docs.end as u32,
                    raw_bytes: cut.raw_bytes,
                });
                siblings.push((sibling, file_bytes));
            }
            parts = Some(TextPartsSection { parts: listed });
            continue;
        }
        let file = format!("{stem}{}", kind.suffix());
        let (sibling, file_bytes) = sibling_file(kind, file, 0..n_docs, section, n_docs)?;
        entries.push(SiblingEntry {
            kind,
            file: sibling.file.clone(),
            content_hash: sibling.content_hash,
            len: sibling.len,
        });
        siblings.push((sibling, file_bytes));
    }
    if entries.is_empty() && parts.is_none() {
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
    let list = match entries.is_empty() {
        true => None,
        false => Some(archive(&SiblingsSection {
            files: entries,
            vectors_model,
        })?),
    };
    if let Some(list) = &list {
        kept.push((SectionKind::Siblings.tag(), 0, list));
    }
    let parts = parts.as_ref().map(archive).transpose()?;
    if let Some(parts) = &parts {
        kept.push((SectionKind::TextParts.tag(), 0, parts));
    }
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

/// The sibling file of `kind` named `file` around `section` (the documents
/// `docs` of a blob of `n_docs`), as its blob lists it, with its bytes.
fn sibling_file(
    kind: SiblingKind,
    file: String,
    docs: Range<usize>,
    section: &[u8],
    n_docs: usize,
) -> Result<(SiblingRef, Vec<u8>), BlobError> {
    let hash = content_hash([section]);
    let header = archive(&SiblingHeader {
        kind,
        content_hash: hash,
        n_docs: n_docs as u32,
    })?;
    let bytes = frame::assemble_as(
        SIBLING_MAGIC,
        FORMAT_VERSION,
        &[(HEADER_TAG, 0, &header), (kind.section().tag(), 0, section)],
    )?;
    let sibling = SiblingRef {
        kind,
        file,
        content_hash: hash,
        len: bytes.len() as u64,
        docs,
    };
    Ok((sibling, bytes))
}

/// A file name that is one path component of safe characters.
pub(super) fn plain_file_name(name: &str) -> bool {
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
/// in a sibling (`in_blob` says which kinds' sections the blob has, or
/// lists elsewhere).
pub(super) fn check_listed(
    list: &ArchivedSiblingsSection,
    n_docs: usize,
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
            docs: 0..n_docs,
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

/// The parts a `TXTP` section lists, checked: plain file names, each
/// holding at least one document, together every document of the blob in
/// order. Returns each as a sibling with its inflated size.
pub(super) fn check_parts(
    list: &ArchivedTextPartsSection,
    n_docs: usize,
) -> Result<Vec<(SiblingRef, u64)>, BlobError> {
    let name = SectionKind::TextParts.name();
    let mut parts: Vec<(SiblingRef, u64)> = Vec::with_capacity(list.parts.len());
    let mut start = 0;
    for (i, entry) in list.parts.iter().enumerate() {
        let end = entry.end_doc.to_native() as usize;
        if end <= start || end > n_docs {
            return Err(BlobError::invalid(
                name,
                format!("part {i} ends at document {end}, not after {start} and by {n_docs}"),
            ));
        }
        if !plain_file_name(&entry.file) {
            return Err(BlobError::invalid(
                name,
                format!("`{}` is not a plain file name", entry.file),
            ));
        }
        if parts.iter().any(|(p, _)| p.file == entry.file.as_str()) {
            return Err(BlobError::invalid(
                name,
                format!("`{}` is listed twice", entry.file),
            ));
        }
        parts.push((
            SiblingRef {
                kind: SiblingKind::Text,
                file: entry.file.to_string(),
                content_hash: entry.content_hash.to_native(),
                len: entry.len.to_native(),
                docs: start..end,
            },
            entry.raw_bytes.to_native(),
        ));
        start = end;
    }
    if start != n_docs {
        return Err(BlobError::invalid(
            name,
            format!("the parts hold documents 0 to {start}, not all {n_docs}"),
        ));
    }
    Ok(parts)
}

impl Blob {
    /// The sibling files this blob lists (none for a whole blob): its
    /// vectors file and its text parts, in document order.
    pub fn siblings(&self) -> &[SiblingRef] {
        &self.siblings
    }

    /// The first sibling of `kind`, if the blob lists one (a text in parts
    /// lists several: [`Blob::text_parts_for`]).
    pub fn sibling(&self, kind: SiblingKind) -> Option<&SiblingRef> {
        self.siblings.iter().find(|s| s.kind == kind)
    }

    /// The files holding the text, in document order (none when the text
    /// is in the blob).
    fn text_files(&self) -> impl Iterator<Item = &SiblingRef> + '_ {
        self.siblings.iter().filter(|s| s.kind == SiblingKind::Text)
    }

    /// Whether the data of `kind` is there to use: in the blob, or
    /// attached from its siblings (the text: every part; vectors: until a
    /// pool takes them).
    pub fn has(&self, kind: SiblingKind) -> bool {
        match kind {
            SiblingKind::Text => {
                self.ranges.text.is_some()
                    || self.text_parts.iter().all(|p| p.section.get().is_some())
            }
            SiblingKind::Vectors => !self.dense.is_empty(),
        }
    }

    /// The text files that the documents `docs` need and that are not
    /// attached yet, in document order, each once: what a reader fetches
    /// before showing those documents. An error names a document the blob
    /// does not have.
    pub fn text_parts_for(
        &self,
        docs: impl IntoIterator<Item = usize>,
    ) -> Result<Vec<&SiblingRef>, BlobError> {
        let mut needed = vec![false; self.text_parts.len()];
        for doc in docs {
            if doc >= self.n_docs() {
                return Err(BlobError::invalid(
                    SectionKind::Text.name(),
                    format!("no document {doc}"),
                ));
            }
            if let Some((at, _)) = self.part_of(doc) {
                needed[at] |= self.text_parts[at].section.get().is_none();
            }
        }
        Ok(self
            .text_files()
            .zip(needed)
            .filter_map(|(file, needed)| needed.then_some(file))
            .collect())
    }

    /// The text part holding `doc` (`None`: the text is in the blob, or
    /// there is no such document): its index and its file.
    pub(super) fn part_of(&self, doc: usize) -> Option<(usize, &SiblingRef)> {
        self.text_files()
            .enumerate()
            .find(|(_, f)| f.docs.contains(&doc))
    }

    /// Part `at`'s text section, once attached.
    pub(super) fn part_text(&self, at: usize) -> Option<&AlignedVec<16>> {
        self.text_parts.get(at)?.section.get()
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

    /// Checks `bytes` as one of this blob's text files (the part whose
    /// content hash it has, or the only one) and makes its documents' text
    /// available to [`Blob::article`]. Takes `&self` (a blob shared by a
    /// loaded pool gets its text as it arrives); the first copy of a part
    /// attached stays.
    pub fn attach_text(&self, bytes: &[u8]) -> Result<(), BlobError> {
        let files: Vec<&SiblingRef> = self.text_files().collect();
        let hash = frame::parse_as(SIBLING_MAGIC, bytes, FORMAT_VERSION)
            .ok()
            .map(|table| content_hash_of(bytes, &table));
        let at = files
            .iter()
            .position(|f| Some(f.content_hash) == hash)
            .or((files.len() == 1).then_some(0));
        let Some(at) = at else {
            return Err(match files.len() {
                0 => no_file(SiblingKind::Text),
                n => BlobError::invalid(
                    SectionKind::TextParts.name(),
                    format!(
                        "the file given is none of the {n} text parts the blob lists: damaged, \
                         or of another version of this pool"
                    ),
                ),
            });
        };
        let listed = files[at];
        let payload = self.checked_sibling(listed, bytes)?;
        let text: &ArchivedTextSection =
            access(&payload, "text").map_err(|e| inconsistent(listed, e))?;
        text.validate(listed.docs.len())
            .map_err(|e| inconsistent(listed, e))?;
        match self.text_parts[at].raw_bytes {
            Some(raw) if raw != text.raw_bytes() => {
                return Err(refused(
                    listed,
                    format!(
                        "holds {} bytes of text, not the {raw} the blob lists",
                        text.raw_bytes()
                    ),
                ))
            }
            _ => {}
        }
        let _ = self.text_parts[at].section.set(payload);
        Ok(())
    }

    /// Checks `bytes` as this blob's vectors file and returns its vectors
    /// per field, for a pool (a pool's `add_dense`).
    pub fn read_vectors(&self, bytes: &[u8]) -> Result<Vec<(Field, DenseIndex)>, BlobError> {
        let kind = SiblingKind::Vectors;
        let listed = self.sibling(kind).ok_or_else(|| no_file(kind))?;
        let payload = self.checked_sibling(listed, bytes)?;
        let dense: &ArchivedDenseSection =
            access(&payload, "dense").map_err(|e| inconsistent(listed, e))?;
        let (model, sets) =
            load_dense(dense, self.n_docs()).map_err(|e| inconsistent(listed, e))?;
        if self.dense_model.as_ref() != Some(&model) {
            return Err(refused(
                listed,
                format!(
                    "holds vectors of model {} ({}), not those the blob lists",
                    model.id, model.pooling
                ),
            ));
        }
        Ok(sets)
    }

    /// The moved section of `bytes`, aligned, once its frame is checked and
    /// it is the file `listed`.
    fn checked_sibling(
        &self,
        listed: &SiblingRef,
        bytes: &[u8],
    ) -> Result<AlignedVec<16>, BlobError> {
        let kind = listed.kind;
        let refused = |message: String| refused(listed, message);
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

/// The error about the sibling file `listed`.
fn refused(listed: &SiblingRef, message: String) -> BlobError {
    BlobError::Sibling {
        kind: listed.kind.name(),
        file: listed.file.clone(),
        message,
    }
}

fn inconsistent(listed: &SiblingRef, e: BlobError) -> BlobError {
    refused(listed, format!("is inconsistent: {e}"))
}

/// The error for a file of `kind` given to a blob that lists none.
fn no_file(kind: SiblingKind) -> BlobError {
    BlobError::invalid(
        SectionKind::Siblings.name(),
        format!("this blob lists no {} file", kind.name()),
    )
}
