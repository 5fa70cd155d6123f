//! `nomos build`: read a source, analyse and index it, write a blob, or
//! fragments (`--fragments`), or both; [`vectors`] embeds the documents,
//! every one or those [`priority`] puts first.
//!
//! Policy for dubious input (never silent): duplicate document or query ids
//! fail; judgments naming unknown queries or documents are dropped; empty
//! texts are kept. Every case is reported on stderr with a count.

use std::fs;
use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use clap::ValueEnum;
use nomos_core::analysis::Analyzer;
use nomos_core::blob::DenseModel;
use nomos_core::blob::{encode, BlobInput, DenseInput, EncodeReport, Manifest, ManifestFile};
use nomos_core::dense::Ivf;
use nomos_core::embed::Pooling;
use nomos_core::fragments::{fragment_input, DenseLists};
use nomos_core::index::InvertedIndex;
use nomos_core::search::{Bm25Params, Bm25Variant};

use super::{analyzer_by_name, fragment};
use crate::cli::{BuildArgs, SourceFormat};
use crate::definition_uses::add_definition_edges;
use crate::error::bad_input;
use crate::interrupt;
use crate::progress;
use crate::sources::dataset::Dataset;
use crate::sources::tabular::read_table;
use crate::sources::{
    augmented, beir, crawler, da_acts, el_codes, gbr, nomothesia, stard, syntagma,
};
use priority::Priority;
use vectors::{EmbedOptions, Selection, Vectors};

mod priority;
mod vectors;

/// How many example ids a warning or error lists.
const EXAMPLES: usize = 5;

pub fn run(args: BuildArgs) -> Result<()> {
    let row = format_row(args.source.format);
    let analyzer = analyzer_by_name(&analyzer_name(&args, &row)?)?;
    let mut phases = Phases::start();
    let reading = progress::spinner(format!("reading {}", args.source.src.display()));
    let mut pool = (row.read)(&args.source.src)?;
    check_ids(&pool)?;
    add_definition_edges(&mut pool);
    reading.finish_and_clear();
    phases.done("read");
    if let Some(path) = &args.augmented {
        let dir = path.parent().unwrap_or(Path::new("."));
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        augmented::attach(&mut pool, read_table(dir, name)?)?;
    }
    warn_empty_texts(&pool);

    let indexes = index_fields(&pool, analyzer)?;
    phases.done("index");
    let pooling = effective_pooling(args.pooling, &pool);
    let vectors = match &args.embed {
        Some(dir) => {
            let (selection, priority) = selection(&args, &pool)?;
            let options = EmbedOptions {
                model_dir: dir,
                pooling,
                runtime: args.runtime.runtime(),
                vectors_out: args.vectors_out.as_deref(),
                cache_file: args.embed_cache.as_deref(),
                max_rows: args.embed_batch as usize,
            };
            let vectors = vectors::embed_documents(&pool, &options, &selection)?;
            if selection.partial(&pool) {
                let note = coverage_note(&pool, priority.as_ref(), &vectors);
                eprintln!("{note}");
                pool.notes.push(note);
            }
            Some(vectors).filter(|v| v.text.n_docs() > 0)
        }
        None => None,
    };
    if args.embed.is_some() {
        phases.done("embed");
    }
    let lists = match (&vectors, &args.fragments) {
        (Some(v), Some(_)) => {
            let n = args
                .lists
                .map_or_else(|| Ivf::default_lists(v.text.n_vectors()), |n| n as usize);
            let clustering = progress::spinner(format!("clustering the vectors into {n} lists"));
            let ivf = Ivf::build(&v.text, n, 1).map_err(bad_input)?;
            clustering.finish_and_clear();
            phases.done("lists");
            Some((
                DenseModel {
                    id: v.model.clone(),
                    manifest_hash: v.manifest_hash.clone(),
                    dim: v.text.dim(),
                    pooling,
                },
                ivf,
            ))
        }
        _ => None,
    };
    let (documents, queries, judgments) = (pool.articles, pool.queries, pool.judgments);
    let sources = pool.sources;
    let input = BlobInput {
        builder: format!("nomos {}", env!("CARGO_PKG_VERSION")),
        analyzer: analyzer.name().to_owned(),
        bm25: Bm25Params::new(row.variant).into(),
        manifest: Manifest {
            title: title(&args, &row),
            dataset: pool.dataset,
            files: pool
                .files
                .into_iter()
                .map(|f| ManifestFile {
                    name: f.name,
                    sha256: f.sha256,
                })
                .collect(),
            notes: pool.notes,
        },
        documents: &documents,
        queries: &queries,
        judgments: &judgments,
        text_index: &indexes.text,
        augmented_index: indexes.augmented.as_ref(),
        editorial_index: indexes.editorial.as_ref(),
        // Vectors for part of the pool go to fragments only (`--embed-only`
        // and `--embed-minutes` need `--fragments` and refuse `--out`).
        dense: vectors
            .as_ref()
            .filter(|v| v.docs.is_none())
            .map(|v| DenseInput {
                model: v.model.clone(),
                model_hash: v.manifest_hash.clone(),
                pooling,
                text: &v.text,
                augmented: v.augmented.as_ref(),
                hybrid: args.hybrid.clone(),
            }),
        sources: &sources,
    };
    let mut summary = Vec::new();
    if let Some(dir) = &args.fragments {
        let deflating = progress::bar(documents.len(), "deflating");
        let dense = vectors.as_ref().zip(lists.as_ref());
        let dense = dense.map(|(v, (model, ivf))| DenseLists {
            model,
            index: &v.text,
            ivf,
            docs: v.docs.as_deref(),
        });
        let (made, report) = fragment_input(&input, args.max_bytes, dense, &|done| {
            deflating.set_position(done as u64);
            if done + 1024 > documents.len() {
                deflating.set_message("cutting");
            }
        })
        .map_err(bad_input)?;
        deflating.finish_and_clear();
        phases.done("cut");
        warn_dropped(&report);
        if indexes.editorial.is_some() {
            eprintln!("{}", fragment::EDITORIAL_NOTE);
        }
        let listed = fragment::write_dir(dir, &made)?;
        phases.done("write fragments");
        summary.push(format!(
            "{} ({} fragments, {} bytes; meta {} bytes)",
            dir.display(),
            listed.n_fragments(),
            listed.fragment_bytes(),
            made.meta.len()
        ));
    }
    if let Some(out) = &args.out {
        let encoding = progress::spinner("encoding the blob".into());
        let (bytes, report) = encode(&input).map_err(bad_input)?;
        encoding.finish_and_clear();
        phases.done("encode");
        warn_dropped(&report);
        write_atomically(out, &bytes)?;
        phases.done("write");
        summary.push(format!("{} ({} bytes)", out.display(), bytes.len()));
    }
    eprintln!(
        "wrote {} ({} documents, {} queries) in {}",
        summary.join(" and "),
        documents.len(),
        queries.len(),
        phases
    );
    Ok(())
}

/// Which documents get vectors: all, or `--embed-only`'s in
/// [`priority`]'s order (also returned); for `--embed-minutes`, until when.
fn selection(args: &BuildArgs, pool: &Dataset) -> Result<(Selection, Option<Priority>)> {
    let mut selection = Selection::all(pool);
    let mut chosen = None;
    if !args.embed_only.is_empty() {
        let first = priority::most_cited_first(pool, &args.embed_only)?;
        let shown: Vec<String> = first
            .acts
            .iter()
            .take(3)
            .map(|(act, docs, cited)| format!("{act} ({docs} documents, cited {cited} times)"))
            .collect();
        eprintln!(
            "embedding {} documents of {} acts ({}), most cited first: {}, …",
            first.order.len(),
            first.acts.len(),
            first.kinds.join(", "),
            shown.join(", ")
        );
        selection.order = first.order.clone();
        chosen = Some(first);
    }
    if let Some(minutes) = args.embed_minutes {
        if !(minutes.is_finite() && minutes >= 0.0) {
            return Err(bad_input(format!(
                "--embed-minutes {minutes}: give a number of minutes, 0 or more"
            )));
        }
        selection.limit = Some(std::time::Duration::from_secs_f64(minutes * 60.0));
        interrupt::trap(
            "interrupt: embedding no new text; the pool is written with the vectors made so \
             far (Ctrl-C again quits at once)",
        )?;
    }
    Ok((selection, chosen))
}

/// The pool's note on which documents have vectors, for the app to show
/// beside hybrid and dense results.
fn coverage_note(pool: &Dataset, chosen: Option<&Priority>, vectors: &Vectors) -> String {
    let n = pool.articles.len();
    let with = vectors.docs.as_ref().map_or(n, Vec::len);
    let which = match chosen {
        None => format!("the first {with} in the pool's order"),
        Some(p) => {
            let mut has = vec![false; n];
            for &d in vectors.docs.iter().flatten() {
                has[d as usize] = true;
            }
            let mut d = 0;
            let mut whole = 0;
            for &(_, docs, _) in &p.acts {
                if !p.order[d..d + docs].iter().all(|&doc| has[doc]) {
                    break;
                }
                whole += 1;
                d += docs;
            }
            format!(
                "the {whole} {} acts other documents cite most, of {}",
                p.kinds.join("/"),
                p.acts.len()
            )
        }
    };
    format!(
        "Vectors: {with} of {n} documents have them, {which}. The others rank by BM25 alone, \
         in hybrid too."
    )
}

/// Wall time per phase of a build, for the summary line: where a large
/// pool's time goes (docs/benchmarks/scale.md, "Scale").
struct Phases {
    last: std::time::Instant,
    /// Name, seconds, and the process's peak resident memory at its end.
    took: Vec<(&'static str, f64, Option<u64>)>,
}

impl Phases {
    fn start() -> Phases {
        Phases {
            last: std::time::Instant::now(),
            took: Vec::new(),
        }
    }

    /// Ends the phase `name`, which began when the previous one ended.
    fn done(&mut self, name: &'static str) {
        let now = std::time::Instant::now();
        self.took
            .push((name, (now - self.last).as_secs_f64(), peak_memory()));
        self.last = now;
    }
}

/// `12.3 s (read 4.0 s to peak 0.4 GB, index 6.1 s to peak 0.9 GB, …)`.
impl std::fmt::Display for Phases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let total: f64 = self.took.iter().map(|(_, s, _)| s).sum();
        let parts: Vec<String> = self
            .took
            .iter()
            .map(|(name, s, peak)| match peak {
                Some(kb) => format!("{name} {s:.1} s to peak {:.2} GB", *kb as f64 / 1e6),
                None => format!("{name} {s:.1} s"),
            })
            .collect();
        write!(f, "{total:.1} s ({})", parts.join(", "))
    }
}

/// The process's peak resident memory so far in kB (`VmHWM`; Linux only).
fn peak_memory() -> Option<u64> {
    let status = fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// `pooling` as this pool can apply it, which the blob records: a `title+`
/// pooling embeds the text alone where titles are not headings
/// ([`Dataset::titles_are_headings`]).
fn effective_pooling(pooling: Pooling, pool: &Dataset) -> Pooling {
    if !pooling.title || pool.titles_are_headings {
        return pooling;
    }
    let alone = Pooling::new(pooling.windows, false);
    eprintln!("note: this pool's titles are not enacted headings: pooling {pooling} embeds the text alone, as {alone}");
    alone
}

/// What a source format implies: everything `build` decides by format.
struct FormatRow {
    /// The analyzer of the benchmark's published baseline (`None`: the
    /// format says nothing about the language; `--analyzer` is required).
    analyzer: Option<&'static str>,
    /// A pool name for pickers when `--title` is not given (`None`: the
    /// source directory's name).
    title: Option<&'static str>,
    /// The BM25 formula of the benchmark's published baseline.
    variant: Bm25Variant,
    read: fn(&Path) -> Result<Dataset>,
}

/// One row per source format: adding a format is adding a row.
fn format_row(format: SourceFormat) -> FormatRow {
    use Bm25Variant::{Lucene, Okapi};
    let row = |analyzer, title, variant, read| FormatRow {
        analyzer,
        title,
        variant,
        read,
    };
    match format {
        SourceFormat::Beir => row(None, None, Okapi, beir::read_beir),
        SourceFormat::Gbr => row(
            Some("gbr-greek"),
            Some("GreekBarRetrieval"),
            Okapi,
            gbr::read_gbr,
        ),
        SourceFormat::CrawlerDk => row(
            Some("da"),
            Some("CRAwLeR-DK"),
            Lucene,
            crawler::read_crawler_dk,
        ),
        SourceFormat::Stard => row(
            Some("zh"),
            Some("STARD (reduced pool)"),
            Okapi,
            stard::read_stard,
        ),
        SourceFormat::DaActs => row(
            Some("da"),
            Some("Danish consolidated acts"),
            Lucene,
            da_acts::read_da_acts,
        ),
        SourceFormat::DaLaw => row(
            Some("da"),
            Some("Danish law in force"),
            Lucene,
            da_acts::read_da_law,
        ),
        SourceFormat::ElSyntagma => row(
            Some("gbr-greek"),
            Some("Greek Constitution"),
            Okapi,
            syntagma::read_syntagma,
        ),
        SourceFormat::ElNomothesia => row(
            Some("gbr-greek"),
            Some("Greek transport and customs acts"),
            Okapi,
            nomothesia::read_nomothesia,
        ),
        SourceFormat::ElCodes => row(
            Some("gbr-greek"),
            Some("Greek codes"),
            Okapi,
            el_codes::read_el_codes,
        ),
        SourceFormat::ElCodesHistorical => row(
            Some("gbr-greek"),
            Some("Greek codes, repealed (historical)"),
            Okapi,
            el_codes::read_el_codes_historical,
        ),
    }
}

fn analyzer_name(args: &BuildArgs, row: &FormatRow) -> Result<String> {
    pick_analyzer(args.source.format, args.source.analyzer.as_deref(), row)
}

/// `given`, else the format's analyzer.
fn pick_analyzer(format: SourceFormat, given: Option<&str>, row: &FormatRow) -> Result<String> {
    match (given, row.analyzer) {
        (Some(name), _) => Ok(name.to_owned()),
        (None, Some(name)) => Ok(name.to_owned()),
        (None, None) => Err(bad_input(format!(
            "--analyzer is required with --format {} (gbr-greek, da or zh)",
            format
                .to_possible_value()
                .expect("formats have names")
                .get_name()
        ))),
    }
}

/// The analyzer and BM25 formula of `format`'s published baseline, which
/// a blob built from it ranks with by default.
pub(super) fn baseline(format: SourceFormat) -> (Option<&'static str>, Bm25Params) {
    let row = format_row(format);
    (row.analyzer, Bm25Params::new(row.variant))
}

/// Reads `src` as `format` reads it for `build`, with the name of the
/// analyzer `build` would use (`analyzer`, else the format's).
pub(super) fn read_pool(
    format: SourceFormat,
    src: &Path,
    analyzer: Option<&str>,
) -> Result<(Dataset, String)> {
    let row = format_row(format);
    let name = pick_analyzer(format, analyzer, &row)?;
    let mut pool = (row.read)(src)?;
    check_ids(&pool)?;
    add_definition_edges(&mut pool);
    Ok((pool, name))
}

/// `--title`, else the format's, else the source directory's name.
fn title(args: &BuildArgs, row: &FormatRow) -> String {
    if let Some(title) = &args.title {
        return title.clone();
    }
    match row.title {
        Some(title) => title.to_owned(),
        None => args
            .source
            .src
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "BEIR".into()),
    }
}

/// Duplicate document or query ids make the blob ambiguous: refuse them.
fn check_ids(pool: &Dataset) -> Result<()> {
    for (what, ids) in [
        (
            "document",
            pool.articles
                .iter()
                .map(|a| a.id.as_str())
                .collect::<Vec<_>>(),
        ),
        (
            "query",
            pool.queries.iter().map(|q| q.id.as_str()).collect(),
        ),
    ] {
        let mut seen = std::collections::HashSet::new();
        let dups: Vec<&str> = ids.into_iter().filter(|id| !seen.insert(*id)).collect();
        if !dups.is_empty() {
            return Err(bad_input(format!(
                "{} duplicate {what} ids, e.g. {}",
                dups.len(),
                examples(&dups)
            )));
        }
    }
    Ok(())
}

fn warn_empty_texts(pool: &Dataset) {
    let empty: Vec<&str> = pool
        .articles
        .iter()
        .filter(|a| a.text.trim().is_empty())
        .map(|a| a.id.as_str())
        .collect();
    if !empty.is_empty() {
        eprintln!(
            "warning: {} documents have empty text (kept, never retrieved), e.g. {}",
            empty.len(),
            examples(&empty)
        );
    }
}

fn warn_dropped(r: &EncodeReport) {
    let cases = [
        (
            r.judgments_unknown_query,
            "judgments name unknown queries (dropped)",
        ),
        (
            r.judgments_unknown_doc,
            "judgments name unknown documents (dropped)",
        ),
        (
            r.judgments_duplicate,
            "judgments repeat a (query, document) pair (first kept)",
        ),
        (
            r.explicit_refs_unknown,
            "explicit references name unknown ids (dropped)",
        ),
        (
            r.implicit_refs_unknown,
            "implicit references name unknown ids (dropped)",
        ),
        (
            r.definition_refs_unknown,
            "definition edges name unknown ids (dropped)",
        ),
    ];
    for (count, what) in cases {
        if count > 0 {
            eprintln!("warning: {count} {what}");
        }
    }
}

fn examples(ids: &[&str]) -> String {
    let shown: Vec<String> = ids
        .iter()
        .take(EXAMPLES)
        .map(|id| format!("`{id}`"))
        .collect();
    match ids.len() > EXAMPLES {
        true => format!("{}, ...", shown.join(", ")),
        false => shown.join(", "),
    }
}

struct Indexes {
    text: InvertedIndex,
    augmented: Option<InvertedIndex>,
    /// Over the titles, where they are editorial headings.
    editorial: Option<InvertedIndex>,
}

/// Analyses and indexes the text field, and the augmented field when any
/// article has one; articles without fall back to their plain text there,
/// so that both fields rank the same documents. Where the pool's titles
/// are enacted headings ([`Dataset::titles_are_headings`]), each field's tokens start
/// with the title's; where the pool asks ([`Dataset::source_names_indexed`]),
/// with the source's name and aliases before that. Editorial titles
/// ([`Dataset::titles_are_editorial`]) get an index of their own.
fn index_fields(pool: &Dataset, analyzer: Analyzer) -> Result<Indexes> {
    let names: std::collections::HashMap<&str, Vec<String>> = match pool.source_names_indexed {
        true => pool
            .sources
            .iter()
            .map(|s| {
                let words = std::iter::once(&s.info.name).chain(&s.info.aliases);
                let tokens = words.flat_map(|w| analyzer.tokens(w)).collect();
                (s.source.as_str(), tokens)
            })
            .collect(),
        false => Default::default(),
    };
    let n_augmented = pool
        .articles
        .iter()
        .filter(|a| a.augmented.is_some())
        .count();
    let fields = if n_augmented > 0 { 2 } else { 1 };
    if n_augmented > 0 && n_augmented < pool.articles.len() {
        eprintln!(
            "warning: {} of {} documents have no augmented text; their plain text \
             stands in for it in the augmented field",
            pool.articles.len() - n_augmented,
            pool.articles.len()
        );
    }
    let bar = progress::bar(pool.articles.len() * fields, "indexing");
    // Documents are analysed as the index takes them, one at a time: all
    // token lists at once would hold every token of the pool as a String
    // (gigabytes at a million documents).
    let index = |text_of: &dyn Fn(&crate::sources::dataset::Article) -> &str| {
        let tokens = pool.articles.iter().map(|a| {
            bar.inc(1);
            let mut tokens = names.get(a.source.as_str()).cloned().unwrap_or_default();
            if pool.titles_are_headings {
                tokens.extend(analyzer.tokens(&a.title));
            }
            tokens.extend(analyzer.tokens(text_of(a)));
            tokens
        });
        InvertedIndex::build(tokens).map_err(bad_input)
    };
    let text = index(&|a| &a.text)?;
    let augmented = match n_augmented {
        0 => None,
        _ => Some(index(&|a| a.augmented.as_deref().unwrap_or(&a.text))?),
    };
    let editorial = match pool.titles_are_editorial {
        true => Some(
            InvertedIndex::build(pool.articles.iter().map(|a| analyzer.tokens(&a.title)))
                .map_err(bad_input)?,
        ),
        false => None,
    };
    bar.finish_and_clear();
    Ok(Indexes {
        text,
        augmented,
        editorial,
    })
}

/// Writes to a temporary file beside `out`, then renames it into place, so
/// a reader never sees a half-written blob.
pub(super) fn write_atomically(out: &Path, bytes: &[u8]) -> Result<()> {
    let dir = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = out
        .file_name()
        .ok_or_else(|| bad_input(format!("{}: not a file path", out.display())))?;
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| -> Result<()> {
        let mut file =
            fs::File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&tmp, out).with_context(|| format!("renaming to {}", out.display()))
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}
