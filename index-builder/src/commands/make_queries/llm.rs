//! `nomos make-queries --kind llm`: CRAwLeR-DK's recipe (BENCHMARKS.md
//! §2.2) against any endpoint. Stykker that cite other stykker of the pool
//! are drawn as targets (`--targets`, `--seed`); for each, the LLM writes
//! one question that only what the target cites makes findable
//! ([`nomos_core::llm::contextual::write_query`]); the rank filter drops a
//! question whose target BM25 (or, with `--dense`, dense) ranks in its top
//! 10; the LLM then judges each question left
//! ([`nomos_core::llm::contextual::assure`]) and only a "Yes" is kept. The
//! exchanges are recorded with `--transcript` and replay with `--replay`,
//! so that anyone rebuilds the same set without the model.
//!
//! With the small local models it proves the pipeline, not the questions:
//! CRAwLeR-DK's were written by a 120B model and judged by one.

use std::collections::HashMap;

use anyhow::Result;
use nomos_core::eval::significance::Prng;
use nomos_core::llm::contextual::{assure, write_query, QueryPrompts, Target, Written};
use nomos_core::llm::{Cost, Settings};
use serde_json::{json, Value};

use super::{
    dense_described, filter_adversarially, filter_described, shuffle, split, write, DenseFilter,
    Made, Origin,
};
use crate::cli::MakeQueriesArgs;
use crate::error::bad_input;
use crate::llm::{block_on, Backend};
use crate::progress;
use crate::sources::dataset::{Article, Dataset};

/// Characters of cited text shown with a target (whole stykker, in the
/// order cited, at least one): a small model's context window holds a
/// few thousand tokens.
const CONTEXT_CHARS: usize = 6000;

/// `nomos make-queries --kind llm` over `pool`, read with `analyzer`.
pub fn run(
    args: &MakeQueriesArgs,
    pool: &Dataset,
    analyzer: &str,
    dense: Option<DenseFilter>,
) -> Result<()> {
    let (backend, settings) = Backend::open(&args.llm, "make-queries")?;
    let prompts = QueryPrompts::for_run(analyzer, &settings).map_err(bad_input)?;
    let job = Job {
        pool,
        settings: &settings,
        prompts,
    };
    let outcome = make(&job, &backend, args, dense);
    backend.finish()?;
    let set = outcome.map_err(|e| match e {
        Stop::Llm(e) => backend.explain(e),
        Stop::Other(e) => e,
    })?;
    write(
        pool,
        &set.made,
        [&set.dev, &set.test],
        &args.out,
        set.metadata(args, &job),
    )?;
    eprintln!("{}", set.summary());
    Ok(())
}

/// What every request shares.
struct Job<'a> {
    pool: &'a Dataset,
    settings: &'a Settings,
    prompts: QueryPrompts,
}

/// Why a run stopped: the transport (explained by the backend) or
/// anything else.
enum Stop {
    Llm(nomos_core::llm::LlmError),
    Other(anyhow::Error),
}

impl From<anyhow::Error> for Stop {
    fn from(e: anyhow::Error) -> Stop {
        Stop::Other(e)
    }
}

/// The set, and why the rest left.
#[derive(Default)]
struct LlmSet {
    made: Vec<Made>,
    dev: Vec<usize>,
    test: Vec<usize>,
    /// Stykker citing at least one other stykke of the pool.
    eligible: usize,
    drawn: usize,
    /// Targets whose question was not the JSON asked for, twice.
    not_written: usize,
    in_bm25_top: usize,
    in_dense_top: Option<usize>,
    dense_filter: Option<String>,
    /// Judged "No".
    not_assured: usize,
    /// Whose verdict was not the JSON asked for, twice.
    not_judged: usize,
    cost: Cost,
}

fn make(
    job: &Job<'_>,
    backend: &Backend,
    args: &MakeQueriesArgs,
    dense: Option<DenseFilter>,
) -> Result<LlmSet, Stop> {
    let pool = job.pool;
    let by_id: HashMap<&str, usize> = pool
        .articles
        .iter()
        .enumerate()
        .map(|(i, a)| (a.id.as_str(), i))
        .collect();
    let cited = |a: &Article| -> Vec<usize> {
        a.explicit_refs
            .iter()
            .filter_map(|id| by_id.get(id.as_str()).copied())
            .collect()
    };
    let mut targets: Vec<usize> = (0..pool.articles.len())
        .filter(|&i| !cited(&pool.articles[i]).is_empty())
        .collect();
    let mut set = LlmSet {
        eligible: targets.len(),
        dense_filter: None,
        ..LlmSet::default()
    };
    if targets.is_empty() {
        return Err(bad_input(format!(
            "{}: no stykke cites another stykke of the pool",
            args.source.src.display()
        ))
        .into());
    }
    let mut prng = Prng::new(args.seed);
    shuffle(&mut targets, &mut prng);
    targets.truncate(args.targets);
    targets.sort_unstable();
    set.drawn = targets.len();

    let texts = |ids: &[usize]| -> Vec<(&str, &str)> {
        ids.iter()
            .map(|&i| (pool.articles[i].id.as_str(), pool.articles[i].text.as_str()))
            .collect()
    };
    let bar = progress::bar(targets.len(), "writing queries");
    let mut shown: Vec<(usize, Vec<usize>, String)> = Vec::new();
    for &gold in &targets {
        bar.inc(1);
        let article = &pool.articles[gold];
        let context = within_budget(&pool.articles, cited(article));
        let implicit = implicit_text(&by_id, pool, article);
        let target = Target {
            chunk: &article.text,
            implicit: &implicit,
            context: &texts(&context),
        };
        let (answer, cost) =
            block_on(write_query(backend, job.settings, job.prompts, target)).map_err(Stop::Llm)?;
        set.cost.add(&cost);
        match answer {
            Ok(Written { query, utilized }) => {
                set.made.push(Made {
                    id: format!("l{}", set.made.len()),
                    gold,
                    query,
                    origin: Origin::Llm { utilized },
                });
                shown.push((gold, context, implicit));
            }
            Err(_) => set.not_written += 1,
        }
    }
    bar.finish_and_clear();

    set.dense_filter = dense.as_ref().map(|d| d.describe.clone());
    let filtered = filter_adversarially(pool, &set.made, dense)?;
    set.in_bm25_top = filtered.in_bm25_top;
    set.in_dense_top = filtered.in_dense_top;
    let bar = progress::bar(filtered.kept.len(), "judging queries");
    let mut assured = Vec::new();
    for i in filtered.kept {
        bar.inc(1);
        let (gold, context, implicit) = &shown[i];
        let target = Target {
            chunk: &pool.articles[*gold].text,
            implicit,
            context: &texts(context),
        };
        let (verdict, cost) = block_on(assure(
            backend,
            job.settings,
            job.prompts,
            target,
            &set.made[i].query,
        ))
        .map_err(Stop::Llm)?;
        set.cost.add(&cost);
        match verdict {
            Ok(true) => assured.push(i),
            Ok(false) => set.not_assured += 1,
            Err(_) => set.not_judged += 1,
        }
    }
    bar.finish_and_clear();
    (set.dev, set.test) = split(assured, &mut prng);
    Ok(set)
}

/// The cited stykker shown with a target: in the order cited, whole, as
/// many as [`CONTEXT_CHARS`] holds (at least the first).
fn within_budget(articles: &[Article], cited: Vec<usize>) -> Vec<usize> {
    let mut used = 0;
    let mut shown = Vec::new();
    for i in cited {
        let chars = articles[i].text.chars().count();
        if !shown.is_empty() && used + chars > CONTEXT_CHARS {
            break;
        }
        used += chars;
        shown.push(i);
    }
    shown
}

/// The target's neighbours (its implicit context), as one text.
fn implicit_text(by_id: &HashMap<&str, usize>, pool: &Dataset, article: &Article) -> String {
    article
        .implicit_refs
        .iter()
        .filter_map(|id| by_id.get(id.as_str()))
        .map(|&i| pool.articles[i].text.as_str())
        .collect::<Vec<_>>()
        .join("\n\n")
}

impl LlmSet {
    fn kept(&self) -> usize {
        self.dev.len() + self.test.len()
    }

    fn summary(&self) -> String {
        format!(
            "{} stykker cite others; {} drawn: {} got no usable question; {} left as BM25 ranks \
             the gold in its top 10{}; {} judged not to need their context, {} not judged; {} \
             kept: {} dev, {} test ({} LLM calls, {} prompt + {} completion tokens, {:.1} s)",
            self.eligible,
            self.drawn,
            self.not_written,
            self.in_bm25_top,
            match self.in_dense_top {
                Some(n) => format!(", {n} more as dense does"),
                None => String::new(),
            },
            self.not_assured,
            self.not_judged,
            self.kept(),
            self.dev.len(),
            self.test.len(),
            self.cost.calls,
            self.cost.prompt_tokens,
            self.cost.completion_tokens,
            self.cost.millis / 1000.0,
        )
    }

    /// `metadata.json`: the recipe's steps and what each removed.
    fn metadata(&self, args: &MakeQueriesArgs, job: &Job<'_>) -> Value {
        json!({
            "kind": "llm",
            "source_format": clap::ValueEnum::to_possible_value(&args.source.format)
                .map(|v| v.get_name().to_owned()),
            "source_files": job.pool.files.len(),
            "seed": args.seed,
            "targets": args.targets,
            "model": job.settings.model,
            "prompts": job.prompts.version,
            "temperature": job.settings.temperature,
            "llm_seed": job.settings.seed,
            "context_chars": CONTEXT_CHARS,
            "filter": filter_described(),
            "dense_filter": dense_described(self.dense_filter.as_deref()),
            "assurance": "kept where the LLM's verdict on the query, the target and what it cites is Yes",
            "eligible": self.eligible,
            "drawn": self.drawn,
            "left_out": {
                "no_usable_question": self.not_written,
                "gold_in_bm25_top_10": self.in_bm25_top,
                "gold_in_dense_top_10": self.in_dense_top,
                "judged_no": self.not_assured,
                "no_usable_verdict": self.not_judged,
            },
            "made": self.made.len(),
            "kept": self.kept(),
            "dev": self.dev.len(),
            "test": self.test.len(),
            "llm_cost": self.cost,
            "note": "with a small local model this proves the pipeline, not the questions' quality",
        })
    }
}
