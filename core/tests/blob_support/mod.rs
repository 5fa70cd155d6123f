//! A real blob for the blob tests: the Greek Constitution (`el-syntagma`),
//! one document per article, with paragraphs, sibling and citation links,
//! and queries made from the article headings.

use nomos_core::analysis::Analyzer;
use nomos_core::blob::{BlobInput, DenseInput, DocumentInput, JudgmentInput, Manifest, QueryInput};
use nomos_core::dense::DenseIndex;
use nomos_core::embed::{Pooling, Windows};
use nomos_core::index::InvertedIndex;
use nomos_core::search::{Bm25Params, Bm25Variant};
use serde_json::Value;

const SYNTAGMA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../shared/data/el-syntagma/syntagma.json"
);

pub struct Sample {
    pub documents: Vec<DocumentInput>,
    pub queries: Vec<QueryInput>,
    pub judgments: Vec<JudgmentInput>,
    pub index: InvertedIndex,
    pub augmented: InvertedIndex,
    /// Pseudo-random unit vectors standing in for embeddings (the format
    /// does not care what the vectors mean).
    pub dense: DenseIndex,
    pub dense_augmented: DenseIndex,
}

pub const DENSE_DIM: usize = 384;

/// `n` deterministic unit vectors of [`DENSE_DIM`] values.
pub fn unit_vectors(n: usize, seed: u64) -> Vec<f32> {
    let mut state = seed;
    let mut out = Vec::with_capacity(n * DENSE_DIM);
    for _ in 0..n {
        let v: Vec<f32> = (0..DENSE_DIM)
            .map(|_| {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                // A shared offset makes them anisotropic, like e5's.
                (state >> 40) as f32 / (1u64 << 24) as f32 - 0.3
            })
            .collect();
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        out.extend(v.iter().map(|x| x / norm));
    }
    out
}

pub fn sample() -> Sample {
    let raw = std::fs::read_to_string(SYNTAGMA).expect("shared/data/el-syntagma/syntagma.json");
    let articles: Vec<Value> = serde_json::from_str(&raw).unwrap();
    let n = articles.len();
    let id = |i: usize| format!("Syntagma::{}", i + 1);
    let mut documents = Vec::new();
    let mut queries = Vec::new();
    let mut judgments = Vec::new();
    for (i, a) in articles.iter().enumerate() {
        let title = a["title"].as_str().unwrap().to_owned();
        let paragraphs: Vec<String> = a["content"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap().to_owned())
            .collect();
        let heading = title.rsplit(" - ").next().unwrap().to_owned();
        documents.push(DocumentInput {
            id: id(i),
            title: title.clone(),
            text: paragraphs.join("\n"),
            // Exercise the augmented field on some documents.
            augmented: (i % 4 == 0).then(|| format!("{heading}\n{}", paragraphs.join(" "))),
            source: "Syntagma".into(),
            area: Some(
                if i < n / 2 {
                    "first half"
                } else {
                    "second half"
                }
                .into(),
            ),
            paragraphs,
            explicit_refs: vec![id((i * 7) % n), "Syntagma::missing".into()],
            implicit_refs: [i.checked_sub(1), (i + 1 < n).then_some(i + 1)]
                .into_iter()
                .flatten()
                .map(id)
                .collect(),
            definition_refs: Vec::new(),
            // Exercise the display-only path and version date on some.
            path: match i % 3 {
                0 => Vec::new(),
                n => (0..n).map(|d| format!("ΤΜΗΜΑ {d}: {heading}")).collect(),
            },
            version_date: (i % 2 == 0).then(|| format!("2019-11-{:02}", 1 + i % 28)),
        });
        if i % 5 == 0 {
            queries.push(QueryInput {
                id: format!("q{i}"),
                text: heading,
                area: (i % 2 == 0).then(|| "first half".into()),
            });
            judgments.push(JudgmentInput {
                query_id: format!("q{i}"),
                doc_id: id(i),
                relevance: 1,
            });
        }
    }
    judgments.push(JudgmentInput {
        query_id: "q0".into(),
        doc_id: "Syntagma::missing".into(),
        relevance: 1,
    });
    let analyzer = Analyzer::by_name("gbr-greek").unwrap();
    let index = InvertedIndex::build(documents.iter().map(|d| analyzer.tokens(&d.text))).unwrap();
    let augmented = InvertedIndex::build(
        documents
            .iter()
            .map(|d| analyzer.tokens(d.augmented.as_deref().unwrap_or(&d.text))),
    )
    .unwrap();
    let n_docs = documents.len();
    Sample {
        documents,
        queries,
        judgments,
        index,
        augmented,
        dense: DenseIndex::build(&unit_vectors(n_docs, 1), DENSE_DIM).unwrap(),
        dense_augmented: DenseIndex::build(&unit_vectors(n_docs, 2), DENSE_DIM).unwrap(),
    }
}

pub fn input(s: &Sample) -> BlobInput<'_> {
    BlobInput {
        sources: &[],
        builder: "blob tests".into(),
        analyzer: "gbr-greek".into(),
        bm25: Bm25Params::new(Bm25Variant::Okapi).into(),
        manifest: Manifest {
            title: "Greek Constitution".into(),
            dataset: "el-syntagma".into(),
            files: Vec::new(),
            notes: vec!["test pool".into()],
        },
        documents: &s.documents,
        queries: &s.queries,
        judgments: &s.judgments,
        text_index: &s.index,
        augmented_index: Some(&s.augmented),
        editorial_index: None,
        dense: Some(DenseInput {
            model: "test-model".into(),
            model_hash: "0123abcd".into(),
            // One vector per document.
            pooling: Pooling::new(Windows::First, false),
            text: &s.dense,
            augmented: Some(&s.dense_augmented),
            hybrid: None,
        }),
    }
}
