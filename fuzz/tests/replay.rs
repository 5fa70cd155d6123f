//! Every fuzz target's check on its committed seeds (`seeds/<target>/`) and
//! on every input that ever made it fail (`regressions/<target>/`, where
//! `scripts/fuzz.sh` saves them), so a fixed crash stays fixed.

use std::path::Path;

use nomos_core::blob::Blob;

#[test]
fn seeds_and_regressions_pass_every_check() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (target, check) in nomos_fuzz::TARGETS {
        let mut seeds = 0;
        for folder in ["seeds", "regressions"] {
            let Ok(entries) = std::fs::read_dir(root.join(folder).join(target)) else {
                continue;
            };
            for entry in entries {
                let path = entry.unwrap().path();
                seeds += usize::from(folder == "seeds");
                let bytes = std::fs::read(&path).unwrap();
                let outcome = std::panic::catch_unwind(|| check(&bytes));
                assert!(outcome.is_ok(), "{target}: {} fails", path.display());
            }
        }
        assert!(seeds > 0, "{target} has no seeds");
    }
}

/// The blob seed is the blob [`tiny_blob`] encodes today, and loads: a
/// format change would make it one the loader refuses at once, and the
/// fuzzer would then explore little. After such a change, rewrite it with
/// `NOMOS_WRITE_SEED=1 cargo test -p nomos-fuzz the_blob_seed`.
#[test]
fn the_blob_seed_is_current_and_loads() {
    if std::env::var_os("NOMOS_WRITE_SEED").is_some() {
        std::fs::write(blob_seed(), tiny_blob()).unwrap();
    }
    let seed = std::fs::read(blob_seed()).unwrap();
    Blob::load(&seed).unwrap();
    assert!(
        seed == tiny_blob(),
        "seeds/blob_open/tiny.blob is not what tiny_blob() encodes today: rewrite it with \
         NOMOS_WRITE_SEED=1 cargo test -p nomos-fuzz the_blob_seed"
    );
}

fn blob_seed() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("seeds/blob_open/tiny.blob")
}

/// Three short documents with paragraphs, an augmented text, citations and
/// siblings, two queries with judgments, and vectors of 8 dimensions kept
/// two per document (title+max), so every section is present and small.
fn tiny_blob() -> Vec<u8> {
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
        }),
    };
    encode(&input).unwrap().0
}
