//! The vectors `nomos build --embed` stores: every document's, or the
//! documents a [`Selection`] names, in its order, as far as its time
//! allows. The embedding cache makes that a resumable job: a stopped run
//! keeps what it embedded, and the next one takes it from the cache and
//! goes on from there.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use nomos_core::dense::{DenseIndex, Passages};
use nomos_core::embed::Pooling;

use super::write_atomically;
use crate::embedder::{self, EmbedCache, Embedder, Runtime, CHECKED_HITS};
use crate::error::bad_input;
use crate::interrupt;
use crate::progress;
use crate::sources::dataset::{Article, Dataset};

/// Documents read, looked up in the embedding cache and embedded at a
/// time: enough texts to sort into runs of similar length, and a time
/// limit's step (about 3 s of embedding on 2 cores).
const GROUP: usize = 256;

/// How often a job whose stderr is no terminal (so draws no bar) says
/// how far it got.
const LOG_EVERY: Duration = Duration::from_secs(60);

/// The embedded documents' vectors, quantised, with the model's identity.
pub(super) struct Vectors {
    pub model: String,
    pub manifest_hash: String,
    pub text: DenseIndex,
    pub augmented: Option<DenseIndex>,
    /// Which documents `text`'s are, ascending, when some have none.
    pub docs: Option<Vec<u32>>,
}

/// Which documents get vectors, and for how long new ones are embedded.
pub(super) struct Selection {
    /// The documents, in the order they are embedded.
    pub order: Vec<usize>,
    /// Embedding of texts the cache lacks stops once it has run this
    /// long (from when the model is loaded), or at Ctrl-C; cached vectors
    /// are still taken for the rest.
    pub limit: Option<Duration>,
}

impl Selection {
    /// Every document, in pool order, with no time limit.
    pub fn all(pool: &Dataset) -> Selection {
        Selection {
            order: (0..pool.articles.len()).collect(),
            limit: None,
        }
    }

    /// Whether this selection may leave documents without vectors.
    pub fn partial(&self, pool: &Dataset) -> bool {
        self.limit.is_some() || self.order.len() < pool.articles.len()
    }
}

/// When embedding new texts stops.
struct Deadline(Option<Instant>);

impl Deadline {
    fn passed(&self) -> bool {
        self.0.is_some_and(|t| Instant::now() >= t) || interrupt::requested()
    }
}

/// Where a build's embedding options point.
pub(super) struct EmbedOptions<'a> {
    pub model_dir: &'a Path,
    pub pooling: Pooling,
    pub runtime: Runtime<'a>,
    /// Receives the text field's unquantised vectors (little-endian f32,
    /// vector after vector), for measuring what quantisation costs.
    pub vectors_out: Option<&'a Path>,
    pub cache_file: Option<&'a Path>,
    pub max_rows: usize,
}

/// Embeds each selected document's text (and augmented text, where the
/// pool has any; documents without stand in with their text, as in the
/// lexical field) as `pooling` says (the caller has dropped `title+` where
/// titles are not headings), with a progress bar. Documents go [`GROUP`]
/// at a time, so memory stays flat; within a group the texts not cached
/// run through the model up to `max_rows` windows at once, similar
/// lengths together (the model is batch-invariant: the vectors do not
/// depend on it). With a cache file, texts embedded by an earlier run are
/// taken from it and new ones added to it ([`EmbedCache`]) group by group.
pub(super) fn embed_documents(
    pool: &Dataset,
    options: &EmbedOptions<'_>,
    selection: &Selection,
) -> Result<Vectors> {
    let started = Instant::now();
    let mut embedder = embedder::open(options.model_dir, options.runtime)?;
    let loaded = started.elapsed();
    let dim = embedder.dim();
    let cache = options
        .cache_file
        .map(|path| EmbedCache::open(path, embedder.manifest_hash(), dim))
        .transpose()?;
    let has_augmented = pool.articles.iter().any(|a| a.augmented.is_some());
    if has_augmented && selection.partial(pool) {
        return Err(bad_input(
            "this pool has augmented texts: --embed-only and --embed-minutes embed the text \
             field alone",
        ));
    }
    let fields = if has_augmented { 2 } else { 1 };
    let bar = progress::bar(selection.order.len() * fields, "embedding");
    let mut run = Run {
        pool,
        embedder: embedder.as_mut(),
        cache,
        pooling: options.pooling,
        max_rows: options.max_rows,
        dim,
        bar: &bar,
        deadline: Deadline(selection.limit.map(|limit| Instant::now() + limit)),
        logged: Instant::now(),
        embedded: 0,
        embedding: Duration::ZERO,
    };
    let text = run.field(selection, &|a| &a.text)?;
    if let Some(out) = options.vectors_out {
        let bytes: Vec<u8> = text.flat.iter().flat_map(|x| x.to_le_bytes()).collect();
        write_atomically(out, &bytes)?;
    }
    let augmented = match has_augmented {
        true => Some(
            run.field(selection, &|a| a.augmented.as_deref().unwrap_or(&a.text))?
                .index,
        ),
        false => None,
    };
    bar.finish_and_clear();
    let (embedded, embedding) = (run.embedded, run.embedding);
    eprintln!(
        "embedded {embedded} texts ({}: {} text vectors, {} bytes each) in {:.1} s ({:.1} ms \
         each; model loaded in {:.1} s)",
        options.pooling,
        text.index.n_vectors(),
        dim + 4 + dim.div_ceil(64) * 8,
        embedding.as_secs_f64(),
        embedding.as_secs_f64() * 1e3 / embedded.max(1) as f64,
        loaded.as_secs_f64()
    );
    if let Some(c) = &run.cache {
        eprintln!(
            "embedding cache: {} texts embedded, {} from the cache ({} of them embedded \
             again and found equal)",
            c.misses, c.hits, c.checked
        );
    }
    let docs = (text.docs.len() < pool.articles.len()).then_some(text.docs);
    Ok(Vectors {
        model: embedder.model_id().to_owned(),
        manifest_hash: embedder.manifest_hash().to_owned(),
        text: text.index,
        augmented,
        docs,
    })
}

/// One field's vectors: the index, its unquantised values, and which
/// documents have them.
struct Field {
    index: DenseIndex,
    flat: Vec<f32>,
    docs: Vec<u32>,
}

/// One embedding run's state, shared by its fields.
struct Run<'a> {
    pool: &'a Dataset,
    embedder: &'a mut dyn Embedder,
    cache: Option<EmbedCache>,
    pooling: Pooling,
    max_rows: usize,
    dim: usize,
    bar: &'a indicatif::ProgressBar,
    deadline: Deadline,
    /// When the last line on progress was written, where no bar is drawn.
    logged: Instant,
    /// Texts embedded by the model so far, and the time that took.
    embedded: usize,
    embedding: Duration,
}

/// A document's vectors, and where each window begins in its text.
type DocVectors = (Vec<f32>, Vec<u32>);

impl Run<'_> {
    fn field(
        &mut self,
        selection: &Selection,
        text_of: &dyn Fn(&Article) -> &str,
    ) -> Result<Field> {
        let articles = &self.pool.articles;
        let mut got: Vec<Option<DocVectors>> = vec![None; articles.len()];
        let windows = format!("{:?}", self.pooling.windows);
        for group in selection.order.chunks(GROUP) {
            let stopped = self.deadline.passed();
            if stopped {
                self.bar
                    .set_message("embedding stopped; taking cached vectors");
            }
            let inputs: Vec<(std::borrow::Cow<str>, u128)> = group
                .iter()
                .map(|&d| {
                    let a = &articles[d];
                    let heading = match self.pool.titles_are_headings {
                        true => a.title.as_str(),
                        false => "",
                    };
                    let passage = self.pooling.passage(heading, text_of(a));
                    let key = EmbedCache::key(&windows, &passage);
                    (passage, key)
                })
                .collect();
            let mut found: Vec<Option<Vec<f32>>> = inputs
                .iter()
                .map(|(_, key)| self.cache.as_mut().and_then(|c| c.get(*key)))
                .collect();
            let missing: Vec<usize> = match stopped {
                true => Vec::new(),
                false => (0..group.len()).filter(|&i| found[i].is_none()).collect(),
            };
            // The run's first few hits go through the model too, to be
            // compared with what the cache holds.
            let unchecked = match (&self.cache, stopped) {
                (Some(c), false) => CHECKED_HITS.saturating_sub(c.checked),
                _ => 0,
            };
            let checks: Vec<usize> = (0..group.len())
                .filter(|&i| found[i].is_some())
                .take(unchecked)
                .collect();
            let texts: Vec<&str> = missing
                .iter()
                .chain(&checks)
                .map(|&i| inputs[i].0.as_ref())
                .collect();
            let began = Instant::now();
            let mut embedded = self
                .embedder
                .embed_passages(&texts, self.pooling.windows, self.max_rows)
                .with_context(|| match (missing.first(), missing.last()) {
                    (Some(&first), Some(&last)) => format!(
                        "embedding {} documents, {} to {}",
                        missing.len(),
                        articles[group[first]].id,
                        articles[group[last]].id
                    ),
                    _ => "embedding no documents".to_owned(),
                })?;
            self.embedding += began.elapsed();
            self.embedded += missing.len();
            let fresh = embedded.split_off(missing.len());
            for (&i, v) in checks.iter().zip(&fresh) {
                if let Some(c) = self.cache.as_mut() {
                    c.check(inputs[i].1, v)
                        .with_context(|| format!("document {}", articles[group[i]].id))?;
                }
            }
            for (i, v) in missing.into_iter().zip(embedded) {
                if let Some(c) = self.cache.as_mut() {
                    c.put(inputs[i].1, &v)?;
                }
                found[i] = Some(v);
            }
            for ((&d, (passage, _)), v) in group.iter().zip(&inputs).zip(found) {
                if let Some(v) = v {
                    got[d] = Some(self.windows(&articles[d], text_of(&articles[d]), passage, v)?);
                }
            }
            self.bar.inc(group.len() as u64);
            if self.bar.is_hidden() && self.logged.elapsed() >= LOG_EVERY {
                self.logged = Instant::now();
                eprintln!(
                    "embedding: {} of {} documents done, {} texts embedded ({:.1} ms each)",
                    self.bar.position(),
                    self.bar.length().unwrap_or(0),
                    self.embedded,
                    self.embedding.as_secs_f64() * 1e3 / self.embedded.max(1) as f64
                );
            }
        }
        self.assemble(got)
    }

    /// Checks a document's vectors against the pooling, with where each
    /// window begins in `text` (`passage` is `text` with any heading put
    /// before it).
    fn windows(&self, a: &Article, text: &str, passage: &str, v: Vec<f32>) -> Result<DocVectors> {
        let dim = self.dim;
        let one = !self.pooling.multi_vector();
        if v.is_empty() || !v.len().is_multiple_of(dim) || (one && v.len() != dim) {
            anyhow::bail!(
                "document {}: the model gave {} values, not {}",
                a.id,
                v.len(),
                match one {
                    true => dim.to_string(),
                    false => format!("a multiple of {dim}"),
                }
            );
        }
        if one {
            return Ok((v, vec![0]));
        }
        // Offsets into the text itself: a heading put before it shifts
        // every window but the first.
        let shift = passage.len() - text.len();
        let starts = self.embedder.window_starts(passage);
        if starts.len() * dim != v.len() {
            anyhow::bail!(
                "document {}: {} windows but {} vectors",
                a.id,
                starts.len(),
                v.len() / dim
            );
        }
        let starts = starts
            .into_iter()
            .enumerate()
            .map(|(k, s)| match k {
                0 => Ok(0),
                _ => u32::try_from(s.saturating_sub(shift).max(1)).context("text too long"),
            })
            .collect::<Result<_>>()?;
        Ok((v, starts))
    }

    /// The documents' vectors in pool order, those without left out.
    fn assemble(&self, got: Vec<Option<DocVectors>>) -> Result<Field> {
        let mut flat = Vec::new();
        let mut docs = Vec::new();
        let mut passages = Passages {
            offsets: vec![0],
            starts: Vec::new(),
        };
        for (d, vectors) in got.into_iter().enumerate() {
            let Some((v, starts)) = vectors else { continue };
            flat.extend_from_slice(&v);
            passages.starts.extend(starts);
            passages
                .offsets
                .push(u32::try_from(flat.len() / self.dim).context("too many vectors")?);
            docs.push(u32::try_from(d).context("too many documents")?);
        }
        // None embedded (a time limit of 0 and an empty cache): an empty
        // index, which the build leaves out.
        let passages = (self.pooling.multi_vector() && !docs.is_empty()).then_some(passages);
        let index = DenseIndex::build_passages(&flat, self.dim, passages).map_err(bad_input)?;
        Ok(Field { index, flat, docs })
    }
}
