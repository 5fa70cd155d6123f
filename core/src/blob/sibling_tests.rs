//! Light blobs and their siblings: split, searched without them, attached,
//! and every wrong or damaged sibling refused with its name.

use rkyv::rancor;

use super::format::{
    SectionKind, SiblingEntry, SiblingHeader, SiblingModel, SiblingsSection, TextSection,
    FORMAT_VERSION,
};
use super::tests::{parts, sample, Part};
use super::{frame, reseal, split, Blob, Field, SiblingKind, Split, DEFAULT_PART_BYTES};

fn split_sample() -> Split {
    split(&sample(), "pool", &SiblingKind::ALL, DEFAULT_PART_BYTES).unwrap()
}

fn file_of(split: &Split, kind: SiblingKind) -> Vec<u8> {
    let (_, bytes) = split.siblings.iter().find(|(s, _)| s.kind == kind).unwrap();
    bytes.clone()
}

pub(super) fn archive<T>(value: &T) -> Vec<u8>
where
    T: for<'a> rkyv::Serialize<
        rkyv::api::high::HighSerializer<
            rkyv::util::AlignedVec,
            rkyv::ser::allocator::ArenaHandle<'a>,
            rancor::Error,
        >,
    >,
{
    rkyv::to_bytes::<rancor::Error>(value).unwrap().to_vec()
}

/// `bytes` (a blob) with its sections changed by `edit`, resealed.
pub(super) fn crafted(bytes: &[u8], edit: impl FnOnce(&mut Vec<Part>)) -> Vec<u8> {
    let mut parts = parts(bytes);
    edit(&mut parts);
    let refs: Vec<([u8; 4], u32, &[u8])> = parts
        .iter()
        .map(|(tag, flags, bytes)| (*tag, *flags, bytes.as_slice()))
        .collect();
    let mut bytes = frame::assemble(FORMAT_VERSION, &refs).unwrap();
    reseal(&mut bytes);
    bytes
}

/// A sibling file of `kind` around `section`, with a valid header.
fn sibling_file(kind: SiblingKind, tag: [u8; 4], section: &[u8]) -> (u128, Vec<u8>) {
    let hash = super::encode::content_hash([section]);
    let header = archive(&SiblingHeader {
        kind,
        content_hash: hash,
        n_docs: 3,
    });
    let bytes = frame::assemble_as(
        frame::SIBLING_MAGIC,
        FORMAT_VERSION,
        &[(*b"SIBH", 0, &header), (tag, 0, section)],
    )
    .unwrap();
    (hash, bytes)
}

/// The light blob with its `SIBL` section replaced by `list` and no text
/// parts: a light blob from before them, which listed one text file.
fn listing(list: &SiblingsSection) -> Vec<u8> {
    let section = archive(list);
    crafted(&split_sample().blob, |parts| {
        parts.retain(|p| p.0 != SectionKind::TextParts.tag());
        let part = parts
            .iter_mut()
            .find(|p| p.0 == SectionKind::Siblings.tag())
            .unwrap();
        part.2 = section;
    })
}

pub(super) fn text_entry(file: &str, content_hash: u128, len: u64) -> SiblingEntry {
    SiblingEntry {
        kind: SiblingKind::Text,
        file: file.into(),
        content_hash,
        len,
    }
}

pub(super) fn refusal(bytes: &[u8]) -> String {
    match Blob::load(bytes) {
        Ok(_) => panic!("loaded"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_light_blob_ranks_with_bm25_and_attaches_its_siblings() {
    let whole = Blob::load(&sample()).unwrap();
    let split = split_sample();
    let files: Vec<&str> = split
        .siblings
        .iter()
        .map(|(s, _)| s.file.as_str())
        .collect();
    assert_eq!(files, ["pool.0.text", "pool.vectors"]);
    let mut light = Blob::load(&split.blob).unwrap();
    assert_eq!(light.siblings().len(), 2);
    assert!(!light.has(SiblingKind::Text) && !light.has(SiblingKind::Vectors));
    assert_ne!(light.header().content_hash, whole.header().content_hash);
    // The model is known before the vectors come.
    assert_eq!(light.dense_model(), whole.dense_model());
    assert!(light.dense(Field::Text).is_none());
    assert_eq!(
        light.article(0).unwrap_err().to_string(),
        "the pool's text file `pool.0.text` is not loaded"
    );

    light
        .attach(SiblingKind::Text, &file_of(&split, SiblingKind::Text))
        .unwrap();
    for doc in 0..3 {
        assert_eq!(light.article(doc).unwrap(), whole.article(doc).unwrap());
    }
    light
        .attach(SiblingKind::Vectors, &file_of(&split, SiblingKind::Vectors))
        .unwrap();
    assert!(light.has(SiblingKind::Vectors));
    assert_eq!(light.dense(Field::Text), whole.dense(Field::Text));

    // The same index to rank with BM25.
    let (l, w) = (
        light.index(Field::Text).unwrap(),
        whole.index(Field::Text).unwrap(),
    );
    assert!(l.terms().eq(w.terms()));
    assert_eq!(l.postings_bytes(), w.postings_bytes());
    assert_eq!(l.doc_lens(), w.doc_lens());
}

#[test]
fn a_blob_is_split_once_and_only_into_plain_names() {
    let split = split_sample();
    assert_eq!(
        super::split(&split.blob, "pool", &SiblingKind::ALL, DEFAULT_PART_BYTES)
            .err()
            .unwrap()
            .to_string(),
        "cannot build blob: the blob is split already"
    );
    assert!(super::split(&sample(), "../pool", &SiblingKind::ALL, DEFAULT_PART_BYTES).is_err());
    // The text alone: the vectors stay in the blob.
    let text_only = super::split(&sample(), "p", &[SiblingKind::Text], DEFAULT_PART_BYTES).unwrap();
    let blob = Blob::load(&text_only.blob).unwrap();
    assert!(blob.has(SiblingKind::Vectors) && !blob.has(SiblingKind::Text));
}

#[test]
fn a_wrong_or_damaged_sibling_is_refused_with_its_name() {
    let split = split_sample();
    let mut light = Blob::load(&split.blob).unwrap();
    let text = file_of(&split, SiblingKind::Text);
    let vectors = file_of(&split, SiblingKind::Vectors);
    let attach =
        |light: &mut Blob, kind, bytes: &[u8]| light.attach(kind, bytes).unwrap_err().to_string();
    let prefix = "the pool's text file `pool.0.text` ";
    assert_eq!(
        attach(&mut light, SiblingKind::Text, &vectors),
        format!("{prefix}has sections [SIBH, DNSP], not SIBH and TEXT")
    );
    assert_eq!(
        attach(&mut light, SiblingKind::Text, &sample()),
        format!("{prefix}is not a Nomos sibling file (bad magic bytes)")
    );
    let truncated = attach(&mut light, SiblingKind::Text, &text[..text.len() - 1]);
    assert!(
        truncated.starts_with(&format!("{prefix}is damaged: blob is ")),
        "{truncated}"
    );
    let mut flipped = text.clone();
    *flipped.last_mut().unwrap() ^= 1;
    let damaged = attach(&mut light, SiblingKind::Text, &flipped);
    assert!(damaged.contains("checksum mismatch"), "{damaged}");
    assert!(!light.has(SiblingKind::Text));

    // Another version of the pool: the blob lists another content hash
    // (a light blob listing one text file, from before text parts).
    let prefix = "the pool's text file `pool.text` ";
    let (hash, len) = (split.siblings[0].0.content_hash, text.len() as u64);
    let mut other = Blob::load(&listing(&SiblingsSection {
        files: vec![text_entry("pool.text", hash ^ 1, len)],
        vectors_model: None,
    }))
    .unwrap();
    assert_eq!(
        attach(&mut other, SiblingKind::Text, &text),
        format!(
            "{prefix}belongs to another version of this pool (content hash {hash:032x}, the \
             blob lists {:032x}): fetch the blob and its files again, or split the blob anew",
            hash ^ 1
        )
    );
    assert_eq!(
        attach(&mut other, SiblingKind::Vectors, &vectors),
        "blob section `siblings` is inconsistent: this blob lists no vectors file"
    );

    // Valid hashes around a text section that does not hold: the section's
    // own checks still run.
    let bad_text = archive(&TextSection {
        block_docs: vec![0, 3],
        block_ends: vec![0, 1],
        raw_lens: vec![1 << 30],
        data: vec![0],
    });
    let (hash, file) = sibling_file(SiblingKind::Text, *b"TEXT", &bad_text);
    let mut crafted_blob = Blob::load(&listing(&SiblingsSection {
        files: vec![text_entry("pool.text", hash, file.len() as u64)],
        vectors_model: None,
    }))
    .unwrap();
    let inconsistent = attach(&mut crafted_blob, SiblingKind::Text, &file);
    assert!(
        inconsistent.starts_with(&format!(
            "{prefix}is inconsistent: blob section `text` is inconsistent: "
        )),
        "{inconsistent}"
    );

    // After every refusal the right file still attaches.
    light.attach(SiblingKind::Text, &text).unwrap();
    assert!(light.has(SiblingKind::Text));
}

#[test]
fn sibling_lists_that_contradict_the_blob_are_refused() {
    let prefix = "blob section `siblings` is inconsistent: ";
    // The text both in the blob and in a file.
    let both = crafted(&sample(), |parts| {
        let list = SiblingsSection {
            files: vec![text_entry("pool.text", 1, 1)],
            vectors_model: None,
        };
        parts.push((SectionKind::Siblings.tag(), 0, archive(&list)));
    });
    assert_eq!(
        refusal(&both),
        format!("{prefix}the text is both in the blob and in a file")
    );
    let listed = |files: Vec<SiblingEntry>, model: Option<SiblingModel>| {
        refusal(&listing(&SiblingsSection {
            files,
            vectors_model: model,
        }))
    };
    assert_eq!(
        listed(vec![text_entry("../etc/passwd", 1, 1)], None),
        format!("{prefix}`../etc/passwd` is not a plain file name")
    );
    assert_eq!(
        listed(
            vec![text_entry("a.text", 1, 1), text_entry("b.text", 1, 1)],
            None
        ),
        format!("{prefix}two text files")
    );
    let model = || SiblingModel {
        model: "m".into(),
        model_hash: "h".into(),
        dim: 2,
        pooling: "first".into(),
    };
    assert_eq!(
        listed(vec![text_entry("a.text", 1, 1)], Some(model())),
        format!("{prefix}a vectors model without a vectors file, or the reverse")
    );
    // Neither the text section nor a text file.
    let none = crafted(&split_sample().blob, |parts| {
        parts.retain(|p| p.0 != SectionKind::TextParts.tag());
    });
    assert_eq!(refusal(&none), "blob has no `text` section");
}

#[test]
fn a_relisted_sibling_reaches_its_sections_checks() {
    let split = split_sample();
    let mut blob = split.blob.clone();
    let mut text = file_of(&split, SiblingKind::Text);
    // A byte of the text section's last block changed: refused at the
    // content hash until relisted, then by the section's own checks.
    let at = text.len() - 2;
    text[at] ^= 0xff;
    frame::seal(&mut text);
    let before = Blob::load(&blob).unwrap().attach(SiblingKind::Text, &text);
    assert!(before.unwrap_err().to_string().contains("content hash"));
    super::relist_sibling(&mut blob, SiblingKind::Text, &mut text).unwrap();
    let after = Blob::load(&blob).unwrap().attach(SiblingKind::Text, &text);
    let refusal = after.unwrap_err().to_string();
    assert!(refusal.contains("is inconsistent"), "{refusal}");
    // The untouched file relisted is listed as it was.
    let mut blob = split.blob.clone();
    let mut vectors = file_of(&split, SiblingKind::Vectors);
    super::relist_sibling(&mut blob, SiblingKind::Vectors, &mut vectors).unwrap();
    assert_eq!(blob, split.blob);
    assert_eq!(vectors, file_of(&split, SiblingKind::Vectors));
}
