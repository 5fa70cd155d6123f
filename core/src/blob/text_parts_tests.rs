//! A light blob's text in parts: split at block boundaries, fetched part
//! by part for the documents a reader shows, every part and every list of
//! parts checked.

use super::format::{SectionKind, SiblingsSection, TextPartEntry, TextPartsSection};
use super::sibling_tests::{archive, crafted, refusal, text_entry};
use super::test_blob::danish_blob;
use super::{split, Blob, DocumentInput, SiblingKind, Split};

/// 600 documents of ~600 bytes that deflate poorly: several 64 KiB blocks.
fn many() -> Vec<u8> {
    let mut seed = 7u64;
    let documents: Vec<DocumentInput> = (0..600)
        .map(|i| {
            let words: Vec<String> = (0..90)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    format!("{:x}", seed >> 40)
                })
                .collect();
            DocumentInput {
                id: format!("d{i}"),
                text: words.join(" "),
                source: "s".into(),
                ..DocumentInput::default()
            }
        })
        .collect();
    danish_blob(&documents, &[], &[], None)
}

/// `many()` split with one block a part.
fn split_many() -> (Vec<u8>, Split) {
    let whole = many();
    let split = split(&whole, "pool", &[SiblingKind::Text], 1).unwrap();
    (whole, split)
}

fn file<'a>(split: &'a Split, name: &str) -> &'a [u8] {
    &split
        .siblings
        .iter()
        .find(|(s, _)| s.file == name)
        .unwrap()
        .1
}

#[test]
fn a_reader_fetches_only_the_parts_its_documents_need() {
    let (whole, split) = split_many();
    let whole = Blob::load(&whole).unwrap();
    let light = Blob::load(&split.blob).unwrap();
    let parts: Vec<_> = light.siblings().to_vec();
    assert!(parts.len() >= 4, "{} parts", parts.len());
    assert_eq!(parts[0].file, "pool.0.text");
    assert_eq!(parts[0].docs.start, 0);
    assert_eq!(parts.last().unwrap().docs.end, 600);
    assert!(parts.windows(2).all(|w| w[0].docs.end == w[1].docs.start));
    // Its size is known before any part is fetched.
    assert_eq!(light.text_bytes(), whole.text_bytes());

    // The first and last documents need the first and last parts, once.
    let needed = light.text_parts_for([599, 0, 1, 599]).unwrap();
    let names: Vec<&str> = needed.iter().map(|s| s.file.as_str()).collect();
    let last = &parts.last().unwrap().file;
    assert_eq!(names, ["pool.0.text", last.as_str()]);
    assert_eq!(
        light.article(599).unwrap_err().to_string(),
        format!("the pool's text file `{last}` is not loaded")
    );
    light.attach_text(file(&split, last)).unwrap();
    assert_eq!(light.article(599).unwrap(), whole.article(599).unwrap());
    assert!(!light.has(SiblingKind::Text));
    assert_eq!(light.text_parts_for([599]).unwrap(), Vec::<&_>::new());
    assert_eq!(
        light.text_parts_for([0, 600]).unwrap_err().to_string(),
        "blob section `text` is inconsistent: no document 600"
    );
    assert!(light.article(600).is_err());

    // Every part, in any order: every document as in the whole blob.
    for (part, bytes) in split.siblings.iter().rev() {
        light.attach_text(bytes).unwrap();
        assert!(light.text_parts_for(part.docs.clone()).unwrap().is_empty());
    }
    assert!(light.has(SiblingKind::Text));
    for doc in 0..600 {
        assert_eq!(light.article(doc).unwrap(), whole.article(doc).unwrap());
    }
}

#[test]
fn parts_close_at_the_size_asked_and_one_part_may_hold_all() {
    let (_, small) = split_many();
    let whole = many();
    let one = split(&whole, "pool", &[SiblingKind::Text], usize::MAX).unwrap();
    assert_eq!(one.siblings.len(), 1);
    assert_eq!(one.siblings[0].0.docs, 0..600);
    let blocks = small.siblings.len();
    let halves = split(
        &whole,
        "pool",
        &[SiblingKind::Text],
        one.siblings[0].1.len() / 2,
    )
    .unwrap();
    assert!(halves.siblings.len() == 2 && blocks > 2, "{blocks}");
    let err = split(&whole, "pool", &[SiblingKind::Text], 0)
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        "cannot build blob: a text part must hold at least one byte"
    );
}

#[test]
fn a_part_that_is_no_listed_part_is_refused() {
    let (_, split) = split_many();
    let light = Blob::load(&split.blob).unwrap();
    let n = split.siblings.len();
    let mut damaged = split.siblings[1].1.clone();
    damaged[100] ^= 1;
    assert_eq!(
        light.attach_text(&damaged).unwrap_err().to_string(),
        format!(
            "blob section `text parts` is inconsistent: the file given is none of the {n} text \
             parts the blob lists: damaged, or of another version of this pool"
        )
    );
    assert!(
        light
            .text_parts_for([split.siblings[1].0.docs.start])
            .unwrap()
            .len()
            == 1
    );
}

/// The light blob of `many()` with its parts listed as `parts` says.
fn listing(edit: impl FnOnce(&mut Vec<TextPartEntry>)) -> Vec<u8> {
    let (_, split) = split_many();
    let mut parts: Vec<TextPartEntry> = split
        .siblings
        .iter()
        .map(|(s, bytes)| TextPartEntry {
            file: s.file.clone(),
            content_hash: s.content_hash,
            len: bytes.len() as u64,
            end_doc: s.docs.end as u32,
            raw_bytes: 0,
        })
        .collect();
    edit(&mut parts);
    let section = archive(&TextPartsSection { parts });
    crafted(&split.blob, |sections| {
        let at = sections
            .iter_mut()
            .find(|p| p.0 == SectionKind::TextParts.tag())
            .unwrap();
        at.2 = section;
    })
}

#[test]
fn part_lists_that_contradict_the_blob_are_refused() {
    let prefix = "blob section `text parts` is inconsistent: ";
    let gap = listing(|p| p[0].end_doc = 0);
    assert_eq!(
        refusal(&gap),
        format!("{prefix}part 0 ends at document 0, not after 0 and by 600")
    );
    let short = listing(|p| {
        p.pop();
    });
    assert!(refusal(&short).starts_with(&format!("{prefix}the parts hold documents 0 to ")));
    let beyond = listing(|p| p.last_mut().unwrap().end_doc = 601);
    assert!(
        refusal(&beyond).contains("not after"),
        "{}",
        refusal(&beyond)
    );
    let twice = listing(|p| p[1].file = p[0].file.clone());
    assert_eq!(
        refusal(&twice),
        format!("{prefix}`pool.0.text` is listed twice")
    );
    let path = listing(|p| p[1].file = "../x.text".into());
    assert_eq!(
        refusal(&path),
        format!("{prefix}`../x.text` is not a plain file name")
    );
    // A part whose text is not the size the blob lists.
    let (_, split) = split_many();
    let sized = Blob::load(&listing(|_| {})).unwrap();
    let err = sized
        .attach_text(&split.siblings[0].1)
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("the pool's text file `pool.0.text` holds ")
            && err.ends_with(" not the 0 the blob lists"),
        "{err}"
    );
    // Parts besides a text file in `SIBL`, or besides the text in the blob.
    let both = crafted(&split.blob, |sections| {
        let list = SiblingsSection {
            files: vec![text_entry("pool.text", 1, 1)],
            vectors_model: None,
        };
        sections.push((SectionKind::Siblings.tag(), 0, archive(&list)));
    });
    assert_eq!(
        refusal(&both),
        "blob section `siblings` is inconsistent: the text is both in the blob and in a file"
    );
}

#[test]
fn a_light_blob_from_before_text_parts_still_reads() {
    let (whole, split) = split_many();
    let one = super::split(&whole, "pool", &[SiblingKind::Text], usize::MAX).unwrap();
    let (part, bytes) = &one.siblings[0];
    // One text file listed in `SIBL`, no `TXTP`.
    let old = crafted(&split.blob, |sections| {
        sections.retain(|p| p.0 != SectionKind::TextParts.tag());
        let list = SiblingsSection {
            files: vec![text_entry(
                "pool.text",
                part.content_hash,
                bytes.len() as u64,
            )],
            vectors_model: None,
        };
        sections.push((SectionKind::Siblings.tag(), 0, archive(&list)));
    });
    let old = Blob::load(&old).unwrap();
    let whole = Blob::load(&whole).unwrap();
    assert_eq!(old.text_parts_for([0, 599]).unwrap()[0].file, "pool.text");
    assert_eq!(old.text_bytes(), None);
    old.attach_text(bytes).unwrap();
    assert!(old.has(SiblingKind::Text));
    assert_eq!(old.text_bytes(), whole.text_bytes());
    assert_eq!(old.article(300).unwrap(), whole.article(300).unwrap());
}

#[test]
fn the_last_part_is_never_a_sliver() {
    let whole = many();
    let text = split(&whole, "pool", &[SiblingKind::Text], usize::MAX).unwrap();
    let all = text.siblings[0].1.len();
    for twentieths in 1..20 {
        let part_bytes = all * twentieths / 20;
        let split = split(&whole, "pool", &[SiblingKind::Text], part_bytes).unwrap();
        let (_, last) = split.siblings.last().unwrap();
        assert!(
            split.siblings.len() == 1 || last.len() >= part_bytes / 2,
            "{part_bytes}-byte parts: the last has {} bytes",
            last.len()
        );
    }
}
