//! `nomos make-queries --kind definitions`: a context-dependent query set
//! that needs no LLM (issue #37). For a stykke T that uses a term X its
//! document defines in provision D, the query is T's text with each use of
//! X ([`crate::terms`]) replaced by X's definition; the gold is T, the
//! context D. Those words pull toward D, as CRAwLeR-DK's queries pull toward
//! their context chunks. A query is kept only where BM25 (CRAwLeR-DK's
//! baseline, over the set's chunks) does not rank T in its top 10, nor,
//! given a blob of the chunks with vectors (`--dense`), dense. A source has
//! no vectors, so the dense filter takes a second run: make the set, embed
//! its chunks, make it again with the blob.
//!
//! Written in CRAwLeR-DK's files, so `--format crawler-dk` reads each
//! split: `OUT/dev/` and `OUT/test/` (the kept queries, halved at random
//! with `--seed`), `OUT/unfiltered/` (every query made, before the
//! filter), each with the whole pool's `chunks.jsonl`; and
//! `OUT/metadata.json` (what was made, what left and why).
//!
//! `--kind llm` ([`llm`]) makes the set as CRAwLeR-DK did, with an LLM:
//! the same filter and files, its queries written and judged by a model.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::ops::Range;
use std::path::Path;

use anyhow::{Context, Result};
use clap::ValueEnum;
use nomos_core::analysis::Analyzer;
use nomos_core::eval::significance::Prng;
use nomos_core::hits::Hit;
use nomos_core::methods::Method;
use nomos_core::pool::Pool as IndexedPool;
use serde_json::{json, Value};

mod llm;

use super::{analyzer_by_name, build, chunks, ranking};
use crate::blob_file;
use crate::cli::{MakeQueriesArgs, QueryKind, SourceFormat};
use crate::embedder::{self, Embedder};
use crate::error::bad_input;
use crate::progress;
use crate::sources::dataset::{Article, Dataset, Definition};
use crate::terms::Term;

/// The adversarial filter's depth: CRAwLeR-DK drops a query whose gold is
/// in a baseline's top 10.
const FILTER_DEPTH: usize = 10;

/// `nomos make-queries`.
pub fn run(args: &MakeQueriesArgs) -> Result<()> {
    let source = &args.source;
    let (pool, analyzer) =
        build::read_pool(source.format, &source.src, source.analyzer.as_deref())?;
    let dense = match (&args.dense, &args.model) {
        (Some(blob), Some(model)) => Some(DenseFilter::open(
            blob,
            model,
            args.runtime.runtime(),
            &pool.articles,
        )?),
        _ => None,
    };
    if args.kind == QueryKind::Llm {
        return llm::run(args, &pool, &analyzer, dense);
    }
    if pool.definitions.is_empty() {
        return Err(bad_input(format!(
            "{}: no document defines a term (definitions come with --format da-law)",
            source.src.display()
        )));
    }
    let set = make(&pool, args.seed, args.per_definition, args.window, dense)?;
    write(
        &pool,
        &set.made,
        [&set.dev, &set.test],
        &args.out,
        set.metadata(args, &pool),
    )?;
    eprintln!("{}", set.summary());
    Ok(())
}

/// One query: its gold stykke, its text, and where it came from.
#[derive(Debug, Clone)]
pub struct Made {
    pub id: String,
    pub gold: usize,
    pub query: String,
    pub origin: Origin,
}

/// How a query was made, which says what its context is.
#[derive(Debug, Clone)]
pub enum Origin {
    /// The definition (a position in the pool's) substituted for its term.
    Definition(usize),
    /// Written by an LLM from the stykker the gold cites, of which it
    /// used these.
    Llm { utilized: Vec<String> },
}

/// The set and why the rest left.
#[derive(Debug, Default)]
pub struct QuerySet {
    pub made: Vec<Made>,
    /// Positions in `made` of the kept queries, by split.
    pub dev: Vec<usize>,
    pub test: Vec<usize>,
    pub definitions: usize,
    /// A term its document defined before (the first definition counts).
    pub repeated_terms: usize,
    /// Its provision is no § of the document's stykker.
    pub unplaced: usize,
    /// No other stykke of its document uses the term.
    pub unused: usize,
    /// Stykker that use a term beyond the `--per-definition` drawn.
    pub not_drawn: usize,
    /// Queries whose gold BM25 ranks in its top 10.
    pub in_bm25_top: usize,
    /// Of the others, those whose gold dense ranks in its top 10 (`None`:
    /// dense did not filter).
    pub in_dense_top: Option<usize>,
    /// The dense filter's blob and model, as the metadata records them.
    pub dense_filter: Option<String>,
}

impl QuerySet {
    pub fn kept(&self) -> usize {
        self.dev.len() + self.test.len()
    }

    fn summary(&self) -> String {
        format!(
            "{} definitions: {} terms repeated in their document, {} in no § of it, {} used by no \
             other stykke; {} queries made ({} more stykker not drawn); {} left as BM25 ranks the \
             gold in its top {FILTER_DEPTH}{}; {} kept: {} dev, {} test",
            self.definitions,
            self.repeated_terms,
            self.unplaced,
            self.unused,
            self.made.len(),
            self.not_drawn,
            self.in_bm25_top,
            match self.in_dense_top {
                Some(n) => format!(", {n} more as dense does"),
                None => String::new(),
            },
            self.kept(),
            self.dev.len(),
            self.test.len()
        )
    }
}

/// Makes the queries of `pool`'s definitions, at most `per_definition` per
/// definition (drawn with `seed`), filters them by BM25 (and `dense`) and
/// splits them.
pub fn make(
    pool: &Dataset,
    seed: u64,
    per_definition: usize,
    window: usize,
    dense: Option<DenseFilter>,
) -> Result<QuerySet> {
    let mut prng = Prng::new(seed);
    let mut set = QuerySet {
        definitions: pool.definitions.len(),
        dense_filter: dense.as_ref().map(|d| d.describe.clone()),
        ..QuerySet::default()
    };
    // Each document's stykker (text outside §§ is no stykke to retrieve).
    let mut stykker: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, a) in pool.articles.iter().enumerate() {
        if a.id.contains("_§") {
            stykker.entry(a.source.as_str()).or_default().push(i);
        }
    }
    let mut terms_seen = HashSet::new();
    for (d, def) in pool.definitions.iter().enumerate() {
        if !terms_seen.insert((def.source.as_str(), def.term.to_lowercase())) {
            set.repeated_terms += 1;
            continue;
        }
        let Some(term) = Term::new(&def.term).filter(|_| !def.defined_in.is_empty()) else {
            set.unplaced += 1;
            continue;
        };
        let mut users: Vec<usize> = stykker
            .get(def.source.as_str())
            .into_iter()
            .flatten()
            .copied()
            .filter(|&i| {
                let a = &pool.articles[i];
                !def.defined_in.contains(&a.id) && !term.find(&a.text).is_empty()
            })
            .collect();
        if users.is_empty() {
            set.unused += 1;
            continue;
        }
        shuffle(&mut users, &mut prng);
        let drawn = users.len().min(per_definition);
        set.not_drawn += users.len() - drawn;
        users.truncate(drawn);
        users.sort_unstable();
        for gold in users {
            set.made.push(Made {
                id: format!("d{}", set.made.len()),
                gold,
                query: query(&term, &pool.articles[gold].text, &def.definition, window),
                origin: Origin::Definition(d),
            });
        }
    }
    let filtered = filter_adversarially(pool, &set.made, dense)?;
    set.in_bm25_top = filtered.in_bm25_top;
    set.in_dense_top = filtered.in_dense_top;
    (set.dev, set.test) = split(filtered.kept, &mut prng);
    Ok(set)
}

/// What the adversarial filter kept, and how many each baseline removed.
pub struct Filtered {
    /// Positions of the queries kept, in order.
    pub kept: Vec<usize>,
    pub in_bm25_top: usize,
    /// `None` when dense did not filter.
    pub in_dense_top: Option<usize>,
}

/// Keeps the queries whose gold neither BM25 nor (given) dense ranks in
/// its top [`FILTER_DEPTH`], as CRAwLeR-DK's rank filter does.
pub fn filter_adversarially(
    pool: &Dataset,
    made: &[Made],
    dense: Option<DenseFilter>,
) -> Result<Filtered> {
    let mut kept = filter(pool, made)?;
    let in_bm25_top = made.len() - kept.len();
    let mut in_dense_top = None;
    if let Some(mut dense) = dense {
        let before = kept.len();
        let bar = progress::bar(before, "filtering by dense");
        let mut outside = Vec::new();
        for i in kept {
            bar.inc(1);
            if !dense.ranks_in_top(&made[i])? {
                outside.push(i);
            }
        }
        bar.finish_and_clear();
        in_dense_top = Some(before - outside.len());
        kept = outside;
    }
    Ok(Filtered {
        kept,
        in_bm25_top,
        in_dense_top,
    })
}

/// `kept` halved at random: (dev, test), each in order.
fn split(mut kept: Vec<usize>, prng: &mut Prng) -> (Vec<usize>, Vec<usize>) {
    shuffle(&mut kept, prng);
    let test = kept.split_off(kept.len().div_ceil(2));
    (sorted(kept), sorted(test))
}

/// The words of `text` around the term's first use, `window` on each side
/// (all of `text` for 0), with every use of the term in them replaced by
/// `definition`.
fn query(term: &Term, text: &str, definition: &str, window: usize) -> String {
    let excerpt = match (window, term.find(text).first()) {
        (1.., Some(used)) => excerpt(text, used.clone(), window),
        _ => text,
    };
    term.replace(excerpt, definition)
}

/// The whitespace-separated words of `text` that overlap `at`, and
/// `window` more on each side.
fn excerpt(text: &str, at: Range<usize>, window: usize) -> &str {
    let mut words: Vec<Range<usize>> = Vec::new();
    let mut start = None;
    for (i, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                words.push(s..i);
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    let first = words.iter().position(|w| w.end > at.start).unwrap_or(0);
    let last = words
        .iter()
        .rposition(|w| w.start < at.end)
        .unwrap_or(words.len().saturating_sub(1));
    let from = words
        .get(first.saturating_sub(window))
        .map_or(0, |w| w.start);
    let to = words
        .get((last + window).min(words.len().saturating_sub(1)))
        .map_or(text.len(), |w| w.end);
    &text[from..to]
}

/// Positions in `made` of the queries whose gold BM25 ranks below its top
/// [`FILTER_DEPTH`], over the chunks as `--format crawler-dk` indexes them.
/// A gold tied with the last of the top counts as in it: evaluation orders
/// ties by document id (trec_eval's rule), not as the run lists them.
fn filter(pool: &Dataset, made: &[Made]) -> Result<Vec<usize>> {
    let (analyzer, params) = build::baseline(SourceFormat::CrawlerDk);
    let analyzer: Analyzer = analyzer_by_name(analyzer.unwrap_or("da"))?;
    let index = ranking::index_articles(&pool.articles, &analyzer)?;
    let indexed = IndexedPool::from_parts(analyzer, index, params).map_err(bad_input)?;
    let bar = progress::bar(made.len(), "filtering");
    let mut kept = Vec::new();
    for (i, m) in made.iter().enumerate() {
        bar.inc(1);
        let hits = indexed
            .rank(
                &Method::Bm25,
                &params,
                &analyzer.tokens(&m.query),
                None,
                TIE_DEPTH,
                false,
            )
            .map_err(|e| bad_input(format!("query {}: {e}", m.id)))?;
        if !in_top(&hits, m.gold) {
            kept.push(i);
        }
    }
    bar.finish_and_clear();
    Ok(kept)
}

/// The dense half of the filter: the set's chunks' vectors, in a blob
/// whose documents are the pool's articles in order, and the model that
/// made them, to embed each query.
pub struct DenseFilter {
    pool: IndexedPool,
    embedder: Box<dyn Embedder>,
    /// The blob and model, for the metadata.
    describe: String,
}

impl DenseFilter {
    /// Opens `blob` and checks it holds `articles`, in order, with vectors
    /// made by the model in `model_dir`.
    pub fn open(
        blob: &Path,
        model_dir: &Path,
        runtime: embedder::Runtime<'_>,
        articles: &[Article],
    ) -> Result<DenseFilter> {
        let mut loaded = blob_file::open(blob)?;
        let same = loaded.n_docs() == articles.len()
            && (0..articles.len()).all(|d| loaded.doc_id(d) == Some(articles[d].id.as_str()));
        if !same {
            return Err(bad_input(format!(
                "{}: its documents are not this source's chunks in order; build it with \
                 `nomos build --format crawler-dk OUT/unfiltered --embed MODEL_DIR` from a \
                 first run's output",
                blob.display()
            )));
        }
        let pool = IndexedPool::from_blob(&mut loaded)
            .map_err(|e| bad_input(format!("{}: {e}", blob.display())))?;
        let Some(model) = pool.dense_model() else {
            return Err(bad_input(format!(
                "{} has no vectors: build it with --embed MODEL_DIR",
                blob.display()
            )));
        };
        let embedder = embedder::open(model_dir, runtime)?;
        if embedder.manifest_hash() != model.manifest_hash {
            return Err(bad_input(format!(
                "{} holds model {}, but the blob's vectors come from {}: embed queries with \
                 the same model",
                model_dir.display(),
                embedder.model_id(),
                model.id
            )));
        }
        let describe = format!(
            "kept where dense ({}, int8, every vector) does not rank the gold in its top \
             {FILTER_DEPTH} either",
            model.id
        );
        Ok(DenseFilter {
            pool,
            embedder,
            describe,
        })
    }

    /// Whether dense ranks `made`'s gold in its top [`FILTER_DEPTH`] (ties
    /// with the last counting as in, as for BM25).
    fn ranks_in_top(&mut self, made: &Made) -> Result<bool> {
        let embedding = self.embedder.embed_query(&made.query)?;
        let params = self.pool.default_params();
        let hits = self
            .pool
            .rank(
                &Method::Dense { probes: 0 },
                &params,
                &[] as &[&str],
                Some(&embedding),
                TIE_DEPTH,
                false,
            )
            .map_err(|e| bad_input(format!("query {}: {e}", made.id)))?;
        Ok(in_top(&hits, made.gold))
    }
}

/// How deep the filter ranks to see the ties of the top's last score.
const TIE_DEPTH: usize = 10 * FILTER_DEPTH;

/// Whether `gold` is in the top [`FILTER_DEPTH`] of `hits` or tied with its
/// last; when the tie runs past `hits`, it may be, and counts as in.
fn in_top(hits: &[Hit], gold: usize) -> bool {
    let Some(last) = hits.get(FILTER_DEPTH - 1).map(|h| h.score) else {
        return hits.iter().any(|h| h.doc as usize == gold);
    };
    let tied_past = hits.len() == TIE_DEPTH && hits[TIE_DEPTH - 1].score >= last;
    tied_past
        || hits
            .iter()
            .take_while(|h| h.score >= last)
            .any(|h| h.doc as usize == gold)
}

/// Fisher–Yates with `prng`.
pub(super) fn shuffle<T>(items: &mut [T], prng: &mut Prng) {
    for i in (1..items.len()).rev() {
        let j = (prng.next_u64() % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}

fn sorted(mut v: Vec<usize>) -> Vec<usize> {
    v.sort_unstable();
    v
}

/// Writes the splits of `made` (`[dev, test]`, positions in it, and
/// every query as `unfiltered`) and `metadata` under `out`.
fn write(
    pool: &Dataset,
    made: &[Made],
    [dev, test]: [&[usize]; 2],
    out: &Path,
    metadata: Value,
) -> Result<()> {
    let chunks = chunks::rows(&pool.articles, |_| true)?;
    let by_id: HashMap<&str, &Article> = pool.articles.iter().map(|a| (a.id.as_str(), a)).collect();
    let all: Vec<usize> = (0..made.len()).collect();
    for (name, which) in [("dev", dev), ("test", test), ("unfiltered", &all)] {
        let dir = out.join(name);
        fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        write_file(&dir.join("chunks.jsonl"), &chunks)?;
        let mut rows = Vec::new();
        for &i in which {
            serde_json::to_writer(&mut rows, &query_row(pool, &by_id, &made[i], name))?;
            rows.push(b'\n');
        }
        write_file(&dir.join("contextual_queries.jsonl"), &rows)?;
    }
    let mut text = serde_json::to_vec_pretty(&metadata)?;
    text.push(b'\n');
    write_file(&out.join("metadata.json"), &text)
}

/// The filter as the metadata states it.
fn filter_described() -> String {
    format!(
        "kept where BM25 (analyzer da, Lucene k1 1.5 b 0.75, over chunks.jsonl) does not rank \
         the gold in its top {FILTER_DEPTH}"
    )
}

/// The dense filter as the metadata states it.
fn dense_described(dense_filter: Option<&str>) -> &str {
    dense_filter.unwrap_or(
        "not applied: a source has no vectors (give --dense, a blob of the chunks with them)",
    )
}

impl QuerySet {
    /// `metadata.json` of a definitions set made from `pool`.
    fn metadata(&self, args: &MakeQueriesArgs, pool: &Dataset) -> Value {
        let set = self;
        json!({
        "kind": "definitions",
        "source_format": args
            .source
            .format
            .to_possible_value()
            .map(|v| v.get_name().to_owned()),
        "source_files": pool.files.len(),
        "seed": args.seed,
        "per_definition": args.per_definition,
        "window": args.window,
        "filter": filter_described(),
        "dense_filter": dense_described(set.dense_filter.as_deref()),
        "definitions": set.definitions,
        "left_out": {
            "term_repeated_in_document": set.repeated_terms,
            "provision_not_a_section": set.unplaced,
            "term_used_by_no_other_stykke": set.unused,
            "stykker_not_drawn": set.not_drawn,
            "gold_in_bm25_top_10": set.in_bm25_top,
            "gold_in_dense_top_10": set.in_dense_top,
        },
        "made": set.made.len(),
        "kept": set.kept(),
        "dev": set.dev.len(),
        "test": set.test.len(),
        })
    }
}

/// A `contextual_queries.jsonl` row: CRAwLeR-DK's fields, then (for a
/// definitions query) the term and definition substituted, and the split.
fn query_row(pool: &Dataset, by_id: &HashMap<&str, &Article>, m: &Made, split: &str) -> Value {
    let gold: &Article = &pool.articles[m.gold];
    let texts = |ids: &[String]| -> String {
        ids.iter()
            .filter_map(|id| by_id.get(id.as_str()))
            .map(|a| a.text.as_str())
            .collect::<Vec<_>>()
            .join("\n\n")
    };
    let (context, utilized, definition) = match &m.origin {
        Origin::Definition(d) => {
            let def: &Definition = &pool.definitions[*d];
            (&def.defined_in, &def.defined_in, Some(def))
        }
        Origin::Llm { utilized } => (&gold.explicit_refs, utilized, None),
    };
    let mut row = json!({
        "query_id": m.id,
        "chunk_id": gold.id,
        "query": m.query,
        "chunk": gold.text,
        "context_chunks": texts(context),
        "impl_context_chunks": texts(&gold.implicit_refs),
        "utilized_context_chunk_ids": utilized,
    });
    if let Some(def) = definition {
        row["term"] = json!(def.term);
        row["definition"] = json!(def.definition);
    }
    row["split"] = json!(split);
    row
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hits(scores: &[f64]) -> Vec<Hit> {
        scores
            .iter()
            .enumerate()
            .map(|(doc, &score)| Hit {
                doc: doc as u32,
                score,
            })
            .collect()
    }

    #[test]
    fn a_gold_tied_with_the_tenth_counts_as_in_the_top() {
        let mut scores = vec![9.0; 9];
        scores.extend([5.0, 5.0, 5.0, 4.0]);
        let hits = hits(&scores);
        assert!(in_top(&hits, 9));
        assert!(in_top(&hits, 11), "tied with the tenth");
        assert!(!in_top(&hits, 12));
        // A tie running past the depth ranked may hold the gold.
        assert!(in_top(
            &super::tests::hits(&[1.0; TIE_DEPTH]),
            TIE_DEPTH + 5
        ));
        assert!(!in_top(&super::tests::hits(&[2.0, 1.0]), 3));
    }
}
