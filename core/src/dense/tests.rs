use super::*;
use crate::hits::Hit;

/// Deterministic pseudo-random numbers for property-style tests.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) as u32
    }

    /// Uniform in −1..1.
    fn real(&mut self) -> f32 {
        self.next() as f32 / (1u64 << 30) as f32 - 1.0
    }

    fn code(&mut self) -> i8 {
        ((self.next() % 255) as i32 - 127) as i8
    }
}

fn random_vectors(rng: &mut Lcg, n: usize, dim: usize) -> Vec<f32> {
    (0..n * dim).map(|_| rng.real()).collect()
}

fn docs(hits: &[Hit]) -> Vec<u32> {
    hits.iter().map(|h| h.doc).collect()
}

#[test]
fn int8_codes_by_hand() {
    let index = DenseIndex::build(&[0.5, -0.25, 0.0, 1.0], 4).unwrap();
    assert_eq!(index.scales(), [1.0 / 127.0]);
    // 0.5 · 127 = 63.5 and 0.25 · 127 = 31.75 round away from zero.
    assert_eq!(index.codes(), [64, -32, 0, 127]);
}

#[test]
fn zero_vector_gets_zero_scale_and_scores_zero() {
    let index = DenseIndex::build(&[0.0, 0.0, 0.6, 0.8], 2).unwrap();
    assert_eq!(index.scales()[0], 0.0);
    assert_eq!(index.codes()[..2], [0, 0]);
    let hits = index.search(&[1.0, 1.0], 2).unwrap();
    assert_eq!(docs(&hits), [1, 0]);
    assert_eq!(hits[1].score, 0.0);
}

#[test]
fn sign_bits_are_relative_to_the_mean() {
    // Mean (2/3, 2/3): raw signs would all be "positive".
    let index = DenseIndex::build(&[1.0, 0.0, 0.0, 1.0, 1.0, 1.0], 2).unwrap();
    assert_eq!(index.mean(), [2.0 / 3.0, 2.0 / 3.0]);
    assert_eq!(index.bits(), [0b01, 0b10, 0b11]);
    assert_eq!(index.query_bits(&[0.9, 0.1]), [0b01]);
}

#[test]
fn bits_span_several_words() {
    let dim = 130;
    let mut v = vec![0f32; 2 * dim];
    v[dim] = 1.0;
    v[dim + 64] = 1.0;
    v[dim + 129] = 1.0;
    let index = DenseIndex::build(&v, dim).unwrap();
    assert_eq!(index.bits().len(), 6);
    assert_eq!(index.bits()[3..], [1, 1, 1 << 1]);
}

/// Vectors `2⁻⁷ · c` with integer codes whose largest magnitude is 127 are
/// stored exactly, and with small integer queries every product and sum is
/// exact in f32: int8 scores then equal exact dot products.
#[test]
fn int8_ranking_equals_exact_ranking_on_representable_vectors() {
    let mut rng = Lcg(7);
    let (n, dim) = (300, 24);
    let step = 1.0 / 128.0;
    let mut vectors = Vec::new();
    for _ in 0..n {
        let mut codes: Vec<i8> = (0..dim).map(|_| rng.code()).collect();
        codes[(rng.next() as usize) % dim] = 127;
        vectors.extend(codes.iter().map(|&c| f32::from(c) * step));
    }
    let index = DenseIndex::build(&vectors, dim).unwrap();
    assert!(index.scales().iter().all(|&s| s == step));
    for _ in 0..20 {
        let query: Vec<f32> = (0..dim).map(|_| (rng.next() % 9) as f32 - 4.0).collect();
        let exact: Vec<f64> = vectors
            .chunks_exact(dim)
            .map(|v| v.iter().zip(&query).map(|(&x, &q)| f64::from(x * q)).sum())
            .collect();
        let mut expected: Vec<u32> = (0..n as u32).collect();
        expected.sort_by(|&a, &b| exact[b as usize].total_cmp(&exact[a as usize]));
        let mut scores = Vec::new();
        index.score_into(&query, &mut scores).unwrap();
        assert_eq!(scores, exact);
        assert_eq!(docs(&index.search(&query, n).unwrap()), expected);
    }
}

/// Off representable values, a score differs from the exact `scale · Σ q_i
/// c_i` only by the query's rounding: at most half a step per component.
#[test]
fn scores_are_within_the_query_rounding_of_exact() {
    let mut rng = Lcg(11);
    let (n, dim) = (200, 384);
    let index = DenseIndex::build(&random_vectors(&mut rng, n, dim), dim).unwrap();
    for _ in 0..10 {
        let query: Vec<f32> = (0..dim).map(|_| rng.real() * 0.1).collect();
        let max = query.iter().fold(0f32, |m, x| m.max(x.abs()));
        let mut scores = Vec::new();
        index.score_into(&query, &mut scores).unwrap();
        for (doc, &score) in scores.iter().enumerate() {
            let codes = &index.codes()[doc * dim..(doc + 1) * dim];
            let scale = f64::from(index.scales()[doc]);
            let exact: f64 = query
                .iter()
                .zip(codes)
                .map(|(&q, &c)| f64::from(q) * f64::from(c))
                .sum();
            // Half a step is at most max / 2^15; each code at most 127.
            let bound = scale * dim as f64 * 127.0 * f64::from(max) / 32768.0;
            assert!(
                (score - scale * exact).abs() <= bound,
                "doc {doc}: {score} vs {}",
                scale * exact
            );
        }
    }
}

/// The integer dot product cannot overflow, whatever the dimension.
#[test]
fn extreme_codes_in_long_vectors_score_exactly() {
    let dim = 20_000;
    let vectors: Vec<f32> = (0..2 * dim)
        .map(|i| if i < dim { 1.0 } else { -1.0 })
        .collect();
    let index = DenseIndex::build(&vectors, dim).unwrap();
    let query = vec![1.0f32; dim];
    let mut scores = Vec::new();
    index.score_into(&query, &mut scores).unwrap();
    // Codes ±127 with scale 1/127, query codes 2^14 with step 2^-14.
    let scale = f64::from(1.0f32 / 127.0);
    assert_eq!(
        scores,
        [scale * (dim as f64 * 127.0), scale * -(dim as f64 * 127.0)]
    );
}

#[test]
fn binary_with_every_candidate_equals_brute_force() {
    let mut rng = Lcg(11);
    let (n, dim) = (500, 70);
    let index = DenseIndex::build(&random_vectors(&mut rng, n, dim), dim).unwrap();
    for _ in 0..10 {
        let query: Vec<f32> = (0..dim).map(|_| rng.real()).collect();
        for k in [1, 10, 100, n] {
            let brute = index.search(&query, k).unwrap();
            assert_eq!(index.search_binary(&query, k, n).unwrap(), brute);
            assert_eq!(index.search_binary(&query, k, 10 * n).unwrap(), brute);
        }
    }
}

#[test]
fn binary_first_pass_then_rescoring() {
    let vectors = [
        1.0, 1.0, 0.0, 0.0, // doc 0
        1.0, 0.0, 0.0, 0.0, // doc 1
        0.0, 1.0, 0.0, 0.0, // doc 2
        0.0, 0.0, 1.0, 1.0, // doc 3
    ];
    let index = DenseIndex::build(&vectors, 4).unwrap();
    // Mean (0.5, 0.5, 0.25, 0.25): bits 0011, 0001, 0010, 1100.
    assert_eq!(index.bits(), [0b0011, 0b0001, 0b0010, 0b1100]);
    let query = [0.1, 0.9, 0.1, 0.1];
    // Query bits 0010: Hamming distances 1, 2, 0, 3.
    assert_eq!(index.query_bits(&query), [0b0010]);
    // One candidate: the Hamming nearest, though doc 0 scores higher.
    assert_eq!(docs(&index.search_binary(&query, 1, 1).unwrap()), [2]);
    // Two candidates (docs 2 and 0), rescored: 1.0 before 0.9.
    assert_eq!(docs(&index.search_binary(&query, 2, 2).unwrap()), [0, 2]);
    // k raises the candidate count to 3: doc 1 (0.1) joins, doc 3 does not.
    assert_eq!(docs(&index.search_binary(&query, 3, 1).unwrap()), [0, 2, 1]);
}

#[test]
fn ties_rank_in_corpus_order() {
    let index = DenseIndex::build(&[0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0], 2).unwrap();
    let hits = index.search(&[1.0, 1.0], 4).unwrap();
    assert_eq!(docs(&hits), [0, 1, 2, 3]);
    assert_eq!(
        docs(&index.search_binary(&[1.0, 1.0], 4, 4).unwrap()),
        [0, 1, 2, 3]
    );
}

#[test]
fn rocchio_by_hand() {
    // Doc 1 is stored exactly as (0, 1).
    let index = DenseIndex::build(&[1.0, 0.0, 0.0, 1.0], 2).unwrap();
    let moved = index.rocchio(&[1.0, 0.0], &[1], 1.0, 0.25);
    let norm = (1.0f64 + 0.0625).sqrt();
    assert_eq!(moved, [(1.0 / norm) as f32, (0.25 / norm) as f32]);
    // No feedback: the query, normalised; out-of-range feedback is ignored.
    assert_eq!(index.rocchio(&[3.0, 4.0], &[9], 1.0, 0.25), [0.6, 0.8]);
}

#[test]
fn query_checks() {
    let index = DenseIndex::build(&[1.0, 0.0], 2).unwrap();
    assert!(matches!(
        index.search(&[1.0], 1),
        Err(DenseError::LengthMismatch {
            expected: 2,
            found: 1,
            ..
        })
    ));
    assert_eq!(
        index.search(&[1.0, f32::NAN], 1),
        Err(DenseError::NonFinite {
            what: "query",
            at: 1
        })
    );
}

#[test]
fn build_refuses_bad_input() {
    assert_eq!(DenseIndex::build(&[], 0), Err(DenseError::ZeroDimension));
    assert!(matches!(
        DenseIndex::build(&[1.0, 2.0, 3.0], 2),
        Err(DenseError::LengthMismatch { .. })
    ));
    assert_eq!(
        DenseIndex::build(&[1.0, f32::INFINITY], 2),
        Err(DenseError::NonFinite {
            what: "vector",
            at: 1
        })
    );
    let empty = DenseIndex::build(&[], 3).unwrap();
    assert_eq!(empty.n_docs(), 0);
    assert!(empty.search(&[0.0; 3], 5).unwrap().is_empty());
    assert!(empty.search_binary(&[0.0; 3], 5, 1).unwrap().is_empty());
}

#[test]
fn parts_round_trip_and_are_checked() {
    let mut rng = Lcg(3);
    let index = DenseIndex::build(&random_vectors(&mut rng, 5, 70), 70).unwrap();
    let parts = index.clone().into_parts();
    assert_eq!(DenseIndex::from_parts(parts.clone()).unwrap(), index);

    let broken = |f: &dyn Fn(&mut DenseParts)| {
        let mut p = parts.clone();
        f(&mut p);
        DenseIndex::from_parts(p).unwrap_err()
    };
    assert_eq!(broken(&|p| p.dim = 0), DenseError::ZeroDimension);
    assert!(matches!(
        broken(&|p| {
            p.codes.pop();
        }),
        DenseError::LengthMismatch { what: "codes", .. }
    ));
    assert!(matches!(
        broken(&|p| p.bits.push(0)),
        DenseError::LengthMismatch { what: "bits", .. }
    ));
    assert!(matches!(
        broken(&|p| p.mean.push(0.0)),
        DenseError::LengthMismatch { what: "mean", .. }
    ));
    assert!(matches!(
        broken(&|p| p.scales.push(1.0)),
        DenseError::LengthMismatch { .. }
    ));
    assert_eq!(
        broken(&|p| p.scales[2] = f32::NAN),
        DenseError::NonFinite {
            what: "scale",
            at: 2
        }
    );
    assert_eq!(
        broken(&|p| p.mean[69] = f32::INFINITY),
        DenseError::NonFinite {
            what: "mean",
            at: 69
        }
    );
    assert_eq!(
        broken(&|p| p.scales[1] = -1.0),
        DenseError::NegativeScale { doc: 1 }
    );
    assert_eq!(
        broken(&|p| p.codes[3 * 70 + 5] = -128),
        DenseError::CodeOutOfRange { doc: 3 }
    );
    // 70 dimensions: the second word of each document uses 6 bits.
    assert_eq!(
        broken(&|p| p.bits[2 * 2 + 1] |= 1 << 6),
        DenseError::StrayBits { doc: 2 }
    );
}

#[test]
fn passages_are_checked() {
    // Five vectors: document 0 has two, document 1 three.
    let mut rng = Lcg(5);
    let vectors = random_vectors(&mut rng, 5, 8);
    let good = Passages {
        offsets: vec![0, 2, 5],
        starts: vec![0, 40, 0, 10, 90],
    };
    let index = DenseIndex::build_passages(&vectors, 8, Some(good.clone())).unwrap();
    assert_eq!((index.n_docs(), index.n_vectors()), (2, 5));
    assert_eq!((index.doc_vectors(1), index.passage_start(4)), (2..5, 90));
    let parts = index.into_parts();
    let with = |passages: Passages| {
        DenseIndex::from_parts(DenseParts {
            passages: Some(passages),
            ..parts.clone()
        })
    };
    assert!(with(good.clone()).is_ok());
    let bad = |offsets: Vec<u32>, starts: Vec<u32>| with(Passages { offsets, starts }).unwrap_err();
    // Not ending at the number of vectors, a document without vectors, a
    // start missing, a document's first start not 0, starts falling.
    assert_eq!(
        bad(vec![0, 2, 4], good.starts.clone()),
        DenseError::BadPassages { doc: 0 }
    );
    assert_eq!(
        bad(vec![0, 2, 2, 5], good.starts.clone()),
        DenseError::BadPassages { doc: 1 }
    );
    assert_eq!(
        bad(good.offsets.clone(), vec![0, 40, 0, 10]),
        DenseError::BadPassages { doc: 0 }
    );
    assert_eq!(
        bad(good.offsets.clone(), vec![0, 40, 5, 10, 90]),
        DenseError::BadPassages { doc: 1 }
    );
    assert_eq!(
        bad(good.offsets.clone(), vec![0, 40, 0, 90, 10]),
        DenseError::BadPassages { doc: 1 }
    );
    // A run past the vectors that later offsets fall back from (found by
    // the fuzzer: it sliced the starts out of range and panicked).
    assert_eq!(
        bad(vec![0, 4100, 5], good.starts.clone()),
        DenseError::BadPassages { doc: 0 }
    );
}

/// Unit vectors in `dim` dimensions, deterministic.
fn ivf_vectors(n: usize, dim: usize) -> Vec<f32> {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut out = Vec::with_capacity(n * dim);
    for _ in 0..n {
        let v: Vec<f32> = (0..dim)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 40) as f32 / (1u64 << 23) as f32 - 1.0
            })
            .collect();
        let norm = v.iter().map(|a| a * a).sum::<f32>().sqrt();
        out.extend(v.iter().map(|a| a / norm));
    }
    out
}

#[test]
fn ivf_lists_are_seeded_and_cover_every_vector_once() {
    let index = DenseIndex::build(&ivf_vectors(200, 16), 16).unwrap();
    let a = Ivf::build(&index, 14, 1).unwrap();
    assert_eq!(
        a,
        Ivf::build(&index, 14, 1).unwrap(),
        "same seed, same lists"
    );
    assert_ne!(a, Ivf::build(&index, 14, 2).unwrap());
    assert_eq!(a.n_lists(), 14);
    let mut all: Vec<u32> = (0..14).flat_map(|l| a.list(l).to_vec()).collect();
    all.sort_unstable();
    assert_eq!(all, (0..200).collect::<Vec<u32>>());
    assert_eq!(Ivf::default_lists(10_000), 100);
    assert_eq!(Ivf::build(&index, 500, 1).unwrap().n_lists(), 200);
    assert!(Ivf::build(&index, 0, 1).is_err());
    assert_eq!(Ivf::from_parts(&index, a.parts().clone()), Ok(a));
}

#[test]
fn probing_every_list_is_brute_force_and_fewer_lists_a_subset() {
    let index = DenseIndex::build(&ivf_vectors(300, 16), 16).unwrap();
    let ivf = Ivf::build(&index, 17, 5).unwrap();
    for query in ivf_vectors(10, 16).chunks(16).map(|q| q.to_vec()) {
        let brute = index.search(&query, 300).unwrap();
        assert_eq!(index.search_ivf(&ivf, &query, 300, 0).unwrap(), brute);
        assert_eq!(index.search_ivf(&ivf, &query, 300, 99).unwrap(), brute);
        let codes = QueryCodes::new(&query);
        let probed = ivf.probed(&codes, 3);
        assert_eq!(probed.len(), 3);
        let members: Vec<u32> = probed.iter().flat_map(|&l| ivf.list(l).to_vec()).collect();
        let few = index.search_ivf(&ivf, &query, 300, 3).unwrap();
        assert_eq!(few.len(), members.len());
        for hit in &few {
            assert!(members.contains(&hit.doc));
            let exact = brute.iter().find(|b| b.doc == hit.doc).unwrap();
            assert_eq!(hit.score.to_bits(), exact.score.to_bits());
        }
    }
}

#[test]
fn a_document_scores_as_its_best_probed_vector() {
    // Document 0 has vectors 0 and 1, document 1 vector 2.
    let vectors = [1.0, 0.0, 0.0, 1.0, 0.7, 0.7];
    let passages = Passages {
        offsets: vec![0, 2, 3],
        starts: vec![0, 4, 0],
    };
    let index = DenseIndex::build_passages(&vectors, 2, Some(passages)).unwrap();
    let ivf = Ivf::build(&index, 3, 1).unwrap();
    let query = [0.0, 1.0];
    assert_eq!(
        index.search_ivf(&ivf, &query, 2, 0).unwrap(),
        index.search(&query, 2).unwrap()
    );
    // One list: only the best list's vector counts.
    let one = index.search_ivf(&ivf, &query, 2, 1).unwrap();
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].doc, 0);
}

#[test]
fn stored_lists_are_checked() {
    let index = DenseIndex::build(&ivf_vectors(30, 8), 8).unwrap();
    let good = Ivf::build(&index, 4, 1).unwrap().parts().clone();
    let bad = |edit: &dyn Fn(&mut IvfParts), expected: &str| {
        let mut parts = good.clone();
        edit(&mut parts);
        let err = Ivf::from_parts(&index, parts).unwrap_err().to_string();
        assert!(err.contains(expected), "{expected}: {err}");
    };
    bad(&|p| p.centroid_codes[0] = i8::MIN, "-128");
    bad(&|p| p.centroid_codes.truncate(1), "centroid codes");
    bad(&|p| p.centroid_scales[1] = f32::INFINITY, "scale");
    // The last member of the last list is its largest.
    bad(&|p| *p.members.last_mut().unwrap() = 30, "out of range");
    bad(&|p| p.offsets[1] = p.offsets[2] + 1, "offsets");
    bad(&|p| p.members.truncate(29), "offsets");
    bad(
        &|p| {
            let l = (0..4)
                .find(|&l| p.offsets[l + 1] - p.offsets[l] >= 2)
                .unwrap();
            let at = p.offsets[l] as usize;
            p.members.swap(at, at + 1);
        },
        "ascending",
    );
    // A vector in two lists (and another in none).
    bad(
        &|p| {
            let (l, m) = (0..3)
                .find_map(|l| {
                    let next = p.offsets[l + 1] as usize;
                    (next > p.offsets[l] as usize && next < p.offsets[l + 2] as usize)
                        .then_some((l, next))
                })
                .unwrap();
            p.members[m] = p.members[p.offsets[l] as usize];
            p.members[m..p.offsets[l + 2] as usize].sort_unstable();
        },
        "two lists",
    );
}

#[test]
fn copies_of_a_vector_train_the_lists_once() {
    // 20 distinct vectors, the first of them copied 500 times: trained on
    // copies, most first centroids would be that one vector, their lists
    // empty for good.
    let distinct = ivf_vectors(20, 16);
    let mut vectors = distinct.clone();
    for _ in 0..500 {
        vectors.extend_from_slice(&distinct[..16]);
    }
    let index = DenseIndex::build(&vectors, 16).unwrap();
    let ivf = Ivf::build(&index, 30, 1).unwrap();
    assert_eq!(ivf.n_lists(), 20, "at most one list per distinct vector");
    let empty = (0..20).filter(|&l| ivf.list(l).is_empty()).count();
    assert_eq!(empty, 0, "every distinct vector starts a list of its own");
    let copies = (0..20).find(|&l| ivf.list(l).contains(&20)).unwrap();
    assert!((20..520).all(|v| ivf.list(copies).contains(&v)));
}
