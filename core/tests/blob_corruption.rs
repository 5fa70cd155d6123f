//! A damaged blob is an error, never a panic: flipped bytes everywhere
//! (caught by the checksum, and, resealed, by the archive and semantic
//! checks), truncation at many lengths, and an old version.

mod blob_support;

use nomos_core::blob::{encode, reseal, Blob, BlobError, EncodeReport};

use blob_support::{input, sample};

#[test]
fn every_flipped_byte_fails_the_checksum_or_earlier() {
    let (bytes, _) = blob_bytes();
    let stride = (bytes.len() / 3000).max(1);
    for at in (0..bytes.len()).step_by(stride).chain([bytes.len() - 1]) {
        let mut damaged = bytes.clone();
        damaged[at] ^= 0x5a;
        let err = Blob::load(&damaged)
            .err()
            .unwrap_or_else(|| panic!("flip at {at} loaded"));
        assert!(
            matches!(
                err,
                BlobError::ChecksumMismatch { .. }
                    | BlobError::NotABlob
                    | BlobError::UnsupportedVersion { .. }
                    | BlobError::WrongLength { .. }
            ),
            "flip at {at}: {err}"
        );
    }
}

#[test]
fn resealed_flips_never_panic_and_reach_every_section() {
    let (bytes, _) = blob_bytes();
    let sections = Blob::load(&bytes).unwrap().sections().to_vec();
    let mut loaded = 0;
    let mut refused_by = std::collections::BTreeSet::new();
    for (s, section) in sections.iter().enumerate() {
        // 30 flips spread over each section, whatever its size.
        let stride = (section.len / 30).max(1);
        for (k, at) in (section.offset..section.offset + section.len)
            .step_by(stride)
            .enumerate()
        {
            let mut damaged = bytes.clone();
            damaged[at] ^= 1 << ((k + s) % 8);
            reseal(&mut damaged);
            // A flip inside a string, a title or a vector's codes can leave
            // a valid blob; what matters is that nothing panics and that
            // structure damage is caught by the checks of its section.
            match Blob::load(&damaged) {
                Ok(blob) => {
                    loaded += 1;
                    for doc in 0..blob.n_docs() {
                        let _ = blob.article(doc);
                    }
                }
                Err(err) => {
                    refused_by.insert(match err {
                        BlobError::ChecksumMismatch { .. } => panic!("flip at {at}: {err}"),
                        BlobError::Invalid { section, message }
                            if section == "header" && message.contains("content hash") =>
                        {
                            panic!("flip at {at}: {message}")
                        }
                        BlobError::Archive { section, .. } | BlobError::Invalid { section, .. } => {
                            section.to_owned()
                        }
                        BlobError::Index { field, .. } => format!("lexical:{field}"),
                        other => panic!("flip at {at} in {}: {other}", section.name),
                    });
                }
            }
        }
    }
    assert!(loaded > 0);
    // Resealed damage reaches the checks of every section but the vectors'
    // codes (any int8 but -128 is a code). With only the checksum
    // rewritten, all of it stopped at the content hash.
    for section in sections.iter().filter(|s| s.name != "dense") {
        assert!(
            refused_by.contains(&section.name),
            "{}: {refused_by:?}",
            section.name
        );
    }
}

#[test]
fn truncation_at_any_length_is_an_error() {
    let (bytes, _) = blob_bytes();
    let stride = (bytes.len() / 2000).max(1);
    let lengths = (0..200).chain((200..bytes.len()).step_by(stride));
    for len in lengths {
        let err = Blob::load(&bytes[..len])
            .err()
            .unwrap_or_else(|| panic!("{len} bytes loaded"));
        assert!(
            matches!(err, BlobError::WrongLength { .. }),
            "{len} bytes: {err}"
        );
    }
}

#[test]
fn old_versions_and_foreign_files_are_named() {
    let (bytes, _) = blob_bytes();
    let mut old = bytes.clone();
    old[8..12].copy_from_slice(&0u32.to_le_bytes());
    let msg = Blob::load(&old).err().unwrap().to_string();
    assert!(
        msg.contains("version 0 is not supported") && msg.contains("rebuild"),
        "{msg}"
    );
    let msg = Blob::load(b"{\"not\": \"a blob\"}")
        .err()
        .unwrap()
        .to_string();
    assert!(msg.contains("not a Nomos index blob"), "{msg}");
    let mut flipped = bytes;
    let last = flipped.len() - 1;
    flipped[last] ^= 1;
    let msg = Blob::load(&flipped).err().unwrap().to_string();
    assert!(msg.contains("corrupted"), "{msg}");
}

fn blob_bytes() -> (Vec<u8>, EncodeReport) {
    let s = sample();
    encode(&input(&s)).unwrap()
}
