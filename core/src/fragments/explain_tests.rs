//! A document's score explained over fragments is the blob's explanation,
//! field for field, and totals the fragmented ranking's score to the bit.

use super::{fragment, relist, FragmentError, Meta, TermFragment, MIN_FRAGMENT_BYTES};
use crate::blob::test_blob::danish_blob;
use crate::blob::{Blob, DocumentInput, Field};
use crate::pool::Pool;
use crate::search::{Bm25Params, Bm25Variant};

/// Documents of different lengths over a vocabulary of 512 made-up words,
/// enough for several postings fragments of the smallest size.
fn blob() -> Vec<u8> {
    danish_blob(&documents(), &[], &[], None)
}

fn documents() -> Vec<DocumentInput> {
    let syllables = ["ka", "lo", "mi", "nu", "sa", "ro", "ti", "vo"];
    let word = |n: usize| {
        (0..3)
            .map(|s| syllables[(n >> (3 * s)) % 8])
            .collect::<String>()
    };
    (0..300)
        .map(|d| DocumentInput {
            id: format!("d{d}"),
            text: (0..(3 + d % 41))
                .map(|w| word((d * 7 + w * w * 13) % 512))
                .collect::<Vec<_>>()
                .join(" "),
            source: "s".into(),
            ..DocumentInput::default()
        })
        .collect()
}

#[test]
fn explains_every_document_as_the_blob_to_the_bit() {
    let bytes = blob();
    let mut loaded = Blob::load(&bytes).unwrap();
    let made = fragment(&loaded, MIN_FRAGMENT_BYTES).unwrap();
    let whole = Pool::from_blob(&mut loaded).unwrap();
    let meta = Meta::load(&made.meta).unwrap();
    let all: Vec<TermFragment> = (0..meta.fragments().len())
        .filter_map(|n| meta.open(n, &made.fragments[n].1).ok())
        .collect();
    assert!(all.len() > 2, "{} postings fragments", all.len());
    let given: Vec<&TermFragment> = all.iter().collect();
    let queries = [
        "kalomi",
        "kalomi lonuti kalomi kalomi",
        "aaaa sarovo zzzz tivoka sarovo",
        "vovovo nunuka mikaka losati rotiro",
    ];
    let mut tuned = Bm25Params::new(Bm25Variant::Okapi);
    (tuned.k1, tuned.b, tuned.epsilon) = (0.9, 0.4, 0.5);
    let params = [
        Bm25Params::new(Bm25Variant::Okapi),
        Bm25Params::new(Bm25Variant::Lucene),
        tuned,
    ];
    let (mut explained, mut without) = (0, 0);
    for query in queries {
        let tokens = meta.analyzer().tokens(query);
        for params in params {
            let scores = meta.scores(Field::Text, params, &tokens, &given).unwrap();
            for doc in 0..meta.n_docs() as u32 {
                let blob = whole.explain(&params, &tokens, doc).unwrap().unwrap();
                let cut = meta
                    .explain(Field::Text, params, &tokens, &given, doc)
                    .unwrap();
                let scored = scores.iter().find(|&&(d, _)| d == doc);
                let Some(cut) = cut else {
                    // None of the query's terms: the blob's total is 0 too.
                    assert!(blob.terms.iter().all(|t| t.tf == 0), "{query} {doc}");
                    assert_eq!(blob.total.to_bits(), 0, "{query} {doc}");
                    assert_eq!(scored, None, "{query} {doc}");
                    without += 1;
                    continue;
                };
                assert_eq!(cut, blob, "{query} {params} {doc}");
                assert_eq!(cut.total.to_bits(), blob.total.to_bits());
                let score = scored.map(|&(_, s)| s.to_bits());
                assert_eq!(Some(cut.total.to_bits()), score, "{query} {params} {doc}");
                explained += 1;
            }
        }
    }
    assert!(explained > 100 && without > 100, "{explained} {without}");
}

#[test]
fn an_unknown_document_or_a_missing_fragment_is_refused() {
    let bytes = blob();
    let loaded = Blob::load(&bytes).unwrap();
    let made = fragment(&loaded, MIN_FRAGMENT_BYTES).unwrap();
    let meta = Meta::load(&made.meta).unwrap();
    let params = Bm25Params::default();
    let tokens = meta.analyzer().tokens("kalomi");
    let n = meta.needed(Field::Text, &tokens).unwrap()[0];
    let held = meta.open(n, &made.fragments[n].1).unwrap();
    let past = meta.n_docs() as u32;
    let Err(FragmentError::Input(e)) = meta.explain(Field::Text, params, &tokens, &[&held], past)
    else {
        panic!("explained document {past} of {past}");
    };
    assert!(e.contains(&format!("no document {past}")), "{e}");
    let Err(FragmentError::Missing { file }) = meta.explain(Field::Text, params, &tokens, &[], 0)
    else {
        panic!("explained without the query's fragment");
    };
    assert_eq!(file, meta.fragments()[n].file);
}

/// Document 0's postings in one fragment from a pool where it is a word
/// longer: two of its terms' fragments give it two lengths.
#[test]
fn fragments_that_disagree_on_a_documents_length_are_refused() {
    let made = fragment(&Blob::load(&blob()).unwrap(), MIN_FRAGMENT_BYTES).unwrap();
    let mut longer = documents();
    // A word past every other, so in the last fragment alone.
    longer[0].text.push_str(" vyvyvy");
    let longer = danish_blob(&longer, &[], &[], None);
    let other = fragment(&Blob::load(&longer).unwrap(), MIN_FRAGMENT_BYTES).unwrap();
    let meta = Meta::load(&made.meta).unwrap();
    let mut tokens = meta.analyzer().tokens(&documents()[0].text);
    tokens.dedup();
    let number = |t: &String| meta.needed(Field::Text, &[t]).unwrap()[0];
    let last = *meta.needed(Field::Text, &tokens).unwrap().last().unwrap();
    let first = tokens.iter().find(|t| number(t) != last).unwrap();
    let second = tokens.iter().find(|t| number(t) != number(first)).unwrap();
    let (n, m) = (number(first), number(second));
    let swapped = &other.fragments[n].1;
    let mut relisted = made.meta.clone();
    relist(&mut relisted, n, swapped).unwrap();
    let relisted = Meta::load(&relisted).unwrap();
    let held = [
        relisted.open(n, swapped).unwrap(),
        relisted.open(m, &made.fragments[m].1).unwrap(),
    ];
    let query = [first.clone(), second.clone()];
    let given: Vec<&TermFragment> = held.iter().collect();
    let params = Bm25Params::default();
    let Err(FragmentError::Fragment { file, problem }) =
        relisted.explain(Field::Text, params, &query, &given, 0)
    else {
        panic!("explained a document two fragments give two lengths");
    };
    assert!(
        problem.contains("gives document 0 a length of"),
        "{problem}"
    );
    assert!(file == relisted.fragments()[n].file || file == relisted.fragments()[m].file);
}
