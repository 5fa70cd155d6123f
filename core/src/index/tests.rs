use super::*;

fn index(docs: &[&[&str]]) -> InvertedIndex {
    InvertedIndex::build(docs.iter().map(|d| d.iter())).unwrap()
}

fn postings(index: &InvertedIndex, term: &str) -> Vec<(u32, u32)> {
    let id = index.term_id(term).unwrap();
    index.postings(id).map(|p| (p.doc, p.tf)).collect()
}

#[test]
fn vocabulary_is_in_first_seen_order() {
    let idx = index(&[&["b", "a", "b"], &[], &["c", "a", "d", "c"]]);
    assert_eq!(idx.terms().collect::<Vec<_>>(), ["b", "a", "c", "d"]);
    assert_eq!(idx.term_id("c"), Some(2));
    assert_eq!(idx.term(3), Some("d"));
    assert_eq!(idx.term(4), None);
    assert_eq!(idx.term_id("zzz"), None);
}

#[test]
fn counts_frequencies_and_lengths() {
    let idx = index(&[&["b", "a", "b"], &[], &["c", "a", "d", "c"]]);
    assert_eq!(idx.n_docs(), 3);
    assert_eq!(idx.n_terms(), 4);
    assert_eq!(idx.doc_lens(), [3, 0, 4]);
    assert_eq!(idx.total_len(), 7);
    assert_eq!(idx.doc_freqs(), [1, 2, 1, 1]);
    assert_eq!(postings(&idx, "b"), [(0, 2)]);
    assert_eq!(postings(&idx, "a"), [(0, 1), (2, 1)]);
    assert_eq!(postings(&idx, "c"), [(2, 2)]);
    assert_eq!(idx.postings(99).count(), 0);
}

#[test]
fn large_gaps_and_frequencies_survive_encoding() {
    // Document 300 is reached by a two-byte gap, and tf 200 needs two bytes.
    let mut docs: Vec<Vec<String>> = vec![Vec::new(); 301];
    docs[0] = vec!["x".to_string()];
    docs[300] = vec!["x".to_string(); 200];
    docs[300].push("y".to_string());
    let idx = InvertedIndex::build(&docs).unwrap();
    assert_eq!(postings(&idx, "x"), [(0, 1), (300, 200)]);
    assert_eq!(postings(&idx, "y"), [(300, 1)]);
    assert_eq!(idx.doc_lens()[300], 201);
}

#[test]
fn empty_corpus() {
    let idx = InvertedIndex::build(Vec::<Vec<String>>::new()).unwrap();
    assert_eq!(idx.n_docs(), 0);
    assert_eq!(idx.n_terms(), 0);
    assert_eq!(idx.offsets(), [0]);
    assert_eq!(idx.total_len(), 0);
    let rebuilt = InvertedIndex::from_parts(idx.into_parts()).unwrap();
    assert_eq!(rebuilt.n_docs(), 0);
}

#[test]
fn parts_round_trip() {
    let idx = index(&[&["b", "a", "b"], &[], &["c", "a", "d", "c"]]);
    let parts = idx.clone().into_parts();
    let rebuilt = InvertedIndex::from_parts(parts.clone()).unwrap();
    assert_eq!(rebuilt.into_parts(), parts);
    assert_eq!(parts.terms, idx.terms().collect::<Vec<_>>());
    assert_eq!(parts.offsets, idx.offsets());
    assert_eq!(parts.postings, idx.postings_bytes());
}

/// Corpus [["a", "b"], ["a"]]: a → (0,1),(1,1); b → (0,1).
fn small_parts() -> IndexParts {
    let parts = index(&[&["a", "b"], &["a"]]).into_parts();
    assert_eq!(parts.postings, [0, 1, 1, 1, 0, 1]);
    assert_eq!(parts.offsets, [0, 4, 6]);
    parts
}

fn rebuild_err(edit: impl FnOnce(&mut IndexParts)) -> IndexError {
    let mut parts = small_parts();
    edit(&mut parts);
    InvertedIndex::from_parts(parts).unwrap_err()
}

fn postings_err(term: u32, problem: PostingsProblem) -> IndexError {
    IndexError::Postings { term, problem }
}

#[test]
fn mismatched_lengths_are_rejected() {
    assert!(matches!(
        rebuild_err(|p| {
            p.doc_freqs.pop();
        }),
        IndexError::LengthMismatch {
            what: "doc_freqs",
            ..
        }
    ));
    assert!(matches!(
        rebuild_err(|p| p.offsets.push(6)),
        IndexError::LengthMismatch {
            what: "offsets",
            ..
        }
    ));
}

#[test]
fn duplicate_terms_are_rejected() {
    assert_eq!(
        rebuild_err(|p| p.terms[1] = "a".into()),
        IndexError::DuplicateTerm { term: 1 }
    );
}

#[test]
fn bad_offsets_are_rejected() {
    // Past the end of the bytes.
    assert_eq!(
        rebuild_err(|p| p.offsets[2] = 7),
        IndexError::BadOffsets { term: 1 }
    );
    // Short of the end of the bytes.
    assert_eq!(
        rebuild_err(|p| p.offsets[2] = 5),
        IndexError::BadOffsets { term: 1 }
    );
    // Decreasing.
    assert_eq!(
        rebuild_err(|p| p.offsets = vec![0, 7, 6]),
        IndexError::BadOffsets { term: 1 }
    );
    // Not starting at zero.
    assert_eq!(
        rebuild_err(|p| p.offsets[0] = 1),
        IndexError::BadOffsets { term: 0 }
    );
}

#[test]
fn truncated_varints_are_rejected() {
    // Continuation bit on the last byte of term a's list.
    assert_eq!(
        rebuild_err(|p| p.postings[3] = 0x81),
        postings_err(0, PostingsProblem::Truncated)
    );
    // A gap without its tf: move one byte of a's list to b's.
    assert_eq!(
        rebuild_err(|p| p.offsets[1] = 3),
        postings_err(0, PostingsProblem::Truncated)
    );
}

#[test]
fn overflowing_varints_are_rejected() {
    let err = rebuild_err(|p| {
        p.postings = vec![0, 1, 0x80, 0x80, 0x80, 0x80, 0x10, 1, 0, 1];
        p.offsets = vec![0, 8, 10];
    });
    assert_eq!(err, postings_err(0, PostingsProblem::VarintOverflow));
}

#[test]
fn out_of_range_doc_ids_are_rejected() {
    assert_eq!(
        rebuild_err(|p| p.postings[2] = 2),
        postings_err(0, PostingsProblem::DocOutOfRange { doc: 2 })
    );
    assert_eq!(
        rebuild_err(|p| p.postings[4] = 5),
        postings_err(1, PostingsProblem::DocOutOfRange { doc: 5 })
    );
}

#[test]
fn non_increasing_doc_ids_are_rejected() {
    assert_eq!(
        rebuild_err(|p| p.postings[2] = 0),
        postings_err(0, PostingsProblem::NonIncreasing)
    );
}

#[test]
fn zero_tf_is_rejected() {
    assert_eq!(
        rebuild_err(|p| p.postings[5] = 0),
        postings_err(1, PostingsProblem::ZeroTf)
    );
}

#[test]
fn doc_freq_mismatch_is_rejected() {
    assert_eq!(
        rebuild_err(|p| p.doc_freqs[0] = 1),
        postings_err(
            0,
            PostingsProblem::DocFreqMismatch {
                stored: 1,
                decoded: 2
            }
        )
    );
    // A term without postings.
    assert_eq!(
        rebuild_err(|p| {
            p.terms.push("c".into());
            p.doc_freqs.push(0);
            p.offsets.push(6);
        }),
        postings_err(
            2,
            PostingsProblem::DocFreqMismatch {
                stored: 0,
                decoded: 0
            }
        )
    );
}

#[test]
fn doc_len_mismatch_is_rejected() {
    assert_eq!(
        rebuild_err(|p| p.doc_lens[1] = 2),
        IndexError::DocLenMismatch {
            doc: 1,
            stored: 2,
            summed: 1
        }
    );
    // An extra document that no posting mentions.
    assert_eq!(
        rebuild_err(|p| p.doc_lens.push(1)),
        IndexError::DocLenMismatch {
            doc: 2,
            stored: 1,
            summed: 0
        }
    );
}

#[test]
fn errors_display() {
    let err = rebuild_err(|p| p.postings[2] = 0);
    assert_eq!(
        err.to_string(),
        "postings of term 0: document ids not increasing"
    );
}

/// A `for` loop drives the iterator through `next`.
fn by_next(postings: Postings<'_>) -> Vec<Posting> {
    let mut out = Vec::new();
    for p in postings {
        out.push(p);
    }
    out
}

fn by_fold(postings: Postings<'_>) -> Vec<Posting> {
    postings.fold(Vec::new(), |mut out, p| {
        out.push(p);
        out
    })
}

#[test]
fn next_and_fold_decode_alike() {
    // Mixed one- and multi-byte gaps and term frequencies.
    let mut docs: Vec<Vec<String>> = vec![Vec::new(); 20_000];
    for (i, doc) in docs.iter_mut().enumerate() {
        if i % 7 == 0 || i % 1000 == 999 {
            doc.extend(std::iter::repeat_n("x".to_string(), 1 + i % 300));
        }
        if i % 5000 == 1 {
            doc.push("y".to_string());
        }
    }
    let idx = InvertedIndex::build(&docs).unwrap();
    for term in ["x", "y"] {
        let id = idx.term_id(term).unwrap();
        let a = by_next(idx.postings(id));
        assert_eq!(a, by_fold(idx.postings(id)));
        assert_eq!(a.len(), idx.doc_freqs()[id as usize] as usize);
        for p in &a {
            let expected = docs[p.doc as usize].iter().filter(|t| *t == term).count();
            assert_eq!(p.tf as usize, expected);
        }
    }
}

#[test]
fn malformed_bytes_end_iteration_without_panic() {
    let cases: [&[u8]; 4] = [
        &[0, 1, 0x80],
        &[0, 1, 3],
        &[0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 1],
        &[0x85, 0x01, 0x82],
    ];
    for bytes in cases {
        let a = by_next(Postings::new(bytes));
        assert_eq!(a, by_fold(Postings::new(bytes)), "{bytes:?}");
        assert!(a.len() <= 1);
    }
}
