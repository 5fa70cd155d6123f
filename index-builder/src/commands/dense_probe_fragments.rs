//! `nomos dense-probe --fragments DIR`: what probing fewer lists costs and
//! saves on a fragmented pool, over the lists it was cut with, reading
//! what the browser fetches. Known items are drawn from the documents
//! that have vectors (seeded): the query is a run of [`QUERY_WORDS`] words
//! of the document's own text, and the document is relevant, with every
//! document whose vectors are the same (the same text: Danish law keeps
//! many versions of an act, most of their stykker alike). Per number of probed lists it prints nDCG@10 and overlap@10
//! with every list probed (exhaustive int8 over the stored vectors), and
//! the lists fragments' bytes a query fetches.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use nomos_core::eval::significance::Prng;
use nomos_core::eval::{evaluate, Measure, Qrels, Run};
use nomos_core::fragments::{FragmentKind, ListsFragment, Meta};
use nomos_core::hits::Hit;
use xxhash_rust::xxh3::xxh3_64;

use super::dense_probe::overlap;
use super::make_queries::shuffle;
use super::plan::{shown_docs, META_FILE};
use super::search_fragments::query_model;
use crate::cli::DenseProbeArgs;
use crate::error::bad_input;

/// Words in a known item's query: about what a user recalls of a
/// provision.
const QUERY_WORDS: usize = 8;

pub fn run(dir: &Path, args: &DenseProbeArgs) -> Result<()> {
    let read = |file: &str| -> Result<Vec<u8>> {
        std::fs::read(dir.join(file)).with_context(|| format!("cannot read {file}"))
    };
    let meta = Meta::load(&read(META_FILE)?)?;
    let n = meta.needed_centroids()?;
    let centroids = meta.open_centroids(n, &read(&meta.fragments()[n].file)?)?;
    let lists: Vec<ListsFragment> = (0..meta.fragments().len())
        .filter(|&n| meta.fragments()[n].kind == FragmentKind::Lists)
        .map(|n| Ok(meta.open_lists(n, &read(&meta.fragments()[n].file)?)?))
        .collect::<Result<_>>()?;
    let with_vectors: BTreeSet<u32> = lists
        .iter()
        .flat_map(|l| l.documents().iter().copied())
        .collect();
    let mut drawn: Vec<u32> = with_vectors.iter().copied().collect();
    let mut prng = Prng::new(args.seed);
    shuffle(&mut drawn, &mut prng);
    drawn.truncate(args.known_items);
    drawn.sort_unstable();
    let (_, opened) = shown_docs(dir, &meta, &drawn)?;
    let mut queries = Vec::new();
    for &doc in &drawn {
        let (docs, _) = opened
            .iter()
            .find(|(f, _)| f.id(doc).is_some())
            .context("a drawn document's fragment is missing")?;
        let text = docs.article(doc)?.text;
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.len() < 3 {
            continue;
        }
        let start =
            (prng.next_u64() % (words.len().saturating_sub(QUERY_WORDS) + 1) as u64) as usize;
        let end = (start + QUERY_WORDS).min(words.len());
        queries.push((doc, words[start..end].join(" ")));
    }
    if queries.is_empty() {
        return Err(bad_input(
            "no document with vectors has text to draw a query from",
        ));
    }
    let mut embedder = query_model(
        &meta,
        args.ranking.model.as_deref(),
        args.ranking.runtime.runtime(),
        "dense",
    )?;
    let embeddings = queries
        .iter()
        .map(|(_, q)| embedder.embed_query(q))
        .collect::<Result<Vec<_>>>()?;
    let vectors: usize = (0..meta.n_lists()).map(|l| meta.list_size(l)).sum();
    eprintln!(
        "{} documents, {} with vectors ({vectors} vectors in {} lists); {} known items drawn \
         (seed {}), a run of {QUERY_WORDS} words of each",
        meta.n_docs(),
        with_vectors.len(),
        meta.n_lists(),
        queries.len(),
        args.seed
    );
    // Documents by their vectors' codes: a known item's twins.
    let mut codes_of: HashMap<u32, Vec<u64>> = HashMap::new();
    for list in &lists {
        for (doc, codes) in list.vectors() {
            let bytes: Vec<u8> = codes.iter().map(|&c| c as u8).collect();
            codes_of.entry(doc).or_default().push(xxh3_64(&bytes));
        }
    }
    let mut twins: HashMap<Vec<u64>, Vec<u32>> = HashMap::new();
    for (doc, mut hashes) in codes_of {
        hashes.sort_unstable();
        twins.entry(hashes).or_default().push(doc);
    }
    let twin_of: HashMap<u32, &Vec<u32>> = twins
        .values()
        .flat_map(|docs| docs.iter().map(move |&d| (d, docs)))
        .collect();
    let mut qrels = Qrels::new();
    let mut relevant = 0;
    for (doc, _) in &queries {
        for &twin in twin_of.get(doc).map_or(&[][..], |t| t.as_slice()) {
            qrels.insert(&doc.to_string(), &twin.to_string(), 1)?;
            relevant += 1;
        }
    }
    eprintln!(
        "{relevant} relevant documents: each known item and the documents with its vectors \
         (its text in other versions)"
    );
    let rank = |probes: usize| -> Result<(Vec<Vec<Hit>>, Vec<u64>, f64)> {
        let mut rankings = Vec::new();
        let mut bytes = Vec::new();
        let started = Instant::now();
        for q in &embeddings {
            let needed = meta.needed_lists(&centroids, q, probes)?;
            bytes.push(needed.iter().map(|&n| meta.fragments()[n].len).sum());
            let given: Vec<&ListsFragment> = lists
                .iter()
                .filter(|l| needed.contains(&l.number()))
                .collect();
            rankings.push(meta.rank_dense(&centroids, q, probes, &given, args.depth)?);
        }
        let ms = started.elapsed().as_secs_f64() * 1e3 / embeddings.len() as f64;
        Ok((rankings, bytes, ms))
    };
    let (every, _, _) = rank(0)?;
    let ndcg = |rankings: &[Vec<Hit>]| -> Result<f64> {
        let mut run = Run::new();
        for ((doc, _), hits) in queries.iter().zip(rankings) {
            let qid = doc.to_string();
            run.add_query(&qid);
            for h in hits {
                run.push(&qid, &h.doc.to_string(), h.score)?;
            }
        }
        let measure: Measure = "ndcg@10".parse().map_err(bad_input)?;
        Ok(evaluate(&qrels, &run, &[measure]).means[0])
    };
    println!(
        "| probes | lists probed | nDCG@10 | overlap@10 with all lists | vectors fetched / query \
         | lists bytes / query (median) | p90 | ms / query |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|");
    for &probes in &args.probes {
        let (rankings, mut bytes, ms) = rank(probes)?;
        let probed = match probes {
            0 => meta.n_lists(),
            p => p.min(meta.n_lists()),
        };
        let overlap = rankings
            .iter()
            .zip(&every)
            .map(|(h, all)| overlap(&h[..10.min(h.len())], &all[..10.min(all.len())]))
            .sum::<f64>()
            / rankings.len() as f64;
        let fetched: f64 = embeddings
            .iter()
            .map(|q| {
                meta.probed_lists(&centroids, q, probes)
                    .map(|ls| ls.iter().map(|&l| meta.list_size(l)).sum::<usize>())
            })
            .sum::<Result<usize, _>>()? as f64
            / embeddings.len() as f64;
        bytes.sort_unstable();
        let at = |p: f64| bytes[((bytes.len() - 1) as f64 * p).round() as usize];
        println!(
            "| {} | {probed} of {} | {:.4} | {overlap:.3} | {fetched:.0} | {} | {} | {ms:.2} |",
            match probes {
                0 => "all".to_owned(),
                p => p.to_string(),
            },
            meta.n_lists(),
            ndcg(&rankings)?,
            at(0.5),
            at(0.9),
        );
    }
    Ok(())
}
