//! The documents directory's pages: every document is found through its
//! page, pages tile the documents fragments, and a missing, damaged,
//! foreign or forged page fails by name and never panics.

use super::format::{
    DocsPageSection, FragmentEntry, DOCS_PAGE_TAG, FRAGMENT_MAGIC, FRAGMENT_VERSION,
};
use super::write::fragment_paged;
use super::{relist, relist_in_page, DocsPage, FragmentError, FragmentKind, Fragmented, Meta};
use crate::blob::test_blob::danish_blob;
use crate::blob::{archive, frame, reseal, Blob, DocumentInput};

/// About 1.2 MB of text: eight or so text blocks, so as many documents
/// fragments.
fn blob() -> Vec<u8> {
    let words = [
        "lov", "skat", "afgift", "ret", "klage", "stk", "minister", "sag",
    ];
    let documents: Vec<DocumentInput> = (0..600)
        .map(|d| DocumentInput {
            id: format!("d{d}"),
            title: format!("title {d}"),
            text: (0..400)
                .map(|w| words[(d * 7 + w * w) % words.len()])
                .collect::<Vec<_>>()
                .join(" "),
            // Source s1 in two runs, as an act amended later may be.
            source: format!("s{}", if d >= 500 { 1 } else { d / 100 }),
            explicit_refs: vec![format!("d{}", (d + 1) % 600)],
            path: (d % 3 == 0)
                .then(|| format!("part {}", d / 100))
                .into_iter()
                .collect(),
            version_date: (d % 2 == 0).then(|| "2016-05-12".into()),
            ..DocumentInput::default()
        })
        .collect();
    danish_blob(&documents, &[], &[], None)
}

fn cut(blob: &Blob, per_page: usize) -> (Fragmented, Meta) {
    let made = fragment_paged(blob, 4096, per_page).unwrap();
    let meta = Meta::load(&made.meta).unwrap();
    (made, meta)
}

fn pages_of(made: &Fragmented, meta: &Meta) -> Vec<DocsPage> {
    (0..meta.fragments().len())
        .filter(|&n| meta.fragments()[n].kind == FragmentKind::DocsPage)
        .map(|n| meta.open_page(n, &made.fragments[n].1).unwrap())
        .collect()
}

#[test]
fn every_document_is_found_through_its_page_and_pages_tile_the_fragments() {
    let blob = Blob::load(&blob()).unwrap();
    for per_page in [1, 3, 1000] {
        let (made, meta) = cut(&blob, per_page);
        let pages = pages_of(&made, &meta);
        let listed = meta.fragments().len();
        let docs_fragments = made.fragments.len() - listed;
        assert!(docs_fragments >= 7, "{docs_fragments} documents fragments");
        assert_eq!(meta.n_fragments(), made.fragments.len());
        assert_eq!(pages.len(), docs_fragments.div_ceil(per_page));
        // The pages list the documents fragments in number order, as cut.
        let through_pages: Vec<(usize, String)> = pages
            .iter()
            .flat_map(|p| p.fragments().map(|(n, f)| (n, f.file.clone())))
            .collect();
        let cut_files: Vec<(usize, String)> = (listed..made.fragments.len())
            .map(|n| (n, made.fragments[n].0.file.clone()))
            .collect();
        assert_eq!(through_pages, cut_files);
        let bytes: u64 = made.fragments[listed..].iter().map(|(f, _)| f.len).sum();
        assert_eq!(meta.docs_bytes(), bytes);

        let given: Vec<&DocsPage> = pages.iter().collect();
        let mut next = 0;
        for doc in 0..blob.n_docs() as u32 {
            let page = meta.needed_pages(&[doc]).unwrap();
            assert_eq!(page.len(), 1);
            let page = pages.iter().find(|p| p.number() == page[0]).unwrap();
            let number = meta.needed_docs(&[page], &[doc]).unwrap();
            assert_eq!(number.len(), 1);
            assert_eq!(number, meta.needed_docs(&given, &[doc]).unwrap());
            let f = meta
                .open_docs(page, number[0], &made.fragments[number[0]].1)
                .unwrap();
            assert_eq!(f.docs(), page.docs_of(number[0]).unwrap());
            if f.docs().start == doc {
                assert_eq!(doc, next, "fragments are consecutive");
                next = f.docs().end;
            }
            let d = doc as usize;
            assert_eq!(f.id(doc), blob.doc_id(d));
            assert_eq!(f.title(doc), blob.title(d));
            assert_eq!(meta.source(doc), blob.source(d));
            assert_eq!(meta.area(doc), blob.area(d));
            assert_eq!(f.explicit_refs(doc).unwrap(), blob.explicit_refs(d));
            // The text, cut again in smaller blocks, reads the same.
            assert_eq!(f.article(doc).unwrap(), blob.article(d).unwrap());
        }
        assert_eq!(next as usize, blob.n_docs());
        // Every document at once: every documents fragment, once.
        let all: Vec<u32> = (0..blob.n_docs() as u32).rev().collect();
        assert_eq!(
            meta.needed_docs(&given, &all).unwrap(),
            (listed..made.fragments.len()).collect::<Vec<_>>()
        );
        assert_eq!(meta.needed_pages(&all).unwrap().len(), pages.len());
        let outside = blob.n_docs() as u32;
        assert!(meta.needed_pages(&[outside]).is_err());
        assert!(meta.needed_docs(&given, &[outside]).is_err());
    }
}

/// An act's files are the pages and documents fragments its documents
/// need one by one, each once, their listed lengths summed; an unknown
/// act and a page not given are errors.
#[test]
fn a_sources_files_are_those_its_documents_need() {
    let blob = Blob::load(&blob()).unwrap();
    for per_page in [1, 3, 1000] {
        let (made, meta) = cut(&blob, per_page);
        let pages = pages_of(&made, &meta);
        let given: Vec<&DocsPage> = pages.iter().collect();
        for name in ["s0", "s1", "s4"] {
            let docs: Vec<u32> = (0..blob.n_docs() as u32)
                .filter(|&d| meta.source(d) == Some(name))
                .collect();
            let files = meta.source_files(&given, name).unwrap();
            assert_eq!(files.pages, meta.needed_pages(&docs).unwrap(), "{name}");
            assert_eq!(meta.source_pages(name).unwrap(), files.pages);
            assert_eq!(files.docs, meta.needed_docs(&given, &docs).unwrap());
            let listed = |n: usize| made.fragments[n].0.len;
            let bytes = files.pages.iter().chain(&files.docs).map(|&n| listed(n));
            assert_eq!(files.bytes, bytes.sum::<u64>(), "{name}");
            // Only the pages it names are needed.
            let own: Vec<&DocsPage> = pages
                .iter()
                .filter(|p| files.pages.contains(&p.number()))
                .collect();
            assert_eq!(meta.source_files(&own, name).unwrap(), files);
        }
        // s1's two runs: documents 100..200 and 500..600.
        let s1 = meta.source_files(&given, "s1").unwrap();
        let s4 = meta.source_files(&given, "s4").unwrap();
        assert!(s1.docs.len() > s4.docs.len(), "{s1:?} {s4:?}");
        let Err(FragmentError::Input(e)) = meta.source_pages("s9") else {
            panic!("an unknown source has files");
        };
        assert!(e.contains("no source named \"s9\""), "{e}");
        let Err(FragmentError::Missing { file }) = meta.source_files(&[], "s0") else {
            panic!("files named without their pages");
        };
        let first = meta.source_pages("s0").unwrap()[0];
        assert_eq!(file, meta.fragments()[first].file);
    }
}

#[test]
fn a_documents_fragment_is_one_block_smaller_than_the_blobs() {
    let blob = Blob::load(&blob()).unwrap();
    let (made, meta) = cut(&blob, 32);
    let docs_fragments = made.fragments.len() - meta.fragments().len();
    let blob_blocks = blob.text().unwrap().n_blocks();
    // 64 KiB blocks in the blob, 16 KiB in the fragments.
    assert!(
        docs_fragments >= 3 * blob_blocks,
        "{docs_fragments} documents fragments for the blob's {blob_blocks} blocks"
    );
    for (_, bytes) in &made.fragments[meta.fragments().len()..] {
        assert!(
            bytes.len() < 16 << 10,
            "a documents fragment of {} bytes",
            bytes.len()
        );
    }
}

#[test]
fn a_missing_damaged_or_foreign_page_fails_by_name() {
    let blob = Blob::load(&blob()).unwrap();
    let (made, meta) = cut(&blob, 3);
    let pages = pages_of(&made, &meta);
    let (first, second) = (&pages[0], &pages[1]);
    let file = |n: usize| meta.fragments()[n].file.clone();

    // Not given: the documents cannot be found, and the error names it.
    let last = blob.n_docs() as u32 - 1;
    let err = meta.needed_docs(&[first], &[0, last]).unwrap_err();
    let wanted = *meta.needed_pages(&[last]).unwrap().last().unwrap();
    assert_eq!(err, FragmentError::Missing { file: file(wanted) });

    // Damaged: every flipped byte refused, naming the page.
    let bytes = &made.fragments[first.number()].1;
    for at in 0..bytes.len() {
        let mut damaged = bytes.clone();
        damaged[at] ^= 0x04;
        let err = meta.open_page(first.number(), &damaged).unwrap_err();
        assert!(err.to_string().contains(&file(first.number())), "{err}");
    }
    for cut in [0, 7, 31, bytes.len() / 2, bytes.len() - 1] {
        assert!(meta.open_page(first.number(), &bytes[..cut]).is_err());
    }
    // Foreign: another page's bytes, a documents fragment's, a postings
    // fragment's.
    let other = &made.fragments[second.number()].1;
    let err = meta.open_page(first.number(), other).unwrap_err();
    assert!(
        err.to_string().contains("is not the file the meta lists"),
        "{err}"
    );
    let (docs_number, _) = second.fragments().next().unwrap();
    assert!(meta
        .open_page(first.number(), &made.fragments[docs_number].1)
        .is_err());
    assert!(meta.open_page(0, &made.fragments[0].1).is_err());
    assert!(meta.open(first.number(), bytes).is_err());
    // A page asked for a documents fragment it does not list.
    let err = meta
        .open_docs(first, docs_number, &made.fragments[docs_number].1)
        .unwrap_err();
    assert!(matches!(err, FragmentError::Input(_)), "{err}");
    // A documents fragment's bytes under another's number: refused by
    // name.
    let (a, listed_a) = first.fragments().next().unwrap();
    let err = meta
        .open_docs(first, a, &made.fragments[docs_number].1)
        .unwrap_err();
    assert!(err.to_string().contains(&listed_a.file), "{err}");
}

/// Pages relisted in the meta (so past the hash) whose entries disagree
/// with the meta's ranges are refused as inconsistent, by name; flips resealed and
/// relisted never panic.
#[test]
fn forged_pages_are_inconsistent_and_flips_never_panic() {
    let blob = Blob::load(&blob()).unwrap();
    let (made, meta) = cut(&blob, 3);
    let pages = pages_of(&made, &meta);
    let page = &pages[1];
    let entries: Vec<(u32, FragmentEntry)> = page
        .fragments()
        .map(|(n, f)| {
            let start = page.docs_of(n).unwrap().start;
            let entry = FragmentEntry {
                hash: f.hash,
                len: f.len,
            };
            (start, entry)
        })
        .collect();
    let forge = |first_fragment: u32, entries: &[(u32, FragmentEntry)]| {
        let section = DocsPageSection {
            first_fragment,
            first_docs: entries.iter().map(|(s, _)| *s).collect(),
            fragments: entries
                .iter()
                .map(|(_, e)| FragmentEntry {
                    hash: e.hash,
                    len: e.len,
                })
                .collect(),
        };
        let section = archive(&section).unwrap();
        let bytes = frame::assemble_as(
            FRAGMENT_MAGIC,
            FRAGMENT_VERSION,
            &[(DOCS_PAGE_TAG, 0, &section)],
        )
        .unwrap();
        let mut relisted = made.meta.clone();
        relist(&mut relisted, page.number(), &bytes).unwrap();
        let meta = Meta::load(&relisted).unwrap();
        let file = meta.fragments()[page.number()].file.clone();
        meta.open_page(page.number(), &bytes)
            .map(drop)
            .map_err(|e| {
                assert!(e.to_string().contains(&file), "not named: {e}");
                e
            })
    };
    // As cut, it opens.
    forge(3, &entries).unwrap();
    let shifted = |by: u32| -> Vec<(u32, FragmentEntry)> {
        let mut e = forge_copy(&entries);
        e[0].0 += by;
        e
    };
    let mut dropped = forge_copy(&entries);
    dropped.pop();
    let mut swapped = forge_copy(&entries);
    swapped.swap(0, 1);
    let mut past = forge_copy(&entries);
    past.last_mut().unwrap().0 = pages[2]
        .docs_of(pages[2].fragments().next().unwrap().0)
        .unwrap()
        .start;
    for (why, result) in [
        ("another first fragment", forge(4, &entries)),
        ("another first document", forge(3, &shifted(1))),
        ("an entry short", forge(3, &dropped)),
        ("documents not ascending", forge(3, &swapped)),
        ("documents past the page's", forge(3, &past)),
    ] {
        let err = result.expect_err(why);
        assert!(err.to_string().contains("is inconsistent"), "{why}: {err}");
    }

    let bytes = &made.fragments[page.number()].1;
    for at in 32..bytes.len() {
        let mut damaged = bytes.clone();
        damaged[at] ^= 0x41;
        reseal(&mut damaged);
        let mut relisted = made.meta.clone();
        relist(&mut relisted, page.number(), &damaged).unwrap();
        let meta = Meta::load(&relisted).unwrap();
        if let Ok(p) = meta.open_page(page.number(), &damaged) {
            let docs: Vec<u32> = (0..blob.n_docs() as u32).collect();
            let _ = meta.needed_docs(&[&p], &docs);
            for (n, f) in p.fragments() {
                let _ = (p.docs_of(n), f.len);
            }
        }
    }

    // A documents fragment flipped, resealed and relisted in its page, the
    // page relisted in the meta: the fragment's own checks refuse it by
    // name, or it opens.
    let (n, _) = page.fragments().next().unwrap();
    let docs = &made.fragments[n].1;
    let mut refused = 0;
    for at in (32..docs.len()).step_by((docs.len() / 200).max(1)) {
        let mut damaged = docs.clone();
        damaged[at] ^= 0x41;
        reseal(&mut damaged);
        let mut page_bytes = bytes.clone();
        relist_in_page(&mut page_bytes, 0, &damaged).unwrap();
        let mut relisted = made.meta.clone();
        relist(&mut relisted, page.number(), &page_bytes).unwrap();
        let meta = Meta::load(&relisted).unwrap();
        let p = meta.open_page(page.number(), &page_bytes).unwrap();
        match meta.open_docs(&p, n, &damaged) {
            Ok(f) => {
                for doc in f.docs() {
                    let _ = (f.id(doc), f.title(doc), f.article(doc));
                }
            }
            Err(e) => {
                let file = &p.fragment(n).unwrap().file;
                assert!(e.to_string().contains(file.as_str()), "{e}");
                assert!(!e.to_string().contains("is not the file"), "{e}");
                refused += 1;
            }
        }
    }
    assert!(refused > 50, "{refused}");
}

fn forge_copy(entries: &[(u32, FragmentEntry)]) -> Vec<(u32, FragmentEntry)> {
    entries
        .iter()
        .map(|(s, e)| {
            (
                *s,
                FragmentEntry {
                    hash: e.hash,
                    len: e.len,
                },
            )
        })
        .collect()
}

/// A meta of another fragment format version is refused, naming both
/// versions, before anything in it is read.
#[test]
fn an_older_meta_is_refused_naming_its_version() {
    let blob = Blob::load(&blob()).unwrap();
    let (made, _) = cut(&blob, 3);
    let mut old = made.meta.clone();
    let older = FRAGMENT_VERSION - 1;
    old[8..12].copy_from_slice(&older.to_le_bytes());
    frame::seal(&mut old);
    let err = Meta::load(&old).unwrap_err().to_string();
    assert!(
        err.contains(&format!("fragment format version {older}"))
            && err.contains(&format!("version {FRAGMENT_VERSION}")),
        "{err}"
    );
}
