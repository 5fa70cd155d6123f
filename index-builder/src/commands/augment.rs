//! `nomos augment`: contextual chunks. For every article of a pool, an LLM
//! reads the act around it and writes a short context situating it
//! (Anthropic's contextual retrieval, as CRAwLeR-DK's
//! `augmented_chunks.jsonl`); the context and the article's text become its
//! augmented text, which `nomos build --augmented` indexes.
//!
//! Runs are resumable: each row records the SHA-256 of the text it was
//! written for, and a chunk whose text still has that hash is skipped. Rows
//! are appended and flushed one by one, so an interrupted run loses at most
//! the chunk in flight; at the end the file is rewritten in pool order, so
//! the same results always make the same file.

use std::collections::{BTreeMap, HashMap};
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use anyhow::{Context, Result};
use nomos_core::digest::sha256_hex;
use nomos_core::llm::augment::{act_window, augmented_text, situate, Chunk};
use nomos_core::llm::{Chat, Cost, LlmError, Prompts, Settings};
use serde::{Deserialize, Serialize};

use super::build;
use crate::cli::AugmentArgs;
use crate::error::bad_input;
use crate::llm::{block_on, Backend};
use crate::progress;
use crate::sources::dataset::Dataset;

/// `nomos augment`.
pub fn run(args: &AugmentArgs) -> Result<()> {
    let source = &args.source;
    let (pool, analyzer) =
        build::read_pool(source.format, &source.src, source.analyzer.as_deref())?;
    let (backend, settings) = Backend::open(&args.llm, "augment")?;
    let job = Job {
        pool: &pool,
        prompts: Prompts::for_run(&analyzer, &settings).map_err(bad_input)?,
        settings: &settings,
        window_chars: args.window_chars,
        concurrency: args.llm.llm_concurrency as usize,
        limit: args.limit,
    };
    let outcome = augment(&job, &backend, &args.out);
    backend.finish()?;
    let report = outcome?;
    let cost = report.cost;
    eprintln!(
        "{}: {} chunks written, {} already done, {} failed; {} calls, {} prompt + {} completion tokens, {:.1} s of LLM time",
        args.out.display(),
        report.written,
        report.skipped,
        report.failed.len(),
        cost.calls,
        cost.prompt_tokens,
        cost.completion_tokens,
        cost.millis / 1000.0
    );
    if !report.failed.is_empty() {
        eprintln!(
            "warning: {} chunks got no usable context twice (not written; run again to retry): {}",
            report.failed.len(),
            crate::sources::augmented::elide(&report.failed)
        );
    }
    Ok(())
}

/// One line of the output: CRAwLeR-DK's `chunk_id` and `chunk` (context,
/// blank line, text), and what resuming and auditing need.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub chunk_id: String,
    pub chunk: String,
    pub context: String,
    /// SHA-256 of the article text the context was written for.
    pub text_sha256: String,
    pub model: String,
    pub prompt_version: String,
}

/// What to augment, and how.
pub struct Job<'a> {
    pub pool: &'a Dataset,
    pub prompts: Prompts,
    pub settings: &'a Settings,
    /// Characters of the act shown around each chunk.
    pub window_chars: usize,
    /// Chunks in flight at once.
    pub concurrency: usize,
    /// Augment at most this many chunks this run.
    pub limit: Option<usize>,
}

/// What a run did.
#[derive(Debug, Default)]
pub struct Report {
    /// Chunks already done with their current text.
    pub skipped: usize,
    /// Chunks augmented by this run.
    pub written: usize,
    /// Chunks whose replies were unusable twice (not written; the next
    /// run retries them).
    pub failed: Vec<String>,
    /// What the calls cost.
    pub cost: Cost,
}

/// Augments `job.pool` into `out` with `llm` (see the module docs).
pub fn augment<C: Chat + Sync>(job: &Job<'_>, llm: &C, out: &Path) -> Result<Report> {
    let articles = &job.pool.articles;
    let mut rows = read_rows(out)?;
    // Each article's act: the articles sharing its source, in pool order.
    let mut acts: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, a) in articles.iter().enumerate() {
        acts.entry(a.source.as_str()).or_default().push(i);
    }
    let hashes: Vec<String> = articles
        .iter()
        .map(|a| sha256_hex(a.text.as_bytes()))
        .collect();
    let mut report = Report::default();
    let mut todo = Vec::new();
    for (i, a) in articles.iter().enumerate() {
        match rows.get(&a.id) {
            Some(row) if row.text_sha256 == hashes[i] => report.skipped += 1,
            _ => todo.push(i),
        }
    }
    todo.truncate(job.limit.unwrap_or(usize::MAX));

    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .with_context(|| format!("cannot write {}", out.display()))?;
    let bar = progress::bar(todo.len(), "augment");
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let (send, receive) = mpsc::channel();
    let outcome: Result<()> = std::thread::scope(|scope| {
        for _ in 0..job.concurrency.max(1).min(todo.len().max(1)) {
            let send = send.clone();
            let (todo, next, acts, hashes) = (&todo, &next, &acts, &hashes);
            scope.spawn(move || loop {
                let Some(&i) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else {
                    return;
                };
                let article = &articles[i];
                let act = &acts[article.source.as_str()];
                let texts: Vec<&str> = act.iter().map(|&j| articles[j].text.as_str()).collect();
                let at = act.iter().position(|&j| j == i).expect("in its act");
                let document = act_window(&texts, at, job.window_chars);
                let chunk = Chunk {
                    source: &article.source,
                    document: &document,
                    chunk: &article.text,
                };
                let answer = block_on(situate(llm, job.settings, job.prompts, chunk));
                let failed = answer.is_err();
                let _ = send.send((i, answer, hashes[i].clone()));
                if failed {
                    // A transport error ends the run: stop taking chunks.
                    next.store(todo.len(), Ordering::Relaxed);
                    return;
                }
            });
        }
        drop(send);
        let mut first_error: Option<LlmError> = None;
        for (i, answer, text_sha256) in receive {
            let article = &articles[i];
            match answer {
                Ok((Ok(context), cost)) => {
                    report.cost.add(&cost);
                    let row = Row {
                        chunk_id: article.id.clone(),
                        chunk: augmented_text(&context, &article.text),
                        context,
                        text_sha256,
                        model: job.settings.model.clone(),
                        prompt_version: job.prompts.version.to_owned(),
                    };
                    let line = serde_json::to_string(&row).expect("a row serialises");
                    writeln!(file, "{line}")
                        .and_then(|_| file.flush())
                        .with_context(|| format!("cannot write {}", out.display()))?;
                    rows.insert(row.chunk_id.clone(), row);
                    report.written += 1;
                }
                Ok((Err(_), cost)) => {
                    report.cost.add(&cost);
                    report.failed.push(article.id.clone());
                }
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
            bar.inc(1);
            bar.set_message(format!(
                "{} calls, {} tokens",
                report.cost.calls,
                report.cost.prompt_tokens + report.cost.completion_tokens
            ));
        }
        match first_error {
            Some(e) => Err(anyhow::anyhow!(e)),
            None => Ok(()),
        }
    });
    bar.finish_and_clear();
    // Whatever happened, leave the file in pool order.
    write_in_pool_order(out, job.pool, &rows)?;
    outcome.with_context(|| {
        format!(
            "augmenting stopped after {} chunks in {:.0} s; {} holds them, run again to resume",
            report.written,
            started.elapsed().as_secs_f64(),
            out.display()
        )
    })?;
    Ok(report)
}

/// The rows of an earlier run, by chunk id. A malformed line is an error
/// naming it, except a last line cut short by an interrupted write, which
/// is dropped with a warning (its chunk is augmented again).
fn read_rows(path: &Path) -> Result<HashMap<String, Row>> {
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashMap::new()),
        Err(e) => return Err(bad_input(format!("{}: cannot read: {e}", path.display()))),
    };
    let complete = text.ends_with('\n');
    let lines: Vec<&str> = text.lines().collect();
    let mut rows = HashMap::new();
    for (n, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Row>(line) {
            Ok(row) => {
                rows.insert(row.chunk_id.clone(), row);
            }
            Err(_) if !complete && n + 1 == lines.len() => eprintln!(
                "warning: {}:{}: an interrupted write; that chunk is augmented again",
                path.display(),
                n + 1
            ),
            Err(e) => {
                return Err(bad_input(format!(
                    "{}:{}: not an augmented row: {e}",
                    path.display(),
                    n + 1
                )))
            }
        }
    }
    Ok(rows)
}

/// Rewrites `path` with the pool's rows in pool order, then rows for ids
/// the pool no longer has (kept, never silently lost), atomically.
fn write_in_pool_order(path: &Path, pool: &Dataset, rows: &HashMap<String, Row>) -> Result<()> {
    let mut text = String::new();
    let mut push = |row: &Row| {
        text.push_str(&serde_json::to_string(row).expect("a row serialises"));
        text.push('\n');
    };
    for a in &pool.articles {
        if let Some(row) = rows.get(&a.id) {
            push(row);
        }
    }
    let ids: std::collections::HashSet<&str> =
        pool.articles.iter().map(|a| a.id.as_str()).collect();
    let mut strays: Vec<&Row> = rows
        .values()
        .filter(|r| !ids.contains(r.chunk_id.as_str()))
        .collect();
    strays.sort_by(|a, b| a.chunk_id.cmp(&b.chunk_id));
    strays.into_iter().for_each(&mut push);
    let tmp = path.with_extension("jsonl.tmp");
    File::create(&tmp)
        .and_then(|mut f| f.write_all(text.as_bytes()).and_then(|_| f.sync_all()))
        .and_then(|_| fs::rename(&tmp, path))
        .with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use nomos_core::llm::{ChatReply, ChatRequest, Usage};

    use super::*;
    use crate::sources::dataset::Article;

    /// Answers with a context naming the chunk's first word, except for
    /// chunks containing "bad", which get prose twice; counts calls.
    struct Contexts {
        calls: Mutex<usize>,
    }

    impl Chat for Contexts {
        async fn chat(&self, request: &ChatRequest) -> Result<ChatReply, LlmError> {
            *self.calls.lock().unwrap() += 1;
            let user = &request.messages[1].content;
            let chunk = user.split("<chunk>").nth(1).unwrap().trim();
            let word = chunk.split_whitespace().next().unwrap();
            let content = match chunk.contains("bad") {
                true => "no json".to_owned(),
                false => format!("{{\"context\": \"About {word}.\"}}"),
            };
            Ok(ChatReply {
                content,
                reasoning: None,
                model: "m".into(),
                usage: Usage {
                    prompt_tokens: 100,
                    completion_tokens: 5,
                },
                millis: 2.0,
                retried: Default::default(),
            })
        }
    }

    fn pool(texts: &[(&str, &str, &str)]) -> Dataset {
        Dataset {
            articles: texts
                .iter()
                .map(|(id, source, text)| Article {
                    id: id.to_string(),
                    source: source.to_string(),
                    text: text.to_string(),
                    ..Article::default()
                })
                .collect(),
            ..Dataset::default()
        }
    }

    fn job<'a>(pool: &'a Dataset, settings: &'a Settings) -> Job<'a> {
        Job {
            pool,
            prompts: nomos_core::llm::prompts::DANISH,
            settings,
            window_chars: 1000,
            concurrency: 2,
            limit: None,
        }
    }

    #[test]
    fn augments_resumes_by_text_hash_and_keeps_pool_order() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("augmented_chunks.jsonl");
        let settings = Settings {
            model: "m".into(),
            ..Settings::default()
        };
        let first = pool(&[
            ("a_1", "a", "leje af bolig"),
            ("a_2", "a", "bad text"),
            ("b_1", "b", "skat af indkomst"),
        ]);
        let llm = Contexts {
            calls: Mutex::new(0),
        };
        let report = augment(&job(&first, &settings), &llm, &out).unwrap();
        assert_eq!(report.written, 2);
        assert_eq!(report.failed, ["a_2"]);
        assert_eq!(report.cost.calls, 4, "the bad chunk was retried once");
        let text = fs::read_to_string(&out).unwrap();
        let rows: Vec<Row> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(rows[0].chunk_id, "a_1");
        assert_eq!(rows[0].chunk, "About leje.\n\nleje af bolig");
        assert_eq!(rows[0].prompt_version, "da/v2");
        assert_eq!(rows[1].chunk_id, "b_1");

        // Again, with b_1's text changed: only it and the failed a_2 run.
        let second = pool(&[
            ("a_1", "a", "leje af bolig"),
            ("a_2", "a", "bad text"),
            ("b_1", "b", "moms af indkomst"),
        ]);
        let llm = Contexts {
            calls: Mutex::new(0),
        };
        let report = augment(&job(&second, &settings), &llm, &out).unwrap();
        assert_eq!(report.skipped, 1);
        assert_eq!(report.written, 1);
        assert_eq!(*llm.calls.lock().unwrap(), 3);
        let text = fs::read_to_string(&out).unwrap();
        assert_eq!(text.lines().count(), 2);
        assert!(text.contains("About moms."));
    }

    #[test]
    fn the_act_around_a_chunk_is_shown_and_an_interrupted_line_is_redone() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("augmented_chunks.jsonl");
        fs::write(&out, "{\"chunk_id\": \"a_1\", \"chu").unwrap();
        let settings = Settings::default();
        let pool = pool(&[("a_1", "a", "første stykke"), ("a_2", "a", "andet stykke")]);
        struct SeesAct;
        impl Chat for SeesAct {
            async fn chat(&self, request: &ChatRequest) -> Result<ChatReply, LlmError> {
                let user = &request.messages[1].content;
                assert!(user.contains("første stykke\n\nandet stykke"), "{user}");
                assert!(user.contains("\"a\""), "the act's name: {user}");
                Ok(ChatReply {
                    content: "{\"context\": \"ctx\"}".into(),
                    reasoning: None,
                    model: String::new(),
                    usage: Usage::default(),
                    millis: 0.0,
                    retried: Default::default(),
                })
            }
        }
        let report = augment(&job(&pool, &settings), &SeesAct, &out).unwrap();
        assert_eq!(report.written, 2);
        // A malformed line elsewhere is an error with its line number.
        fs::write(&out, "not json\n").unwrap();
        let err = augment(&job(&pool, &settings), &SeesAct, &out).unwrap_err();
        assert!(
            format!("{err:#}").contains("augmented_chunks.jsonl:1"),
            "{err:#}"
        );
    }
}
