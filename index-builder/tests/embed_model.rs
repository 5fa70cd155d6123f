//! The native embedder with the real model: vectors equal Python
//! onnxruntime's, and a pool built with `--embed` ranks end to end with the
//! dense methods. Needs `models/e5-small` and `.venv-model` (both from
//! `nomos model prepare`, which scripts/build-demo.sh runs and
//! scripts/test.sh runs before the tests); without them these fail, saying
//! how to make them.

#[path = "support/cli.rs"]
mod cli;

use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::OnceLock;
use std::time::Instant;

use cli::{json, model, nomos_in_repo, repo, stderr};
use nomos_core::digest::sha256_hex;

fn cosine(a: &[f64], b: &[f64]) -> f64 {
    let dot: f64 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
    dot / (norm(a) * norm(b))
}

#[test]
fn native_vectors_equal_python_onnxruntime() {
    let model = model();
    let fixture: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo().join("index-builder/tests/fixtures/embed_native.json"))
            .unwrap(),
    )
    .unwrap();
    let manifest = std::fs::read(model.join("manifest.json")).unwrap();
    let digest = sha256_hex(&manifest);
    assert_eq!(
        fixture["manifest_sha256"].as_str().unwrap(),
        digest,
        "the fixture was made with another model: regenerate it with scripts/model/gen_embed_fixture.py"
    );
    for role in ["query", "passage"] {
        let cases: Vec<&serde_json::Value> = fixture["texts"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["role"] == role)
            .collect();
        let mut args = vec!["model", "embed", "--model", model.to_str().unwrap()];
        args.extend(["--role", role]);
        args.extend(cases.iter().map(|t| t["text"].as_str().unwrap()));
        let out = nomos_in_repo(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        let lines: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().collect();
        assert_eq!(lines.len(), cases.len());
        for (case, line) in cases.iter().zip(lines) {
            let native: Vec<f64> = serde_json::from_str(line).unwrap();
            let python: Vec<f64> = serde_json::from_value(case["vector"].clone()).unwrap();
            assert_eq!(native.len(), python.len());
            let cos = cosine(&native, &python);
            assert!(
                cos >= 0.99999,
                "{role} {:?}: cosine {cos}",
                case["text"]
                    .as_str()
                    .unwrap()
                    .chars()
                    .take(40)
                    .collect::<String>()
            );
        }
    }
}

/// `nomos build` of the Greek Constitution (124 articles) to `blob`, with
/// vectors, and `extra` arguments.
fn build_greek(blob: &Path, extra: &[&str]) -> Output {
    let (blob, model) = (blob.to_str().unwrap(), model());
    let mut args = vec![
        "build",
        "--format",
        "el-syntagma",
        "data/el-syntagma",
        "-o",
        blob,
    ];
    args.extend(["--embed", model.to_str().unwrap()]);
    args.extend(extra);
    nomos_in_repo(&args)
}

/// The Greek Constitution built once with vectors.
fn greek_blob() -> &'static Path {
    static BLOB: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    &BLOB
        .get_or_init(|| {
            let dir = tempfile::tempdir().unwrap();
            let blob = dir.path().join("el-syntagma.blob");
            let started = Instant::now();
            // The cache is filled here, read by the cache test.
            let cache = blob.with_extension("cache");
            let out = build_greek(&blob, &["--embed-cache", cache.to_str().unwrap()]);
            assert!(out.status.success(), "{}", stderr(&out));
            eprintln!(
                "built el-syntagma with vectors in {:.1} s",
                started.elapsed().as_secs_f64()
            );
            (dir, blob)
        })
        .1
}

fn search(blob: &Path, method: Option<&str>, query: &str) -> Output {
    let model = model();
    let mut args = vec!["search", "--index", blob.to_str().unwrap()];
    if let Some(method) = method {
        args.extend(["--method", method]);
    }
    args.extend(["--model", model.to_str().unwrap(), "-k", "3", query]);
    nomos_in_repo(&args)
}

fn first_hit(out: &Output) -> String {
    assert!(out.status.success(), "{}", stderr(out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let first = stdout.lines().next().unwrap_or_default();
    first.split('\t').nth(1).unwrap_or_default().to_string()
}

/// The default pooling puts the heading first only where titles are
/// enacted headings; the Constitution's are editorial, so its blob records
/// (and its vectors are) one vector per window of the text alone.
#[test]
fn the_constitution_is_embedded_without_its_editorial_headings() {
    let out = nomos_in_repo(&["info", greek_blob().to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let info = String::from_utf8_lossy(&out.stdout);
    assert!(
        info.contains("pooling max (best of 510-token windows), 149 text vectors"),
        "{info}"
    );
}

#[test]
fn known_items_rank_first_with_every_dense_method() {
    let blob = greek_blob();
    // Article headings as known-item queries (headings are titles, not
    // indexed text), in Greek and, which BM25 cannot match, in English.
    let cases = [
        ("freedom of the press", "Syntagma::14"),
        ("Προστασία του περιβάλλοντος", "Syntagma::24"),
        ("Άσυλο της κατοικίας", "Syntagma::9"),
    ];
    for (query, article) in cases {
        for method in ["dense", "dense-binary", "rrf", "rocchio"] {
            let hit = first_hit(&search(blob, Some(method), query));
            assert_eq!(hit, article, "{method}: {query}");
        }
    }
}

#[test]
fn rrf_is_the_default_where_vectors_and_a_model_exist() {
    let blob = greek_blob();
    // Article 14's editorial heading; its text alone ranks below article 13's.
    let query = "ελευθερία του τύπου";
    let rrf = search(blob, Some("rrf"), query);
    let default = search(blob, None, query);
    assert!(default.status.success(), "{}", stderr(&default));
    assert_eq!(default.stdout, rrf.stdout);
    // Without --model the pool still answers, with BM25.
    let out = nomos_in_repo(&[
        "search",
        "--index",
        blob.to_str().unwrap(),
        "-k",
        "3",
        query,
    ]);
    let bm25 = nomos_in_repo(&[
        "search",
        "--index",
        blob.to_str().unwrap(),
        "--method",
        "bm25",
        "-k",
        "3",
        query,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(out.stdout, bm25.stdout);
    assert_ne!(out.stdout, rrf.stdout);
}

/// The ids `rrf` ranks first for `query`, with `extra` arguments.
fn rrf_ids(blob: &Path, query: &str, extra: &[&str]) -> Vec<String> {
    let model = model();
    let mut args = vec![
        "search",
        "--index",
        blob.to_str().unwrap(),
        "--method",
        "rrf",
    ];
    args.extend(["--model", model.to_str().unwrap(), "-k", "3"]);
    args.extend(extra);
    args.push(query);
    let out = nomos_in_repo(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let ids = stdout.lines().filter_map(|l| l.split('\t').nth(1));
    ids.map(str::to_owned).collect()
}

/// The Constitution's editorial headings reach the hybrid through its BM25
/// list: Article 14, headed «Ελευθερία του τύπου», was third under 13 and
/// 5 with the text alone, and comes above 13 with its heading searched. The
/// dense list, which does not see headings, still puts Article 5 first.
#[test]
fn an_editorial_heading_lifts_its_article_in_the_hybrid() {
    let blob = greek_blob();
    let query = "ελευθερία του τύπου";
    let alone = rrf_ids(blob, query, &["--editorial-weight", "0"]);
    assert_eq!(alone, ["Syntagma::13", "Syntagma::5", "Syntagma::14"]);
    let searched = rrf_ids(blob, query, &[]);
    assert_eq!(searched, ["Syntagma::5", "Syntagma::14", "Syntagma::13"]);
}

#[test]
fn a_model_that_differs_from_its_manifest_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["manifest.json", "model.onnx", "tokenizer.json"] {
        std::fs::copy(model().join(name), dir.path().join(name)).unwrap();
    }
    let tokenizer = dir.path().join("tokenizer.json");
    let mut bytes = std::fs::read(&tokenizer).unwrap();
    bytes.push(b'\n');
    std::fs::write(&tokenizer, bytes).unwrap();
    let out = nomos_in_repo(&[
        "model",
        "embed",
        "--model",
        dir.path().to_str().unwrap(),
        "text",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("but the manifest lists"),
        "{}",
        stderr(&out)
    );
}

/// `--ort-provider cuda` on a library without the CUDA provider (the CPU
/// wheel's, here) fails, saying which library a GPU needs, instead of
/// running on the CPU unasked.
#[test]
fn a_gpu_provider_the_library_lacks_is_refused_with_what_it_needs() {
    let out = nomos_in_repo(&[
        "model",
        "embed",
        "--model",
        model().to_str().unwrap(),
        "--ort-provider",
        "cuda",
        "text",
    ]);
    let log = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{log}");
    assert!(
        log.contains("no CUDA execution provider")
            && log.contains("onnxruntime-gpu wheel's library (--ort-lib)"),
        "{log}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn a_missing_onnx_runtime_is_explained() {
    let out = nomos_in_repo(&[
        "model",
        "embed",
        "--model",
        model().to_str().unwrap(),
        "--ort-lib",
        "/nonexistent/libonnxruntime.so",
        "text",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("give --ort-lib PATH or set ORT_DYLIB_PATH"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn dense_methods_need_the_model_the_vectors_came_from() {
    let blob = greek_blob();
    let out = nomos_in_repo(&[
        "search",
        "--index",
        blob.to_str().unwrap(),
        "--method",
        "dense",
        "query",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("give --model MODEL_DIR"),
        "{}",
        stderr(&out)
    );
}

/// `nomos eval` on the demo STARD pool (built with vectors by
/// `scripts/build-demo.sh --embed stard`), its queries' embeddings kept in
/// the repository's `.embed-cache/stard-queries.emb`, which the browser
/// tests' CLI evaluations of STARD read too: (nDCG@10, R@100) and what
/// the run said on stderr.
fn eval_stard(method: &str) -> ((f64, f64), String) {
    let blob = repo().join("public/indexes/stard.blob");
    let dir = tempfile::tempdir().unwrap();
    let metrics = dir.path().join("metrics.json");
    std::fs::create_dir_all(repo().join(".embed-cache")).unwrap();
    let cache = repo().join(".embed-cache/stard-queries.emb");
    let out = nomos_in_repo(&[
        "eval",
        "--index",
        blob.to_str().unwrap(),
        "--method",
        method,
        "--model",
        model().to_str().unwrap(),
        "--embed-cache",
        cache.to_str().unwrap(),
        "--run",
        dir.path().join("run.trec").to_str().unwrap(),
        "--metrics",
        metrics.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{} (build it with scripts/build-demo.sh --embed stard)",
        stderr(&out)
    );
    let m = json(&metrics);
    (
        (
            m["ndcg@10"].as_f64().unwrap(),
            m["recall@100"].as_f64().unwrap(),
        ),
        stderr(&out),
    )
}

#[test]
fn stard_reference_run_is_reproduced_and_hybrid_wins() {
    // The reference run (all 1,543 queries, the 1,445 gold
    // articles): (nDCG@10, R@100), to be met within 0.01.
    let reference = [
        ("bm25", (0.542, 0.872)),
        ("dense", (0.555, 0.903)),
        ("rrf", (0.586, 0.909)),
    ];
    let mut ndcg = Vec::new();
    for (method, (want_ndcg, want_recall)) in reference {
        let ((got_ndcg, got_recall), log) = eval_stard(method);
        // Dense embedded the queries (or an earlier run did): RRF reads
        // every one from the cache, a few of them embedded again to check.
        if method == "rrf" {
            assert!(
                log.contains(
                    "query embedding cache: 0 queries embedded, 1543 from the cache (4 of them"
                ),
                "{log}"
            );
        }
        assert!(
            (got_ndcg - want_ndcg).abs() <= 0.01 && (got_recall - want_recall).abs() <= 0.01,
            "{method}: nDCG@10 {got_ndcg:.4}, R@100 {got_recall:.4}; reference {want_ndcg}, {want_recall}"
        );
        ndcg.push(got_ndcg);
    }
    assert!(
        ndcg[2] > ndcg[0] && ndcg[2] > ndcg[1],
        "RRF must beat BM25 and dense on nDCG@10: {ndcg:?}"
    );
}

/// `--embed-cache`: a second build of the same pool, with the cache the
/// first filled ([`greek_blob`]), embeds nothing and writes the same blob.
#[test]
fn a_second_build_with_the_embedding_cache_embeds_nothing() {
    let first = greek_blob();
    let dir = tempfile::tempdir().unwrap();
    let second = dir.path().join("again.blob");
    let cache = first.with_extension("cache");
    let out = build_greek(&second, &["--embed-cache", cache.to_str().unwrap()]);
    let log = stderr(&out);
    assert!(out.status.success(), "{log}");
    assert!(
        log.contains("embedding cache: 0 texts embedded, 124 from the cache (4 of them"),
        "{log}"
    );
    assert_eq!(
        std::fs::read(first).unwrap(),
        std::fs::read(second).unwrap()
    );
}

/// A cache whose vectors are not the model's is refused, though every
/// record's check sum is whole: the run embeds its first hits again and
/// compares (a cache copied from elsewhere, such as the demo's committed one
/// for the Greek codes, is checked this way).
#[test]
fn a_cache_of_other_vectors_is_refused() {
    let first = greek_blob();
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = std::fs::read(first.with_extension("cache")).unwrap();
    // Header: magic, version, dimension, the manifest hash's length and the
    // hash; then the first record, the first document's: key, vectors,
    // values, check.
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    let (dim, record) = (word(12), 20 + word(16));
    let values = record + 20;
    let end = values + word(record + 16) * dim * 4;
    for value in bytes[values..end].chunks_exact_mut(4) {
        let x = f32::from_le_bytes(value.try_into().unwrap());
        value.copy_from_slice(&(-x).to_le_bytes());
    }
    let check = xxhash_rust::xxh3::xxh3_64(&bytes[record..end]);
    bytes[end..end + 8].copy_from_slice(&check.to_le_bytes());
    let cache = dir.path().join("other.cache");
    std::fs::write(&cache, &bytes).unwrap();

    let out = build_greek(
        &dir.path().join("refused.blob"),
        &["--embed-cache", cache.to_str().unwrap()],
    );
    let log = stderr(&out);
    assert!(!out.status.success(), "{log}");
    assert!(
        log.contains("its vectors differ from the model's for the same text"),
        "{log}"
    );
    assert!(!dir.path().join("refused.blob").exists());
}

/// `--hybrid` names what ranks when no method is chosen: `nomos search`
/// with the model then ranks as `--method weighted:w=0.3` does, `nomos
/// info` says so, and a light blob (`nomos split`) keeps it. A method
/// that does not fuse BM25 and dense is refused up front.
#[test]
fn the_pools_own_hybrid_ranks_by_default() {
    let first = greek_blob();
    let dir = tempfile::tempdir().unwrap();
    let blob = dir.path().join("weighted.blob");
    let cache = first.with_extension("cache");
    let cache = cache.to_str().unwrap();
    let out = build_greek(
        &blob,
        &["--embed-cache", cache, "--hybrid", "weighted:w=0.3"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let query = "ελευθερία του τύπου";
    let by_default = search(&blob, None, query);
    assert!(by_default.status.success(), "{}", stderr(&by_default));
    assert_eq!(
        by_default.stdout,
        search(&blob, Some("weighted:w=0.3"), query).stdout
    );
    assert_ne!(by_default.stdout, search(first, None, query).stdout);
    assert_eq!(first_hit(&by_default), "Syntagma::14");

    nomos_in_repo(&["split", blob.to_str().unwrap()]);
    let info = nomos_in_repo(&["info", blob.to_str().unwrap()]);
    let info = String::from_utf8_lossy(&info.stdout);
    assert!(info.contains("sibling:"), "{info}");
    assert!(
        info.contains("hybrid:       weighted:w=0.3 (ranks when no method is chosen)"),
        "{info}"
    );

    let refused = build_greek(
        &dir.path().join("prf.blob"),
        &["--embed-cache", cache, "--hybrid", "prf"],
    );
    assert!(!refused.status.success());
    assert!(
        stderr(&refused).contains("\"prf\" is not a hybrid"),
        "{}",
        stderr(&refused)
    );
}

/// Batching changes only the speed: a build that runs each text through
/// the model alone (`--embed-batch 1`) writes the bytes of one that runs
/// up to 8 windows at once, the default ([`greek_blob`]; the
/// Constitution's long articles take several windows each).
#[test]
fn embedding_each_text_alone_writes_the_same_blob() {
    let batched = greek_blob();
    let dir = tempfile::tempdir().unwrap();
    let alone = dir.path().join("alone.blob");
    let out = build_greek(&alone, &["--embed-batch", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read(batched).unwrap(),
        std::fs::read(alone).unwrap()
    );
}

/// `--lists` builds inverted lists at load: probing all of them is brute
/// force, to the score; probing one still ranks. `nomos fragment` cuts
/// the vectors into lists fragments and a centroids fragment.
#[test]
fn inverted_lists_rank_from_the_cli_and_are_cut_into_fragments() {
    let blob = greek_blob();
    let model = model();
    let query = "freedom of the press";
    // A fragmented pool does not carry the Constitution's editorial
    // headings (`nomos fragment` says so), so the blob it is compared with
    // ranks its text alone.
    let with_lists_for = |method: &str, query: &str| {
        let out = nomos_in_repo(&[
            "search",
            "--index",
            blob.to_str().unwrap(),
            "--editorial-weight",
            "0",
            "--lists",
            "12",
            "--method",
            method,
            "--model",
            model.to_str().unwrap(),
            "-k",
            "20",
            query,
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        out.stdout
    };
    let with_lists = |method: &str| with_lists_for(method, query);
    let brute = nomos_in_repo(&[
        "search",
        "--index",
        blob.to_str().unwrap(),
        "--method",
        "dense",
        "--model",
        model.to_str().unwrap(),
        "-k",
        "20",
        query,
    ]);
    assert_eq!(with_lists("dense:probes=0"), brute.stdout);
    assert_eq!(with_lists("dense:probes=12"), brute.stdout);
    let one = String::from_utf8(with_lists("dense:probes=1")).unwrap();
    assert!(!one.is_empty() && one.lines().count() < 20, "{one}");

    let dir = tempfile::tempdir().unwrap();
    let out = nomos_in_repo(&[
        "fragment",
        blob.to_str().unwrap(),
        dir.path().to_str().unwrap(),
        "--lists",
        "12",
    ]);
    let log = stderr(&out);
    assert!(out.status.success(), "{log}");
    assert!(
        log.contains("Lists: ") && !log.contains("Lists: 0 "),
        "{log}"
    );
    assert!(log.contains("Centroids: 1 fragments"), "{log}");

    // `search --fragments` reads only the query's fragments and ranks as
    // the blob with the same lists (same k-means, seed 1), to the score;
    // a Greek query, so that BM25 has terms to fuse.
    let query = "ελευθερία του τύπου";
    let fragments = |method: &str| {
        nomos_in_repo(&[
            "search",
            "--fragments",
            dir.path().to_str().unwrap(),
            "--method",
            method,
            "--model",
            model.to_str().unwrap(),
            "-k",
            "20",
            query,
        ])
    };
    for method in [
        "dense:probes=3",
        "rrf:probes=3",
        "weighted:probes=2",
        "bm25",
    ] {
        let out = fragments(method);
        assert!(out.status.success(), "{method}: {}", stderr(&out));
        assert!(!out.stdout.is_empty(), "{method}");
        assert_eq!(out.stdout, with_lists_for(method, query), "{method}");
    }
    let meta = nomos_core::fragments::Meta::load(&std::fs::read(dir.path().join("meta")).unwrap())
        .unwrap();
    let of_kind = |kind| -> Vec<String> {
        meta.fragments()
            .iter()
            .filter(|f| f.kind == kind)
            .map(|f| f.file.clone())
            .collect()
    };
    // Dense alone reads no postings: without them it ranks as before.
    let postings = of_kind(nomos_core::fragments::FragmentKind::Postings);
    assert!(!postings.is_empty());
    for file in &postings {
        std::fs::remove_file(dir.path().join(file)).unwrap();
    }
    let out = fragments("dense:probes=3");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(out.stdout, with_lists_for("dense:probes=3", query));
    // A damaged lists fragment fails the query by name.
    let lists = of_kind(nomos_core::fragments::FragmentKind::Lists);
    for file in &lists {
        let path = dir.path().join(file);
        let mut bytes = std::fs::read(&path).unwrap();
        let middle = bytes.len() / 2;
        bytes[middle] ^= 0xff;
        std::fs::write(&path, bytes).unwrap();
    }
    let out = fragments("dense:probes=3");
    assert!(!out.status.success());
    let log = stderr(&out);
    assert!(
        lists.iter().any(|f| log.contains(f.as_str())) && log.contains("damaged"),
        "{log}"
    );
}

/// `--embed-only` embeds a part of a pool, the acts other documents cite
/// most first, for `--embed-minutes`; the cache makes it a job that the
/// same command continues. Dense ranks only the documents with vectors.
#[test]
fn an_embedding_job_stops_on_time_and_the_same_command_goes_on() {
    let model = model();
    let dir = tempfile::tempdir().unwrap();
    let pool = dir.path().join("pool");
    let cache = dir.path().join("lov.emb");
    let build = |minutes: &str| {
        let out = nomos_in_repo(&[
            "build",
            "--format",
            "da-law",
            "data/da-law-sample",
            "--fragments",
            pool.to_str().unwrap(),
            "--embed",
            model.to_str().unwrap(),
            "--embed-only",
            "LOV",
            "--embed-minutes",
            minutes,
            "--embed-cache",
            cache.to_str().unwrap(),
        ]);
        let log = stderr(&out);
        assert!(out.status.success(), "{log}");
        log
    };
    let dense = |query: &str| {
        let out = nomos_in_repo(&[
            "search",
            "--fragments",
            pool.to_str().unwrap(),
            "--method",
            "dense:probes=0",
            "--model",
            model.to_str().unwrap(),
            "-k",
            "400",
            query,
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        let ids: Vec<String> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| l.split('\t').nth(1).unwrap().to_owned())
            .collect();
        ids
    };
    // A limit this short stops after the first group of 256 documents:
    // the limit is checked between groups, from when the model is loaded.
    let log = build("0.02");
    assert!(
        log.contains("embedding 337 documents of 36 acts (LOV), most cited first"),
        "{log}"
    );
    assert!(
        log.contains("Vectors: 256 of 7071 documents have them"),
        "{log}"
    );
    let some = dense("ændring af lov om");
    assert_eq!(some.len(), 256);
    assert!(some.iter().all(|id| id.starts_with("LOV-")), "{some:?}");

    let log = build("10");
    assert!(
        log.contains("embedding cache: 81 texts embedded, 256 from the cache"),
        "{log}"
    );
    assert!(
        log.contains(
            "Vectors: 337 of 7071 documents have them, the 36 LOV acts other documents cite \
             most, of 36."
        ),
        "{log}"
    );
    let all = dense("ændring af lov om");
    assert_eq!(all.len(), 337);
    assert!(some.iter().all(|id| all.contains(id)));

    // The probes curve over the pool's own lists: every list probed is
    // exhaustive search, and known items come from the documents with
    // vectors only.
    let out = nomos_in_repo(&[
        "dense-probe",
        "--fragments",
        pool.to_str().unwrap(),
        "--model",
        model.to_str().unwrap(),
        "--known-items",
        "30",
        "--probes",
        "1,0",
    ]);
    let log = stderr(&out);
    assert!(out.status.success(), "{log}");
    assert!(
        log.contains("7071 documents, 337 with vectors") && log.contains("30 known items drawn"),
        "{log}"
    );
    let table = String::from_utf8(out.stdout).unwrap();
    let row = |probes: &str| -> Vec<String> {
        let line = table
            .lines()
            .find(|l| l.starts_with(&format!("| {probes} |")))
            .unwrap_or_else(|| panic!("no row for {probes}: {table}"));
        line.split('|').map(|c| c.trim().to_owned()).collect()
    };
    let (one, every) = (row("1"), row("all"));
    assert_eq!(every[4], "1.000", "{table}");
    assert_eq!(every[5], "337", "{table}");
    let ndcg = |r: &[String]| r[3].parse::<f64>().unwrap();
    assert!(ndcg(&every) >= ndcg(&one) && ndcg(&every) > 0.3, "{table}");
}
