//! A fragmented pool (`nomos fragment`) ranks to the bit as its blob does,
//! and `nomos build --fragments` writes the very same files:
//! every STARD query, and for the Danish acts the CRAwLeR-DK sample's
//! questions and every twentieth title, under okapi, lucene and other k1/b,
//! each ranked from the meta and only the fragments the query needs. Also
//! for both fields of the CRAwLeR-DK sample, and the Danish law sample. The documents fragments hold
//! every document as the blob does. A flipped byte in the meta or a
//! fragment, a missing or swapped fragment, fail with a clear error; flips
//! resealed and relisted reach the content checks and never panic.

#[path = "support/cli.rs"]
mod cli;

use std::path::{Path, PathBuf};

use cli::{data, json, nomos, ok, stderr, stdout};
use nomos_core::blob::{reseal, Blob, Field};
use nomos_core::fragments::{
    relist, relist_in_page, DocFragment, DocsPage, FragmentError, FragmentKind, FragmentRef, Meta,
    TermFragment,
};
use nomos_core::hits::top_k;
use nomos_core::pool::Pool;
use nomos_core::search::{Bm25Params, Bm25Variant};

/// A pool built from `source` as `format`, and its fragments.
struct Built {
    _dir: tempfile::TempDir,
    blob: Vec<u8>,
    frag_dir: PathBuf,
    meta: Vec<u8>,
}

/// Also builds the fragments straight from the source (`build --fragments`)
/// and asserts they are the very files `nomos fragment` cuts from the
/// blob.
fn build(format: &str, source: &str, max_bytes: usize) -> Built {
    let dir = tempfile::tempdir().unwrap();
    let blob = dir.path().join("pool.blob");
    let frag_dir = dir.path().join("fragments");
    let split_dir = dir.path().join("split");
    let src = data().join(source);
    let max_bytes = max_bytes.to_string();
    ok(&[
        "build",
        "--format",
        format,
        src.to_str().unwrap(),
        "-o",
        blob.to_str().unwrap(),
        "--fragments",
        split_dir.to_str().unwrap(),
        "--max-bytes",
        &max_bytes,
    ]);
    ok(&[
        "fragment",
        blob.to_str().unwrap(),
        frag_dir.to_str().unwrap(),
        "--max-bytes",
        &max_bytes,
    ]);
    assert_eq!(
        files(&split_dir),
        files(&frag_dir),
        "{source}: build --fragments"
    );
    Built {
        blob: std::fs::read(&blob).unwrap(),
        meta: std::fs::read(frag_dir.join("meta")).unwrap(),
        frag_dir,
        _dir: dir,
    }
}

/// A directory's files, by name.
fn files(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

impl Built {
    fn fragment_bytes(&self, meta: &Meta, number: usize) -> Vec<u8> {
        self.file(&meta.fragments()[number])
    }

    fn file(&self, listed: &FragmentRef) -> Vec<u8> {
        std::fs::read(self.frag_dir.join(&listed.file)).unwrap()
    }

    /// Every directory page, opened.
    fn pages(&self, meta: &Meta) -> Vec<DocsPage> {
        (0..meta.fragments().len())
            .filter(|&n| meta.fragments()[n].kind == FragmentKind::DocsPage)
            .map(|n| meta.open_page(n, &self.fragment_bytes(meta, n)).unwrap())
            .collect()
    }
}

/// The parameter sets compared: both variants at their usual settings,
/// and each at other k1, b and epsilon.
fn param_sets() -> Vec<Bm25Params> {
    let okapi = Bm25Params {
        variant: Bm25Variant::Okapi,
        k1: 1.5,
        b: 0.75,
        epsilon: 0.25,
    };
    let lucene = Bm25Params {
        variant: Bm25Variant::Lucene,
        k1: 1.2,
        b: 0.75,
        epsilon: 0.25,
    };
    vec![
        okapi,
        lucene,
        Bm25Params {
            k1: 0.9,
            b: 0.4,
            epsilon: 0.5,
            ..okapi
        },
        Bm25Params {
            k1: 2.0,
            b: 1.0,
            ..lucene
        },
    ]
}

/// Ranks every query over the blob and over the fragments it needs (and
/// only those), and asserts equal scores, bit for bit, for every document,
/// and the same top 100. Returns how many queries matched some document
/// under okapi's usual settings.
fn assert_exact(built: &Built, field: Field, queries: &[String]) -> usize {
    let mut blob = Blob::load(&built.blob).unwrap();
    let pool = Pool::from_blob_field(&mut blob, field).unwrap();
    let meta = Meta::load(&built.meta).unwrap();
    let opened: Vec<Option<TermFragment>> = (0..meta.fragments().len())
        .map(|n| {
            (meta.fragments()[n].kind == FragmentKind::Postings)
                .then(|| meta.open(n, &built.fragment_bytes(&meta, n)).unwrap())
        })
        .collect();
    let scorers: Vec<_> = param_sets()
        .into_iter()
        .map(|params| (params, pool.scorer(&params).unwrap()))
        .collect();
    let tokenized: Vec<Vec<String>> = queries.iter().map(|q| meta.analyzer().tokens(q)).collect();
    let mut matched = 0;
    for (i, (query, tokens)) in queries.iter().zip(&tokenized).enumerate() {
        let needed = meta.needed(field, tokens).unwrap();
        let given: Vec<&TermFragment> = needed
            .iter()
            .map(|&n| opened[n].as_ref().unwrap())
            .collect();
        // Every query under both variants' usual settings; every tenth
        // under the other settings too (the debug build is slow).
        let sets = if i.is_multiple_of(10) {
            scorers.len()
        } else {
            2
        };
        for (params, scorer) in &scorers[..sets] {
            let params = *params;
            let whole = scorer.scores(tokens);
            let parts = meta.scores(field, params, tokens, &given).unwrap();
            for &(doc, part) in &parts {
                let score = whole[doc as usize];
                assert_eq!(
                    score.to_bits(),
                    part.to_bits(),
                    "{query:?} {params}: document {doc} scores {score} over the blob, {part} over fragments"
                );
            }
            // So every other document scores +0 over the blob too.
            let nonzero = |s: f64| s.to_bits() != 0;
            assert_eq!(
                whole.iter().filter(|&&s| nonzero(s)).count(),
                parts.iter().filter(|&&(_, s)| nonzero(s)).count(),
                "{query:?} {params}: documents scored over the blob only"
            );
            let ranked = meta.rank(field, params, tokens, &given, 100).unwrap();
            assert_eq!(ranked, top_k(&whole, 100, true), "{query:?} {params}");
            // And the blob's own search, which selects among the documents
            // the query touched.
            assert_eq!(
                ranked,
                scorer.search(tokens, 100, true),
                "{query:?} {params}"
            );
            if params == scorers[0].0 {
                matched += usize::from(!ranked.is_empty());
            }
        }
    }
    matched
}

/// Every document's id, title, source and references, and every
/// `article_stride`-th document's text, read from the documents fragments
/// `Meta::needed_docs` names through the pages `Meta::needed_pages`
/// names, are the blob's.
fn assert_documents(built: &Built, article_stride: usize) {
    let blob = Blob::load(&built.blob).unwrap();
    let meta = Meta::load(&built.meta).unwrap();
    let pages = built.pages(&meta);
    let mut seen = 0;
    let mut open: Option<DocFragment> = None;
    for doc in 0..blob.n_docs() as u32 {
        let page = meta.needed_pages(&[doc]).unwrap();
        assert_eq!(page.len(), 1);
        let page = pages.iter().find(|p| p.number() == page[0]).unwrap();
        let needed = meta.needed_docs(&[page], &[doc]).unwrap();
        assert_eq!(needed.len(), 1);
        if open.as_ref().map(DocFragment::number) != Some(needed[0]) {
            let listed = page.fragment(needed[0]).unwrap();
            let f = meta
                .open_docs(page, needed[0], &built.file(listed))
                .unwrap();
            assert_eq!(f.docs().start, doc, "ranges are consecutive");
            open = Some(f);
        }
        let f = open.as_ref().unwrap();
        let d = doc as usize;
        assert_eq!(f.id(doc), blob.doc_id(d));
        assert_eq!(f.title(doc), blob.title(d));
        assert_eq!(meta.source(doc), blob.source(d));
        assert_eq!(meta.area(doc), blob.area(d));
        assert_eq!(f.explicit_refs(doc).unwrap(), blob.explicit_refs(d));
        assert_eq!(f.implicit_refs(doc).unwrap(), blob.implicit_refs(d));
        if d.is_multiple_of(article_stride) {
            assert_eq!(f.article(doc).unwrap(), blob.article(d).unwrap());
        }
        seen += 1;
    }
    assert_eq!(open.unwrap().docs().end as usize, blob.n_docs());
    assert!(meta.needed_pages(&[seen]).is_err());
}

#[test]
fn stard_ranks_every_query_to_the_bit_and_holds_every_document() {
    let built = build("stard", "stard", 65536);
    let blob = Blob::load(&built.blob).unwrap();
    let queries: Vec<String> = blob.queries_iter().map(|q| q.text.to_owned()).collect();
    assert!(queries.len() > 1000, "{}", queries.len());
    let matched = assert_exact(&built, Field::Text, &queries);
    assert!(matched > 1000, "{matched}");
    assert_documents(&built, 29);
}

#[test]
fn the_danish_acts_rank_to_the_bit_hold_every_document_and_a_query_needs_few_fragments() {
    let built = build("da-acts", "da-statutes", 65536);
    let blob = Blob::load(&built.blob).unwrap();
    let sample = std::fs::read_to_string(data().join("crawler-dk-sample/queries.tsv")).unwrap();
    let mut queries: Vec<String> = sample
        .lines()
        .skip(1)
        .filter_map(|l| l.split('\t').nth(1).map(str::to_owned))
        .collect();
    queries.extend(
        (0..blob.n_docs())
            .step_by(20)
            .map(|d| blob.title(d).unwrap().to_owned()),
    );
    let matched = assert_exact(&built, Field::Text, &queries);
    assert!(matched > 500, "{matched}");
    assert_documents(&built, 97);

    // Three terms of the pool: three fragments at most, each holding one
    // of them, and far fewer bytes than the blob.
    let meta = Meta::load(&built.meta).unwrap();
    assert!(meta.fragments().len() > 20, "{}", meta.fragments().len());
    let tokens = meta.analyzer().tokens("straffelovens bestemmelser vold");
    assert_eq!(tokens.len(), 3);
    let needed = meta.needed(Field::Text, &tokens).unwrap();
    assert!((1..=3).contains(&needed.len()), "{needed:?}");
    let holding: Vec<usize> = (0..meta.fragments().len())
        .filter(|&n| meta.fragments()[n].kind == FragmentKind::Postings)
        .filter(|&n| {
            let f = meta.open(n, &built.fragment_bytes(&meta, n)).unwrap();
            let given = [&f];
            tokens.iter().any(|t| {
                !meta
                    .scores(Field::Text, meta.bm25_params(), &[t], &given)
                    .map_or(true, |s| s.is_empty())
            })
        })
        .collect();
    assert_eq!(
        holding, needed,
        "the fragments holding the terms are those needed"
    );
    let bytes: u64 =
        built.meta.len() as u64 + needed.iter().map(|&n| meta.fragments()[n].len).sum::<u64>();
    assert!(
        bytes * 5 < built.blob.len() as u64,
        "{bytes} of {}",
        built.blob.len()
    );
}

#[test]
fn the_danish_law_sample_ranks_to_the_bit_and_holds_every_document() {
    let built = build("da-law", "da-law-sample", 65536);
    let blob = Blob::load(&built.blob).unwrap();
    // A lawyer's questions, and every twentieth document's title.
    let mut queries: Vec<String> = [
        "hjemmehjælp til ældre",
        "anbringelse uden for hjemmet",
        "servicelovens § 83 personlig pleje",
        "klage over kommunens afgørelse",
        "LBK nr. 1129",
    ]
    .map(str::to_owned)
    .to_vec();
    queries.extend(
        (0..blob.n_docs())
            .step_by(20)
            .map(|d| blob.title(d).unwrap().to_owned()),
    );
    let matched = assert_exact(&built, Field::Text, &queries);
    assert!(matched > 250, "{matched}");
    assert_documents(&built, 37);
}

#[test]
fn both_fields_of_the_crawler_sample_rank_to_the_bit() {
    let built = build("crawler-dk", "crawler-dk-sample", 8192);
    let meta = Meta::load(&built.meta).unwrap();
    assert_eq!(
        meta.fields().collect::<Vec<_>>(),
        [Field::Text, Field::Augmented]
    );
    let sample = std::fs::read_to_string(data().join("crawler-dk-sample/queries.tsv")).unwrap();
    let queries: Vec<String> = sample
        .lines()
        .skip(1)
        .filter_map(|l| l.split('\t').nth(1).map(str::to_owned))
        .collect();
    for field in [Field::Text, Field::Augmented] {
        assert!(assert_exact(&built, field, &queries) > 30);
    }
}

/// `--plan` prints what a query fetches; the cut is deterministic, and a
/// light blob cuts into the same fragments.
#[test]
fn the_plan_counts_a_querys_fragments_and_bytes() {
    let built = build("stard", "stard", 65536);
    let dir = built.frag_dir.parent().unwrap();
    let out = stdout(&ok(&[
        "fragment",
        dir.join("pool.blob").to_str().unwrap(),
        dir.join("again").to_str().unwrap(),
        "--plan",
        "交通事故",
    ]));
    assert!(out.contains("postings fragments = "), "{out}");
    // The same blob cuts into the same files.
    assert_eq!(std::fs::read(dir.join("again/meta")).unwrap(), built.meta);

    // A light blob, with its text file beside it, into the same fragments.
    let light = dir.join("light.blob");
    ok(&[
        "split",
        dir.join("pool.blob").to_str().unwrap(),
        "-o",
        light.to_str().unwrap(),
    ]);
    ok(&[
        "fragment",
        light.to_str().unwrap(),
        dir.join("light").to_str().unwrap(),
    ]);
    let files = |d: &str| {
        let mut names: Vec<String> = std::fs::read_dir(dir.join(d))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    assert_eq!(files("light"), files("fragments"));
}

#[test]
fn damaged_missing_or_swapped_files_fail_the_query() {
    let built = build("da-acts", "da-statutes", 65536);
    let meta = Meta::load(&built.meta).unwrap();

    let stride = (built.meta.len() / 1500).max(1);
    for at in (0..built.meta.len()).step_by(stride) {
        let mut damaged = built.meta.clone();
        damaged[at] ^= 0x20;
        let err = Meta::load(&damaged).expect_err("a flipped byte in the meta loaded");
        assert!(matches!(err, FragmentError::Meta(_)), "{err}");
    }

    let tokens = meta.analyzer().tokens("straffelovens bestemmelser vold");
    let needed = meta.needed(Field::Text, &tokens).unwrap();
    // Every fragment, the query's densely.
    for (n, listed) in meta.fragments().iter().enumerate() {
        let bytes = built.fragment_bytes(&meta, n);
        let flips = if needed.contains(&n) { 500 } else { 20 };
        let stride = (bytes.len() / flips).max(1);
        for at in (0..bytes.len()).step_by(stride).chain([bytes.len() - 1]) {
            let mut damaged = bytes.clone();
            damaged[at] ^= 0x01;
            let err = match listed.kind {
                FragmentKind::Postings => meta.open(n, &damaged).map(drop),
                FragmentKind::DocsPage => meta.open_page(n, &damaged).map(drop),
                FragmentKind::Docs => unreachable!("pages list documents fragments"),
                FragmentKind::Lists => meta.open_lists(n, &damaged).map(drop),
                FragmentKind::Centroids => meta.open_centroids(n, &damaged).map(drop),
            }
            .expect_err("a flipped byte loaded");
            let message = err.to_string();
            assert!(
                message.contains(&meta.fragments()[n].file),
                "flip at {at}: {message}"
            );
        }
        for cut in [0, 7, 31, bytes.len() / 2, bytes.len() - 1] {
            assert!(meta.open(n, &bytes[..cut]).is_err());
            assert!(meta.open_page(n, &bytes[..cut]).is_err());
        }
    }
    // And every documents fragment, through its page.
    for page in built.pages(&meta) {
        for (n, listed) in page.fragments() {
            let bytes = built.file(listed);
            let stride = (bytes.len() / 20).max(1);
            for at in (0..bytes.len()).step_by(stride).chain([bytes.len() - 1]) {
                let mut damaged = bytes.clone();
                damaged[at] ^= 0x01;
                let err = meta.open_docs(&page, n, &damaged).unwrap_err();
                assert!(
                    err.to_string().contains(&listed.file),
                    "flip at {at}: {err}"
                );
            }
            for cut in [0, 7, 31, bytes.len() / 2, bytes.len() - 1] {
                assert!(meta.open_docs(&page, n, &bytes[..cut]).is_err());
            }
        }
    }

    // The query's top 10 lie in at most ten documents fragments, which
    // are not taken for postings.
    let given: Vec<TermFragment> = needed
        .iter()
        .map(|&n| meta.open(n, &built.fragment_bytes(&meta, n)).unwrap())
        .collect();
    let given: Vec<&TermFragment> = given.iter().collect();
    let best = meta
        .rank(Field::Text, meta.bm25_params(), &tokens, &given, 10)
        .unwrap();
    let docs: Vec<u32> = best.iter().map(|h| h.doc).collect();
    let page_numbers = meta.needed_pages(&docs).unwrap();
    assert!((1..=10).contains(&page_numbers.len()), "{page_numbers:?}");
    let pages: Vec<DocsPage> = page_numbers
        .iter()
        .map(|&n| meta.open_page(n, &built.fragment_bytes(&meta, n)).unwrap())
        .collect();
    let given: Vec<&DocsPage> = pages.iter().collect();
    let holding = meta.needed_docs(&given, &docs).unwrap();
    assert!((1..=10).contains(&holding.len()), "{holding:?}");
    // A needed page left out: named.
    assert_eq!(
        meta.needed_docs(&given[1..], &docs).unwrap_err(),
        FragmentError::Missing {
            file: meta.fragments()[page_numbers[0]].file.clone()
        }
    );
    let page = pages.iter().find(|p| p.fragment(holding[0]).is_some());
    let page = page.unwrap();
    let bytes = built.file(page.fragment(holding[0]).unwrap());
    meta.open_docs(page, holding[0], &bytes).unwrap();
    assert!(
        meta.open(page.number(), &bytes).is_err(),
        "a documents fragment is no postings"
    );
    assert!(
        meta.open_page(page.number(), &bytes).is_err(),
        "a documents fragment is no page"
    );

    // Another fragment's bytes under this number: not the listed file.
    let (a, b) = (needed[0], (needed[0] + 1) % meta.fragments().len());
    let err = meta.open(a, &built.fragment_bytes(&meta, b)).unwrap_err();
    assert!(
        err.to_string().contains("is not the file the meta lists"),
        "{err}"
    );

    // A needed fragment left out: the query fails, naming it.
    let given: Vec<TermFragment> = needed[1..]
        .iter()
        .map(|&n| meta.open(n, &built.fragment_bytes(&meta, n)).unwrap())
        .collect();
    let given: Vec<&TermFragment> = given.iter().collect();
    let err = meta
        .rank(Field::Text, meta.bm25_params(), &tokens, &given, 10)
        .unwrap_err();
    assert_eq!(
        err,
        FragmentError::Missing {
            file: meta.fragments()[needed[0]].file.clone()
        }
    );
}

/// Flips that pass the frame and the listed hash (the fragment resealed,
/// the meta relisting it) reach the content checks: each is refused with
/// an error naming the file, or opens and ranks (reads) without panicking.
#[test]
fn relisted_flips_never_panic() {
    let built = build("crawler-dk", "crawler-dk-sample", 8192);
    let meta = Meta::load(&built.meta).unwrap();
    let (mut refused, mut inconsistent) = (0, 0);
    let some = |kind| {
        let all = meta.fragments().iter().enumerate();
        all.filter(move |(_, f)| f.kind == kind).take(3)
    };
    let picked: Vec<_> = some(FragmentKind::Postings)
        .chain(some(FragmentKind::DocsPage))
        .collect();
    assert!(picked.len() >= 4, "{}", picked.len());
    for (n, listed) in picked {
        let bytes = built.fragment_bytes(&meta, n);
        let stride = (bytes.len() / 300).max(1);
        for at in (32..bytes.len()).step_by(stride) {
            let mut damaged = bytes.clone();
            damaged[at] ^= 0x41;
            reseal(&mut damaged);
            let mut relisted = built.meta.clone();
            relist(&mut relisted, n, &damaged).unwrap();
            let meta = Meta::load(&relisted).unwrap();
            let file = meta.fragments()[n].file.clone();
            let result = match listed.kind {
                FragmentKind::Postings => meta.open(n, &damaged).map(|f| {
                    let tokens = meta
                        .analyzer()
                        .tokens("forvaltningsloven sagsbehandler stk");
                    for field in [Field::Text, Field::Augmented] {
                        let _ = meta.rank(field, meta.bm25_params(), &tokens, &[&f], 10);
                    }
                }),
                FragmentKind::DocsPage => meta.open_page(n, &damaged).map(|p| {
                    let docs: Vec<u32> = (0..meta.n_docs() as u32).collect();
                    let _ = meta.needed_docs(&[&p], &docs);
                }),
                FragmentKind::Docs => unreachable!("pages list documents fragments"),
                // The sample has no vectors; core's lists tests flip these.
                FragmentKind::Lists => meta.open_lists(n, &damaged).map(drop),
                FragmentKind::Centroids => meta.open_centroids(n, &damaged).map(drop),
            };
            if let Err(e) = result {
                let message = e.to_string();
                assert!(message.contains(&file), "{message}");
                // Relisted: refused by the checks behind the hash.
                assert!(!message.contains("is not the file"), "{message}");
                inconsistent += usize::from(message.contains("is inconsistent"));
                refused += 1;
            }
        }
    }
    // Documents fragments: relisted in their page, the page in the meta.
    let pages = built.pages(&meta);
    for (n, listed) in pages.iter().flat_map(|p| p.fragments()).take(3) {
        let page = pages.iter().find(|p| p.fragment(n).is_some()).unwrap();
        let at_in_page = page.fragments().position(|(m, _)| m == n).unwrap();
        let page_bytes = built.fragment_bytes(&meta, page.number());
        let bytes = built.file(listed);
        let stride = (bytes.len() / 300).max(1);
        for at in (32..bytes.len()).step_by(stride) {
            let mut damaged = bytes.clone();
            damaged[at] ^= 0x41;
            reseal(&mut damaged);
            let mut page_relisted = page_bytes.clone();
            relist_in_page(&mut page_relisted, at_in_page, &damaged).unwrap();
            let mut relisted = built.meta.clone();
            relist(&mut relisted, page.number(), &page_relisted).unwrap();
            let meta = Meta::load(&relisted).unwrap();
            let page = meta.open_page(page.number(), &page_relisted).unwrap();
            let file = page.fragment(n).unwrap().file.clone();
            let result = meta.open_docs(&page, n, &damaged).map(|f| {
                for doc in f.docs() {
                    let _ = (f.id(doc), f.title(doc), f.article(doc));
                    let _ = (f.explicit_refs(doc), f.implicit_refs(doc));
                }
            });
            if let Err(e) = result {
                let message = e.to_string();
                assert!(message.contains(&file), "{message}");
                assert!(!message.contains("is not the file"), "{message}");
                inconsistent += usize::from(message.contains("is inconsistent"));
                refused += 1;
            }
        }
    }
    assert!(
        refused > 300 && inconsistent > 200,
        "{refused} {inconsistent}"
    );
}

/// `nomos manifest` lists a fragmented pool after the blobs, with the
/// build's title and notes and the meta's content hash, and refuses the
/// directory when one of its fragments is damaged.
#[test]
fn the_manifest_lists_fragmented_pools_and_refuses_a_damaged_one() {
    let built = build("stard", "stard", 65536);
    let site = tempfile::tempdir().unwrap();
    std::fs::write(site.path().join("stard.blob"), &built.blob).unwrap();
    let pool = site.path().join("stard-frag");
    std::fs::create_dir(&pool).unwrap();
    for (name, bytes) in files(&built.frag_dir) {
        std::fs::write(pool.join(name), bytes).unwrap();
    }
    ok(&["manifest", site.path().to_str().unwrap()]);
    let manifest = json(&site.path().join("manifest.json"));
    let entries = manifest["indexes"].as_array().unwrap();
    assert_eq!(entries.len(), 2);
    let (blob_entry, frag) = (&entries[0], &entries[1]);
    let meta = Meta::load(&built.meta).unwrap();
    let blob = Blob::load(&built.blob).unwrap();
    assert_eq!(blob_entry["file"], "stard.blob");
    assert_eq!(frag["file"], "stard-frag/meta");
    assert_eq!(frag["format"], "fragmented");
    assert_eq!(frag["title"], blob.header().manifest.title.as_str());
    assert_eq!(frag["notes"], blob_entry["notes"]);
    assert_eq!(frag["docs"], blob_entry["docs"]);
    assert_eq!(frag["bytes"], built.meta.len() as u64);
    assert_eq!(frag["fragments"], meta.n_fragments() as u64);
    assert_eq!(
        frag["content_hash"],
        format!("{:032x}", meta.content_hash()).as_str()
    );

    let victim = pool.join(&meta.fragments()[meta.fragments().len() / 2].file);
    let mut bytes = std::fs::read(&victim).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 0x01;
    std::fs::write(&victim, bytes).unwrap();
    let out = nomos(&["manifest", site.path().to_str().unwrap()]);
    assert!(!out.status.success());
    let stderr = stderr(&out);
    let file = victim.file_name().unwrap().to_string_lossy();
    assert!(stderr.contains(file.as_ref()), "{stderr}");
}

/// `search --fragments` and `plan` read the shown documents through their
/// directory pages: the ids, scores and `--explain` lines are the blob's; a damaged page or
/// documents fragment fails them naming the file, and a meta of the
/// previous format says to cut the pool again.
#[test]
fn the_cli_reads_documents_through_pages_and_names_a_damaged_one() {
    let built = build("stard", "stard", 65536);
    let blob = built.frag_dir.parent().unwrap().join("pool.blob");
    let query = "交通事故";
    let search = |dir: &Path| nomos(&["search", "--fragments", dir.to_str().unwrap(), query]);
    let plan = |dir: &Path| nomos(&["plan", dir.to_str().unwrap(), query]);
    let from_blob = stdout(&ok(&["search", "--index", blob.to_str().unwrap(), query]));
    assert!(from_blob.lines().count() == 10, "{from_blob}");
    let out = search(&built.frag_dir);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), from_blob);
    // --explain sets the blob's explanations under the same hits.
    let dir = built.frag_dir.to_str().unwrap();
    let explained = stdout(&ok(&["search", "--fragments", dir, "--explain", query]));
    let blob_explained = stdout(&ok(&[
        "search",
        "--index",
        blob.to_str().unwrap(),
        "--explain",
        query,
    ]));
    assert_eq!(explained, blob_explained);
    assert!(
        explained.lines().any(|l| l.starts_with("\tBM25 ")),
        "{explained}"
    );
    let planned = stdout(&ok(&["plan", built.frag_dir.to_str().unwrap(), query]));
    let line: serde_json::Value = serde_json::from_str(planned.lines().nth(1).unwrap()).unwrap();
    assert!(line["pages"].as_u64().unwrap() >= 1, "{planned}");
    assert!(line["docs"].as_u64().unwrap() >= 1, "{planned}");

    // The top hit's page and documents fragment.
    let meta = Meta::load(&built.meta).unwrap();
    let tokens = meta.analyzer().tokens(query);
    let opened: Vec<TermFragment> = meta
        .needed(Field::Text, &tokens)
        .unwrap()
        .into_iter()
        .map(|n| meta.open(n, &built.fragment_bytes(&meta, n)).unwrap())
        .collect();
    let given: Vec<&TermFragment> = opened.iter().collect();
    let top = meta
        .rank(Field::Text, meta.bm25_params(), &tokens, &given, 1)
        .unwrap()[0]
        .doc;
    let page_number = meta.needed_pages(&[top]).unwrap()[0];
    let page = meta
        .open_page(page_number, &built.fragment_bytes(&meta, page_number))
        .unwrap();
    let docs_number = meta.needed_docs(&[&page], &[top]).unwrap()[0];
    let victims = [
        meta.fragments()[page_number].file.clone(),
        page.fragment(docs_number).unwrap().file.clone(),
    ];
    let copy = || {
        let dir = tempfile::tempdir().unwrap();
        for (name, bytes) in files(&built.frag_dir) {
            std::fs::write(dir.path().join(name), bytes).unwrap();
        }
        dir
    };
    for victim in &victims {
        let dir = copy();
        let path = dir.path().join(victim);
        let mut bytes = std::fs::read(&path).unwrap();
        let at = bytes.len() / 2;
        bytes[at] ^= 0x01;
        std::fs::write(&path, bytes).unwrap();
        let (searched, planned) = (search(dir.path()), plan(dir.path()));
        assert!(searched.stdout.is_empty(), "no ranking printed");
        for out in [searched, planned] {
            let stderr = stderr(&out);
            assert!(!out.status.success(), "{stderr}");
            assert!(stderr.contains(victim.as_str()), "{victim}: {stderr}");
        }
    }

    // A meta of fragment format version 2.
    let dir = copy();
    let mut old = built.meta.clone();
    old[8..12].copy_from_slice(&2u32.to_le_bytes());
    reseal(&mut old);
    std::fs::write(dir.path().join("meta"), old).unwrap();
    for out in [search(dir.path()), plan(dir.path())] {
        let stderr = stderr(&out);
        assert!(!out.status.success(), "{stderr}");
        assert!(
            stderr.contains("fragment format version 2") && stderr.contains("cut the pool again"),
            "{stderr}"
        );
    }
}
