//! A query word repeated, alone or among others, ranks over fragments as
//! over the blob and as added once per occurrence, to the bit.

use super::{fragment, Meta, TermFragment};
use crate::blob::test_blob::danish_blob;
use crate::blob::{Blob, DocumentInput, Field};
use crate::methods::Method;
use crate::search::{Bm25Params, Bm25Variant};

/// Documents of different lengths holding "skat" different numbers of times.
fn blob() -> Vec<u8> {
    let words = ["lov", "skat", "afgift", "ret", "klage", "skat", "stk"];
    let documents: Vec<DocumentInput> = (0..200)
        .map(|d| DocumentInput {
            id: format!("d{d}"),
            text: (0..(5 + d % 37))
                .map(|w| words[(d * 3 + w * w) % words.len()])
                .collect::<Vec<_>>()
                .join(" "),
            source: "s".into(),
            ..DocumentInput::default()
        })
        .collect();
    danish_blob(&documents, &[], &[], None)
}

#[test]
fn a_repeated_word_ranks_as_over_the_blob_and_as_added_per_occurrence() {
    let bytes = blob();
    let mut loaded = Blob::load(&bytes).unwrap();
    let made = fragment(&loaded, 4096).unwrap();
    let whole = crate::pool::Pool::from_blob(&mut loaded).unwrap();
    let meta = Meta::load(&made.meta).unwrap();
    let all: Vec<TermFragment> = (0..meta.fragments().len())
        .filter_map(|n| meta.open(n, &made.fragments[n].1).ok())
        .collect();
    let given: Vec<&TermFragment> = all.iter().collect();
    for variant in [Bm25Variant::Okapi, Bm25Variant::Lucene] {
        let params = Bm25Params::new(variant);
        let once = meta.scores(Field::Text, params, &["skat"], &given).unwrap();
        for count in [2, 5, 10_000] {
            let tokens = vec!["skat"; count];
            let scores = meta.scores(Field::Text, params, &tokens, &given).unwrap();
            let expected: Vec<(u32, u64)> = once
                .iter()
                .map(|&(doc, c)| {
                    let mut total = 0.0;
                    for _ in 0..count {
                        total = match variant {
                            Bm25Variant::Okapi => total + c,
                            Bm25Variant::Lucene => f64::from(total as f32 + c as f32),
                        };
                    }
                    (doc, total.to_bits())
                })
                .collect();
            let got: Vec<(u32, u64)> = scores.iter().map(|&(d, s)| (d, s.to_bits())).collect();
            assert_eq!(got, expected, "{variant} {count}");
            let mut mixed = tokens.clone();
            mixed.extend(["lov", "zz", "lov", "skat", "skat"]);
            let ranked = meta.rank(Field::Text, params, &mixed, &given, 50).unwrap();
            let blob_ranked = whole
                .rank(&Method::Bm25, &params, &mixed, None, 50, true)
                .unwrap();
            assert_eq!(ranked, blob_ranked, "{variant} {count}");
        }
    }
}
