//! Behaviour of the scorer apart from reference parity (which
//! `tests/bm25_parity.rs` checks against rank_bm25 and bm25s output).

use super::*;
use crate::index::InvertedIndex;

fn scorer(docs: &[&[&str]], variant: Bm25Variant) -> Bm25Scorer {
    let index = InvertedIndex::build(docs.iter().map(|d| d.iter())).unwrap();
    Bm25Scorer::new(index, Bm25Params::new(variant)).unwrap()
}

const DOCS: &[&[&str]] = &[
    &["a", "b", "a"],
    &["c"],
    &[],
    &["b", "c", "d", "d", "d"],
    &["a"],
];
const VARIANTS: [Bm25Variant; 2] = [Bm25Variant::Okapi, Bm25Variant::Lucene];

#[test]
fn empty_query_scores_zero() {
    for v in VARIANTS {
        let s = scorer(DOCS, v);
        assert_eq!(s.scores::<&str>(&[]), [0.0; 5]);
        assert!(s.search::<&str>(&[], 10, true).is_empty());
        // Zero scores still fill the ranking, in corpus order.
        let all: Vec<u32> = s
            .search::<&str>(&[], 10, false)
            .iter()
            .map(|h| h.doc)
            .collect();
        assert_eq!(all, [0, 1, 2, 3, 4]);
    }
}

#[test]
fn unknown_tokens_add_nothing() {
    for v in VARIANTS {
        let s = scorer(DOCS, v);
        assert_eq!(s.scores(&["zz", "b", "", "yy"]), s.scores(&["b"]));
        assert_eq!(s.scores(&["zz"]), [0.0; 5]);
    }
}

#[test]
fn only_documents_with_a_query_term_score() {
    for v in VARIANTS {
        let scores = scorer(DOCS, v).scores(&["d", "a"]);
        let positive: Vec<bool> = scores.iter().map(|&x| x > 0.0).collect();
        assert_eq!(positive, [true, false, false, true, true], "{v}");
    }
}

#[test]
fn repeated_tokens_count_per_occurrence() {
    for v in VARIANTS {
        let s = scorer(DOCS, v);
        let once = s.scores(&["c"]);
        let twice = s.scores(&["c", "c"]);
        for (o, t) in once.iter().zip(&twice) {
            let expected = match v {
                Bm25Variant::Okapi => o + o,
                Bm25Variant::Lucene => f64::from(*o as f32 + *o as f32),
            };
            assert_eq!(*t, expected);
        }
    }
}

#[test]
fn lucene_scores_are_float32_values() {
    let scores = scorer(DOCS, Bm25Variant::Lucene).scores(&["a", "b", "d", "a"]);
    for x in scores {
        assert_eq!(f64::from(x as f32), x);
    }
}

#[test]
fn score_buffer_is_reset_between_queries() {
    let s = scorer(DOCS, Bm25Variant::Okapi);
    let mut buf = vec![7.0; 2];
    s.score_into(&["a"], &mut buf);
    s.score_into(&["c"], &mut buf);
    assert_eq!(buf, s.scores(&["c"]));
}

#[test]
fn empty_corpus() {
    for v in VARIANTS {
        let s = scorer(&[], v);
        assert!(s.scores(&["a"]).is_empty());
        assert!(s.search(&["a"], 10, false).is_empty());
        assert!(s.idf().is_empty());
    }
}

#[test]
fn all_documents_empty() {
    for v in VARIANTS {
        let s = scorer(&[&[], &[]], v);
        assert_eq!(s.scores(&["a"]), [0.0, 0.0]);
    }
}

#[test]
fn set_params_matches_a_fresh_scorer() {
    let mut s = scorer(DOCS, Bm25Variant::Okapi);
    let params = Bm25Params {
        variant: Bm25Variant::Lucene,
        k1: 1.2,
        b: 0.3,
        epsilon: 0.0,
    };
    s.set_params(params).unwrap();
    let fresh = Bm25Scorer::new(s.index().clone(), params).unwrap();
    assert_eq!(s.params(), params);
    assert_eq!(s.idf(), fresh.idf());
    assert_eq!(s.scores(&["a", "d"]), fresh.scores(&["a", "d"]));
}

#[test]
fn invalid_params_are_rejected() {
    let index = InvertedIndex::build(DOCS.iter().map(|d| d.iter())).unwrap();
    let params = Bm25Params {
        b: -0.5,
        ..Bm25Params::default()
    };
    assert!(matches!(
        Bm25Scorer::new(index, params),
        Err(ParamsError::OutOfRange { name: "b", .. })
    ));
}

#[test]
fn okapi_floors_negative_idf() {
    // "a" is in 4 of 5 documents: ln(1.5) − ln(4.5) < 0, so it gets
    // epsilon × mean idf instead.
    let docs: &[&[&str]] = &[&["a", "x"], &["a"], &["a", "y"], &["a"], &["z"]];
    let s = scorer(docs, Bm25Variant::Okapi);
    let raw: Vec<f64> = s
        .index()
        .doc_freqs()
        .iter()
        .map(|&df| (5.0 - f64::from(df) + 0.5).ln() - (f64::from(df) + 0.5).ln())
        .collect();
    let mean = raw.iter().sum::<f64>() / raw.len() as f64;
    assert!(raw[0] < 0.0);
    assert_eq!(s.idf()[0], 0.25 * mean);
    assert_eq!(s.idf()[1..], raw[1..]);
}

#[test]
fn explanations_name_each_term_and_add_up() {
    for v in VARIANTS {
        let s = scorer(DOCS, v);
        let query = ["d", "zzz", "a", "d"];
        let scores = s.scores(&query);
        // Doc 3 has "d" three times and no "a"; "zzz" is not in the index.
        let e = s.explain(&query, 3).unwrap();
        assert_eq!(e.total.to_bits(), scores[3].to_bits());
        assert_eq!((e.doc_len, e.avg_len), (5, 2.0));
        assert_eq!(e.norm, 1.5 * ((1.0 - 0.75) + 0.75 * 5.0 / 2.0));
        let tokens: Vec<&str> = e.terms.iter().map(|t| t.token.as_str()).collect();
        assert_eq!(tokens, query);
        let d = &e.terms[0];
        assert!(d.in_index);
        assert_eq!(
            (d.tf, d.idf),
            (3, s.idf()[s.index().term_id("d").unwrap() as usize])
        );
        assert!(d.contribution > 0.0);
        assert_eq!(e.terms[3], *d, "a repeated token counts again");
        let missing = &e.terms[1];
        assert!(!missing.in_index);
        assert_eq!(
            (missing.tf, missing.idf, missing.contribution),
            (0, 0.0, 0.0)
        );
        let a = &e.terms[2];
        assert!(a.in_index);
        assert_eq!((a.tf, a.contribution), (0, 0.0), "a doc without the term");
        // A document matching nothing scores 0; no such document: None.
        assert_eq!(s.explain(&query, 1).unwrap().total, 0.0);
        assert_eq!(s.explain(&query, 5), None);
        let text = e.to_string();
        assert!(text.contains("zzz: not in the index"), "{text}");
        assert!(text.starts_with(&format!("{} = ", scores[3])), "{text}");
    }
}

#[test]
fn a_searcher_analyses_free_text_like_its_index() {
    let analyzer = crate::analysis::Analyzer::by_name("da").unwrap();
    let texts = ["Lejeren betaler husleje", "Skat af husleje", "Ejendommen"];
    let index = InvertedIndex::build(texts.iter().map(|t| analyzer.tokens(t))).unwrap();
    let scorer = Bm25Scorer::new(index, Bm25Params::default()).unwrap();
    let mut searcher = Searcher::new(analyzer, scorer.clone());
    let query = "Husleje og skat";
    let tokens = analyzer.tokens(query);
    assert_eq!(searcher.search(query, 10), scorer.search(&tokens, 10, true));
    assert_eq!(searcher.search(query, 10)[0].doc, 1);
    let lucene = Bm25Params::new(Bm25Variant::Lucene);
    searcher.set_params(lucene).unwrap();
    assert_eq!(searcher.params(), lucene);
    let fresh = Bm25Scorer::new(scorer.index().clone(), lucene).unwrap();
    assert_eq!(searcher.search(query, 10), fresh.search(&tokens, 10, true));
}

/// A corpus where okapi idf is positive, zero (a term in exactly half the
/// documents) and floored negative, so touched documents can score ≤ 0;
/// "rare" and "tenth" have few enough postings for the scorer to list the
/// documents they touch.
fn mixed_corpus() -> Vec<Vec<String>> {
    let mut state: u32 = 99;
    (0..400)
        .map(|i| {
            let mut doc = Vec::new();
            if i % 2 == 0 {
                doc.push("half".to_owned());
            }
            if i % 40 != 0 {
                doc.push("most".to_owned());
            }
            for _ in 0..(i % 7) {
                state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
                doc.push(format!("w{}", (state >> 16) % 3));
            }
            if i % 80 == 1 {
                doc.push("rare".to_owned());
            }
            if i % 10 == 3 {
                doc.push("tenth".to_owned());
            }
            // Keeps the mean idf, and so okapi's floor, negative.
            if i % 20 != 0 {
                doc.push("nearly".to_owned());
            }
            doc
        })
        .collect()
}

#[test]
fn search_over_touched_documents_equals_selection_over_all_scores() {
    let docs = mixed_corpus();
    let index = std::sync::Arc::new(InvertedIndex::build(&docs).unwrap());
    let queries: &[&[&str]] = &[
        &["half"],
        &["most"],
        &["w1"],
        &["rare"],
        &["tenth"],
        &["tenth", "rare", "tenth"],
        &["w1", "half", "w1", "most"],
        &["rare", "half", "w0", "w2", "most"],
        &["nothing"],
        &[],
    ];
    let mut acc = Accumulator::new();
    let mut hits = Vec::new();
    for v in VARIANTS {
        let s = Bm25Scorer::new(index.clone(), Bm25Params::new(v)).unwrap();
        if v == Bm25Variant::Okapi {
            let idf = |t: &str| s.idf()[s.index().term_id(t).unwrap() as usize];
            assert_eq!(idf("half"), 0.0);
            assert!(idf("most") < 0.0);
            assert!(idf("rare") > 0.0);
        }
        for query in queries {
            let all = s.scores(query);
            for positive_only in [false, true] {
                for k in [1, 5, 40, 100, 199, 200, 201, 399, 400, 1000] {
                    // The same accumulator throughout: each query clears
                    // only what the previous one touched.
                    s.search_into(query, k, positive_only, &mut acc, &mut hits);
                    assert_eq!(acc.scores(), all.as_slice());
                    let expected = crate::hits::top_k(&all, k, positive_only);
                    assert_eq!(hits, expected, "{v} {query:?} k={k} {positive_only}");
                    assert_eq!(s.search(query, k, positive_only), expected);
                }
            }
        }
    }
}

#[test]
fn accumulator_moves_between_pools_of_other_sizes() {
    // Empty documents, so that one posting is few enough to be listed.
    let empty: &[&str] = &[];
    let big = scorer(&[DOCS, &[empty; 5]].concat(), Bm25Variant::Okapi);
    let small = scorer(&[&["a"], &["b", "a"]], Bm25Variant::Okapi);
    let mut acc = Accumulator::new();
    let mut hits = Vec::new();
    big.search_into(&["d", "a"], 3, false, &mut acc, &mut hits);
    small.search_into(&["b"], 3, false, &mut acc, &mut hits);
    assert_eq!(acc.scores(), small.scores(&["b"]).as_slice());
    assert_eq!(acc.touched(), None, "postings for half the pool");
    big.search_into(&["d"], 3, false, &mut acc, &mut hits);
    assert_eq!(acc.touched(), Some([3].as_slice()));
    assert_eq!(acc.scores(), big.scores(&["d"]).as_slice());
    big.search_into(&["c"], 5, false, &mut acc, &mut hits);
    assert_eq!(acc.scores(), big.scores(&["c"]).as_slice());
    assert_eq!(hits, crate::hits::top_k(&big.scores(&["c"]), 5, false));
}

/// Each document's score for `count` occurrences of `token`, added one by
/// one as the references add them.
fn added_per_occurrence(s: &Bm25Scorer, token: &str, count: usize) -> Vec<f64> {
    let once = s.scores(&[token]);
    once.iter()
        .map(|&c| {
            let mut total = 0.0;
            for _ in 0..count {
                total = match s.params().variant {
                    Bm25Variant::Okapi => total + c,
                    Bm25Variant::Lucene => f64::from(total as f32 + c as f32),
                };
            }
            total
        })
        .collect()
}

#[test]
fn a_repeated_term_scores_as_added_per_occurrence_in_one_pass() {
    for v in VARIANTS {
        let s = scorer(DOCS, v);
        for count in [2, 3, 7, 1_000, 10_000] {
            let query = vec!["d"; count];
            let bits = |x: Vec<f64>| x.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            assert_eq!(
                bits(s.scores(&query)),
                bits(added_per_occurrence(&s, "d", count)),
                "{v} {count}"
            );
            let explained = s.explain(&query, 3).unwrap();
            assert_eq!(explained.total.to_bits(), s.scores(&query)[3].to_bits());
            assert_eq!(explained.terms.len(), count);
            // One pass over the term's postings, however often it occurs,
            // also with unknown tokens between its occurrences.
            let mut terms = Vec::new();
            let spaced: Vec<&str> = query.iter().flat_map(|&t| [t, "zz"]).collect();
            s.term_ids(&spaced, &mut terms);
            assert_eq!(terms, [(s.index().term_id("d").unwrap(), count as u64)]);
        }
        // Interleaved, each run is a pass, in query order.
        let mut terms = Vec::new();
        s.term_ids(&["d", "d", "a", "d"], &mut terms);
        let (a, d) = (
            s.index().term_id("a").unwrap(),
            s.index().term_id("d").unwrap(),
        );
        assert_eq!(terms, [(d, 2), (a, 1), (d, 1)]);
    }
}
