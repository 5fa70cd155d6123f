//! The tiny pool the seeds are made of, and the files it makes: the blob
//! itself, split into a light blob and its siblings, and cut into a
//! fragmented pool with inverted lists. The checks of files that belong
//! to a pool (siblings, fragments) check them against these.

use std::sync::OnceLock;

use nomos_core::blob::{split, Blob, Field, SiblingKind, Split, DEFAULT_PART_BYTES};
use nomos_core::dense::Ivf;
use nomos_core::fragments::{fragment_with_lists, Fragmented, MIN_FRAGMENT_BYTES};

/// The tiny blob split into a light blob and its text and vectors files.
pub fn light() -> &'static Split {
    static LIGHT: OnceLock<Split> = OnceLock::new();
    LIGHT.get_or_init(|| {
        split(&tiny_blob(), "tiny", &SiblingKind::ALL, DEFAULT_PART_BYTES)
            .expect("the tiny blob splits")
    })
}

/// The tiny blob cut into a meta file and fragments, with two inverted
/// lists, so that every kind of fragment is there.
pub fn fragmented() -> &'static Fragmented {
    static FRAGMENTED: OnceLock<Fragmented> = OnceLock::new();
    FRAGMENTED.get_or_init(|| {
        let blob = Blob::load(&tiny_blob()).expect("the tiny blob loads");
        let vectors = blob.dense(Field::Text).expect("the tiny blob has vectors");
        let ivf = Ivf::build(vectors, 2, 1).expect("two lists of six vectors");
        fragment_with_lists(&blob, MIN_FRAGMENT_BYTES, Some(&ivf)).expect("the tiny blob cuts")
    })
}

/// Three short documents with paragraphs, an augmented text, citations and
/// siblings, two queries with judgments, and vectors of 8 dimensions kept
/// two per document (title+max), so every section is present and small.
pub fn tiny_blob() -> Vec<u8> {
    use nomos_core::analysis::Analyzer;
    use nomos_core::blob::{encode, BlobInput, DenseInput, DocumentInput, JudgmentInput};
    use nomos_core::blob::{Manifest, QueryInput};
    use nomos_core::dense::{DenseIndex, Passages};
    use nomos_core::embed::{Pooling, Windows};
    use nomos_core::index::InvertedIndex;
    use nomos_core::search::{Bm25Params, Bm25Variant};

    let texts = [
        (
            "a",
            "Fishing rights",
            vec!["Fishing at sea.", "Rights of way."],
        ),
        ("b", "Shores", vec!["The sea shore is public."]),
        ("c", "Ways", vec!["A way along the shore."]),
    ];
    let documents: Vec<DocumentInput> = texts
        .iter()
        .enumerate()
        .map(|(i, (id, title, paragraphs))| DocumentInput {
            id: (*id).into(),
            title: (*title).into(),
            text: paragraphs.join("\n"),
            augmented: (i == 0).then(|| "fishing rights at sea".into()),
            source: "Act 1".into(),
            area: (i < 2).then(|| "sea".into()),
            paragraphs: paragraphs.iter().map(|p| (*p).into()).collect(),
            explicit_refs: vec![["b", "c", "a"][i].into()],
            implicit_refs: vec![["c", "a", "b"][i].into()],
            definition_refs: Vec::new(),
            path: Vec::new(),
            version_date: None,
        })
        .collect();
    let queries = [("q1", "fishing at sea"), ("q2", "the shore")].map(|(id, text)| QueryInput {
        id: id.into(),
        text: text.into(),
        area: Some("sea".into()),
    });
    let judgments =
        [("q1", "a", 2), ("q2", "b", 1), ("q2", "c", 1)].map(|(q, d, r)| JudgmentInput {
            query_id: q.into(),
            doc_id: d.into(),
            relevance: r,
        });
    let analyzer = Analyzer::by_name("da").unwrap();
    let index = InvertedIndex::build(documents.iter().map(|d| analyzer.tokens(&d.text))).unwrap();
    let augmented = InvertedIndex::build(
        documents
            .iter()
            .map(|d| analyzer.tokens(d.augmented.as_deref().unwrap_or(&d.text))),
    )
    .unwrap();
    const DIM: usize = 8;
    let vectors: Vec<f32> = (0..6 * DIM)
        .map(|i| ((i * 7 % 11) as f32 - 5.0) / 10.0)
        .collect();
    let passages = Passages {
        offsets: vec![0, 2, 4, 6],
        starts: vec![0, 16, 0, 5, 0, 3],
    };
    let dense = DenseIndex::build_passages(&vectors, DIM, Some(passages)).unwrap();
    let input = BlobInput {
        sources: &[],
        builder: "nomos-fuzz seed".into(),
        analyzer: "da".into(),
        bm25: Bm25Params::new(Bm25Variant::Lucene).into(),
        manifest: Manifest {
            dataset: "tiny".into(),
            title: "Tiny".into(),
            files: Vec::new(),
            notes: vec!["fuzz seed".into()],
        },
        documents: &documents,
        queries: &queries,
        judgments: &judgments,
        text_index: &index,
        augmented_index: Some(&augmented),
        editorial_index: None,
        dense: Some(DenseInput {
            model: "seed-model".into(),
            model_hash: "00".into(),
            pooling: Pooling::new(Windows::Max, true),
            text: &dense,
            augmented: None,
            hybrid: None,
        }),
    };
    encode(&input).unwrap().0
}
