use std::sync::{Mutex, OnceLock};

use super::*;
use crate::dense::DenseIndex;
use crate::hits::Hit;
use crate::index::InvertedIndex;
use crate::search::{Accumulator, Bm25Params, Bm25Scorer};

fn hit(doc: u32, score: f64) -> Hit {
    Hit { doc, score }
}

fn docs(hits: &[Hit]) -> Vec<u32> {
    hits.iter().map(|h| h.doc).collect()
}

#[test]
fn method_strings_round_trip() {
    for name in Method::NAMES.iter().chain(&Method::LLM_NAMES) {
        let m = Method::by_name(name).unwrap();
        assert_eq!(m.needs_llm(), Method::LLM_NAMES.contains(name));
        assert_eq!(m.to_string(), *name, "defaults are left out");
        assert_eq!(name.parse::<Method>(), Ok(m));
        assert_eq!(format!("{m:#}").parse::<Method>(), Ok(m));
        assert_eq!(m.name(), *name);
    }
    let m: Method = "rrf:k=20".parse().unwrap();
    assert_eq!(
        m,
        Method::Rrf {
            k: 20.0,
            depth: 100,
            probes: Method::DEFAULT_PROBES,
        }
    );
    assert_eq!(m.to_string(), "rrf:k=20");
    assert_eq!(
        format!("{m:#}"),
        format!("rrf:k=20,depth=100,probes={}", Method::DEFAULT_PROBES)
    );
    // Probes: 0 is every list; a count like any other otherwise.
    let m: Method = "dense:probes=0".parse().unwrap();
    assert_eq!(m, Method::Dense { probes: 0 });
    assert_eq!(m.to_string(), "dense:probes=0");
    let m: Method = "weighted:probes=3,w=0.25".parse().unwrap();
    assert_eq!(m.to_string(), "weighted:w=0.25,probes=3");
    assert!("rrf:probes=-1".parse::<Method>().is_err());
    assert!("bm25:probes=4".parse::<Method>().is_err());
    assert!("dense-binary:probes=4".parse::<Method>().is_err());
    let m: Method = "rocchio:beta=0.5,docs=5".parse().unwrap();
    assert_eq!(m.to_string(), "rocchio:docs=5,beta=0.5");
    assert_eq!(format!("{:#}", Method::Bm25), "bm25");
    let m: Method = "react-bm25:rounds=2,candidates=10,chars=300"
        .parse()
        .unwrap();
    assert_eq!(
        m,
        Method::ReactBm25 {
            rounds: 2,
            candidates: 10,
            chars: 300
        }
    );
    assert_eq!(m.ranks_reformulation(), None);
    let m: Method = "reform-hybrid:k=30".parse().unwrap();
    assert_eq!(
        m.ranks_reformulation(),
        Some(Method::Rrf {
            k: 30.0,
            depth: 100,
            probes: Method::DEFAULT_PROBES,
        })
    );
    assert!("react-bm25:rounds=0".parse::<Method>().is_err());
}

#[test]
fn bad_method_strings_are_named() {
    let err = |s: &str| s.parse::<Method>().unwrap_err().to_string();
    assert!(err("colbert").contains("unknown ranking method \"colbert\""));
    assert!(err("rrf:x=1").contains("no parameter \"x\" (it has k, depth, probes)"));
    assert!(err("bm25:k=1").contains("takes no parameters"));
    assert!(err("rrf:k=abc").contains("cannot read k=\"abc\""));
    assert!(err("rrf:k").contains("cannot read"));
    assert!(err("rrf:k=0").contains("k = 0 is out of range"));
    assert!(err("weighted:w=1.5").contains("out of range"));
    assert!(err("prf:docs=0").contains("out of range"));
    assert!(err("rocchio:alpha=inf").contains("out of range"));
    assert_eq!(
        "prf:terms=0".parse::<Method>().unwrap().to_string(),
        "prf:terms=0"
    );
}

#[test]
fn parameters_are_listed_and_set_one_at_a_time() {
    let rrf = Method::by_name("rrf").unwrap();
    assert_eq!(
        rrf.parameters(),
        vec![
            ("k", "60".to_owned()),
            ("depth", "100".to_owned()),
            ("probes", Method::DEFAULT_PROBES.to_string())
        ]
    );
    let m = rrf.with_param("k", "20").unwrap();
    assert_eq!(m.to_string(), "rrf:k=20");
    assert_eq!(m.parameters()[0], ("k", "20".to_owned()));
    assert!(rrf.with_param("k", "0").is_err(), "validated");
    assert!(rrf.with_param("k", "x").is_err());
    assert!(rrf.with_param("alpha", "1").is_err());
    assert!(Method::Bm25.parameters().is_empty());
}

#[test]
fn rrf_by_hand() {
    let a = [hit(0, 9.0), hit(1, 8.0)];
    let b = [hit(1, 0.9), hit(2, 0.8)];
    let fused = rrf(&[&a, &b], 60.0);
    assert_eq!(docs(&fused), [1, 0, 2]);
    assert_eq!(fused[0].score, 1.0 / 62.0 + 1.0 / 61.0);
    assert_eq!(fused[1].score, 1.0 / 61.0);
    assert_eq!(fused[2].score, 1.0 / 62.0);
    // Equal fused scores: corpus order.
    let fused = rrf(&[&[hit(5, 1.0)], &[hit(3, 1.0)]], 60.0);
    assert_eq!(docs(&fused), [3, 5]);
}

#[test]
fn rrf_of_a_list_with_itself_keeps_its_order() {
    let mut state = 99u32;
    for len in [1, 2, 17, 100] {
        let mut list: Vec<Hit> = (0..len)
            .map(|_| {
                state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
                hit(state >> 12, 0.0)
            })
            .collect();
        list.sort_by_key(|h| h.doc);
        list.dedup_by_key(|h| h.doc);
        // Any order will do as the input ranking: reverse corpus order.
        list.reverse();
        for k in [1.0, 60.0] {
            assert_eq!(docs(&rrf(&[&list, &list], k)), docs(&list));
            assert_eq!(docs(&rrf(&[&list], k)), docs(&list));
        }
    }
}

#[test]
fn weighted_fusion_by_hand() {
    // Normalised: a → 1, b → 0.5, c → 0; d → 1, b → 0.
    let lexical = [hit(0, 10.0), hit(1, 6.0), hit(2, 2.0)];
    let dense = [hit(3, 0.9), hit(1, 0.7)];
    let fused = weighted_fusion(&[(&lexical, 0.25), (&dense, 0.75)]);
    assert_eq!(docs(&fused), [3, 0, 1, 2]);
    assert_eq!(
        fused.iter().map(|h| h.score).collect::<Vec<_>>(),
        [0.75, 0.25, 0.125, 0.0]
    );
    // A list of equal scores normalises to 1 everywhere.
    let flat = weighted_fusion(&[(&[hit(4, 3.0), hit(2, 3.0)], 1.0)]);
    assert_eq!(flat, [hit(2, 1.0), hit(4, 1.0)]);
    assert!(weighted_fusion(&[(&[], 1.0)]).is_empty());
}

const DOCS: &[&[&str]] = &[
    &["tax", "income", "rate"],
    &["tax", "income", "deduction", "deduction"],
    &["marriage", "divorce"],
    &["income", "deduction", "pension"],
    &["divorce", "custody", "child"],
    &["tax", "rate", "rate"],
];

fn scorer() -> Bm25Scorer {
    let index = InvertedIndex::build(DOCS.iter().map(|d| d.iter())).unwrap();
    Bm25Scorer::new(index, Bm25Params::default()).unwrap()
}

#[test]
fn forward_index_inverts_the_postings() {
    let s = scorer();
    let forward = ForwardIndex::build(s.index());
    for (doc, tokens) in DOCS.iter().enumerate() {
        let mut expected: Vec<(u32, u32)> = Vec::new();
        for t in *tokens {
            let id = s.index().term_id(t).unwrap();
            match expected.iter_mut().find(|(term, _)| *term == id) {
                Some((_, tf)) => *tf += 1,
                None => expected.push((id, 1)),
            }
        }
        expected.sort_unstable();
        assert_eq!(forward.doc_terms(doc).collect::<Vec<_>>(), expected);
    }
    assert_eq!(forward.doc_terms(99).count(), 0);
    assert_eq!(forward.heap_bytes(), 4 * (7 + 2 * 16));
}

#[test]
fn expansion_terms_by_hand() {
    let s = scorer();
    let index = s.index();
    let forward = ForwardIndex::build(index);
    let id = |t| index.term_id(t).unwrap();
    // Feedback docs 1 and 3. Summed tf: tax 1, income 2, deduction 3,
    // pension 1. df over 6 docs: tax 3, income 3, deduction 2, pension 1.
    // w: deduction 3·ln 3 ≈ 3.30, pension ln 6 ≈ 1.79, income 2·ln 2
    // ≈ 1.39, tax ln 2 ≈ 0.69.
    let all = expansion_terms(index, &forward, &[1, 3], 10, &[]);
    assert_eq!(
        all,
        [id("deduction"), id("pension"), id("income"), id("tax")]
    );
    let some = expansion_terms(index, &forward, &[1, 3], 2, &[id("deduction")]);
    assert_eq!(some, [id("pension"), id("income")]);
    assert!(expansion_terms(index, &forward, &[], 10, &[]).is_empty());
}

/// A query of 60,000 terms over feedback documents holding them all:
/// testing every candidate against every query term took minutes.
#[test]
fn expansion_excludes_a_huge_query_in_linear_time() {
    let words: Vec<String> = (0..60_000).map(|i| format!("t{i}")).collect();
    let docs = [
        words.clone(),
        words[..30_000].to_vec(),
        vec!["other".into()],
    ];
    let index = InvertedIndex::build(docs.iter().map(|d| d.iter())).unwrap();
    let forward = ForwardIndex::build(&index);
    let own: Vec<u32> = words.iter().filter_map(|w| index.term_id(w)).collect();
    let started = std::time::Instant::now();
    let terms = expansion_terms(&index, &forward, &[0, 1], 30, &own);
    let took = started.elapsed();
    assert!(terms.is_empty(), "{terms:?}");
    assert!(took.as_secs() < 5, "took {took:?}");
    let none_excluded = expansion_terms(&index, &forward, &[0, 1], 30, &own[..59_990]);
    assert_eq!(none_excluded.len(), 10);
}

/// Two-dimensional vectors: "tax" documents point one way, family law the
/// other, so dense and lexical rankings can be told apart.
fn dense() -> DenseIndex {
    let v = [
        1.0, 0.0, // 0 tax
        0.8, 0.6, // 1 tax
        0.0, 1.0, // 2 family
        0.6, 0.8, // 3 pension
        0.1, 1.0, // 4 family
        1.0, 0.1, // 5 tax
    ];
    DenseIndex::build(&v, 2).unwrap()
}

#[test]
fn rank_runs_every_method() {
    let s = scorer();
    let d = dense();
    let forward = OnceLock::new();
    let collection = Collection {
        scorer: &s,
        forward: &forward,
        dense: Some(&d),
        ivf: None,
        scores: &Mutex::new(Accumulator::new()),
        editorial: None,
        graph: None,
        mixed: &MixCache::default(),
    };
    let tokens = ["deduction"];
    let embedding = [0.0f32, 1.0];
    let query = MethodQuery {
        tokens: &tokens,
        embedding: Some(&embedding),
    };
    let run = |m: &str, k| docs(&rank(&m.parse().unwrap(), &collection, &query, k, true).unwrap());

    assert_eq!(run("bm25", 10), docs(&s.search(&tokens, 10, true)));
    assert_eq!(run("bm25", 10), [1, 3]);
    assert!(forward.get().is_none(), "built only for PRF");
    // PRF adds pension, income and tax from docs 1 and 3; income and tax
    // (in half the documents) have okapi idf 0, pension lifts doc 3.
    assert_eq!(run("prf:docs=2,terms=30", 10), [3, 1]);
    assert_eq!(run("prf:docs=2,terms=30", 3), [3, 1]);
    assert!(forward.get().is_some());
    assert_eq!(run("prf:terms=0", 10), run("bm25", 10));
    assert_eq!(run("dense", 3), [2, 4, 3]);
    assert_eq!(run("dense-binary", 6), run("dense", 6));
    assert_eq!(run("rocchio:beta=0", 6), run("dense", 6));
    // Fusion: BM25 ranks 1, 3; dense ranks 2, 4, 3, 1, 5, 0. RRF: doc 1
    // 1/61 + 1/64 > doc 3 1/62 + 1/63 > doc 2 1/61.
    assert_eq!(run("dense", 6), [2, 4, 3, 1, 5, 0]);
    assert_eq!(run("rrf", 3), [1, 3, 2]);
    // w = 0: only BM25 counts, and min-max puts its last (doc 3) at 0,
    // level with every document it lacks.
    assert_eq!(run("weighted:w=0", 2), [1, 0]);
    assert_eq!(run("weighted:w=1", 6), run("dense", 6));
}

#[test]
fn dense_methods_explain_what_is_missing() {
    let s = scorer();
    let forward = OnceLock::new();
    let tokens = ["tax"];
    let no_vectors = Collection {
        scorer: &s,
        forward: &forward,
        dense: None,
        ivf: None,
        scores: &Mutex::new(Accumulator::new()),
        editorial: None,
        graph: None,
        mixed: &MixCache::default(),
    };
    let with_embedding = MethodQuery {
        tokens: &tokens,
        embedding: Some(&[1.0, 0.0]),
    };
    for m in ["dense", "dense-binary", "rocchio", "rrf", "weighted"] {
        let m: Method = m.parse().unwrap();
        assert!(m.needs_dense());
        assert_eq!(
            rank(&m, &no_vectors, &with_embedding, 10, true),
            Err(RankError::NoDenseVectors)
        );
    }
    let d = dense();
    let with_vectors = Collection {
        dense: Some(&d),
        ..no_vectors
    };
    let no_embedding = MethodQuery {
        tokens: &tokens,
        embedding: None,
    };
    assert_eq!(
        rank(
            &Method::Dense { probes: 0 },
            &with_vectors,
            &no_embedding,
            10,
            true
        ),
        Err(RankError::NoQueryEmbedding)
    );
    let wrong_dim = MethodQuery {
        tokens: &tokens,
        embedding: Some(&[1.0, 0.0, 0.0]),
    };
    assert!(matches!(
        rank(
            &Method::Dense { probes: 0 },
            &with_vectors,
            &wrong_dim,
            10,
            true
        ),
        Err(RankError::Dense(_))
    ));
    let small = DenseIndex::build(&[1.0, 0.0], 2).unwrap();
    let mismatched = Collection {
        dense: Some(&small),
        ..no_vectors
    };
    assert_eq!(
        rank(
            &Method::Dense { probes: 0 },
            &mismatched,
            &with_embedding,
            10,
            true
        ),
        Err(RankError::SizeMismatch {
            lexical: 6,
            dense: 1
        })
    );
    // Lexical methods need neither.
    assert!(rank(&Method::Bm25, &no_vectors, &no_embedding, 10, true).is_ok());
    let invalid = Method::Rrf {
        k: -1.0,
        depth: 1,
        probes: 1,
    };
    assert!(matches!(
        rank(&invalid, &with_vectors, &with_embedding, 10, true),
        Err(RankError::Method(_))
    ));
}

#[test]
fn run_tags_name_the_bm25_settings_in_their_text_form() {
    let rrf = Method::by_name("rrf").unwrap();
    let okapi = Bm25Params::default();
    assert_eq!(
        rrf.describe_with(&okapi),
        format!(
            "rrf:k=60,depth=100,probes={}+okapi:k1=1.5,b=0.75",
            Method::DEFAULT_PROBES
        )
    );
    let lucene = Bm25Params {
        k1: 1.2,
        ..Bm25Params::new(crate::search::Bm25Variant::Lucene)
    };
    assert_eq!(
        Method::Bm25.describe_with(&lucene),
        "bm25+lucene:k1=1.2,b=0.75"
    );
    assert_eq!(
        Method::Dense { probes: 4 }.describe_with(&okapi),
        "dense:probes=4"
    );
}

#[test]
fn hybrid_is_the_default_where_there_are_vectors() {
    assert_eq!(Method::default_for(true), Method::by_name("rrf").unwrap());
    assert_eq!(Method::default_for(false), Method::Bm25);
}
