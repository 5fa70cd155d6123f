//! [`Method`]: which ranking to run and its parameters, with a compact
//! string form for URLs, run tags and the command line:
//! `name` or `name:key=value,key=value`, e.g. `rrf`, `rrf:k=20`,
//! `dense-binary:candidates=500`. Keys left out keep their defaults.
//!
//! `probes` (dense, rocchio, rrf, weighted) is how many inverted lists a
//! dense ranking scores where the pool has them (see
//! [`crate::dense::Ivf`]); 0 means every list, which is brute force. A
//! pool without lists ignores it and ranks brute force: every value then
//! gives the ranking probing all lists would, so a URL stays valid
//! whichever form of the pool it is opened on.

use std::fmt;
use std::str::FromStr;

use super::propagate::Direction;

/// A ranking method and its parameters. Defaults ([`Method::by_name`])
/// follow the usual settings in the literature the GreekBarRetrieval paper
/// draws on: 10 feedback documents, 30 expansion terms, Rocchio α = 1,
/// β = 0.25, RRF k = 60 over the top 100 of each list.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Method {
    /// BM25 with the scorer's parameters.
    Bm25,
    /// Int8 dense scores: brute force, or over the `probes` nearest
    /// inverted lists where the pool has them.
    Dense {
        /// Lists probed (0: all).
        probes: usize,
    },
    /// Binary first pass, int8 rescoring of the `candidates` nearest codes
    /// (at least `k`).
    DenseBinary {
        /// How many nearest codes are rescored.
        candidates: usize,
    },
    /// Sparse pseudo-relevance feedback: BM25, then BM25 again with the
    /// query extended by the `terms` best expansion terms of the top `docs`
    /// (see [`super::expansion_terms`]).
    Prf {
        /// Feedback documents.
        docs: usize,
        /// Expansion terms added.
        terms: usize,
    },
    /// Dense pseudo-relevance feedback:
    /// `q' = normalise(α·q + β·centroid(top docs))`, ranked again.
    Rocchio {
        /// Feedback documents.
        docs: usize,
        /// The query's weight.
        alpha: f64,
        /// The feedback centroid's weight.
        beta: f64,
        /// Lists probed by both dense rankings (0: all).
        probes: usize,
    },
    /// Reciprocal rank fusion of the top `depth` of BM25 and of dense:
    /// `Σ 1 / (k + rank)`, ranks from 1 (see [`super::rrf`]).
    Rrf {
        /// Damps the weight of top ranks.
        k: f64,
        /// How much of each list is fused.
        depth: usize,
        /// Inverted lists the dense ranking probes (0: all).
        probes: usize,
    },
    /// Min-max normalised score fusion of the top `depth` of BM25 and of
    /// dense, the dense list weighted `w` and BM25 `1 − w`
    /// (see [`super::weighted_fusion`]).
    Weighted {
        /// The dense list's weight.
        w: f64,
        /// How much of each list is fused.
        depth: usize,
        /// Inverted lists the dense ranking probes (0: all).
        probes: usize,
    },
    /// BM25, then each document gains `share` times the best BM25 score
    /// among its neighbours in the pool's graph (citations and definition
    /// edges), those it points to (`dir=out`), those pointing to it (`in`)
    /// or both (see [`super::propagate`]).
    Prop {
        /// The neighbour's score's weight.
        share: f64,
        /// Which neighbours count.
        dir: Direction,
    },
    /// Dense over the mixed vectors: each document's vectors moved
    /// `share` toward the mean vector of what it points to in the pool's
    /// graph (see [`super::mix`]). Brute force: the pool's inverted lists
    /// were cut over the plain vectors.
    Mix {
        /// The weight of the mean of what a document points to.
        share: f64,
    },
    /// Reciprocal rank fusion of the top `depth` of the two context
    /// methods, [`Method::Prop`] (`share`, `dir`) and [`Method::Mix`]
    /// (`mix`), as [`Method::Rrf`] fuses BM25 and dense.
    CtxRrf {
        /// Damps the weight of top ranks.
        k: f64,
        /// How much of each list is fused.
        depth: usize,
        /// `prop`'s share of a neighbour's score.
        share: f64,
        /// `prop`'s direction.
        dir: Direction,
        /// `mix`'s share of the cited documents' mean vector.
        mix: f64,
    },
    /// An LLM turns the query into legal keywords, searched with BM25
    /// (GreekBarRetrieval's Reform-BM25; the `llm` module runs it).
    ReformSparse,
    /// An LLM restates the query as the legal issue in legal terms, which
    /// is embedded and searched densely.
    ReformDense,
    /// Both reformulations, fused as [`Method::Rrf`] fuses: BM25 over the
    /// keywords, dense over the statement.
    ReformHybrid {
        /// Damps the weight of top ranks.
        k: f64,
        /// How much of each list is fused.
        depth: usize,
    },
    /// The paper's planner/observer loop over BM25 (see
    /// the `llm` module).
    ReactBm25 {
        /// Planner/observer rounds.
        rounds: usize,
        /// BM25 hits shown to the observer each round.
        candidates: usize,
        /// Characters of each candidate's text shown (0: all of it).
        chars: usize,
    },
}

/// A parameter value, for printing and parsing.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Value {
    Count(usize),
    Real(f64),
    Word(&'static str),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Count(n) => write!(f, "{n}"),
            // Shortest representation that parses back to the same f64.
            Value::Real(x) => write!(f, "{x}"),
            Value::Word(w) => f.write_str(w),
        }
    }
}

impl Method {
    /// Inverted lists a dense ranking probes when nobody chose, measured
    /// (docs/benchmarks/scale.md, "Dense at scale"): with about √N lists, overlap@100
    /// with brute force of at least 0.95 on the real pools measured (10⁴
    /// vectors: 64 of 106 lists), and at 10⁵ vectors (316 lists) about a
    /// fifth of the vectors, 8 MB, within the 10 MB a query may fetch.
    pub const DEFAULT_PROBES: usize = 64;

    /// `mix`'s share when nobody chose, swept on the definitions set's dev
    /// split (docs/benchmarks/cross-references.md).
    pub const DEFAULT_MIX: f64 = 2.0;

    /// Every method name, in the order a picker would list them.
    pub const NAMES: [&'static str; 10] = [
        "bm25",
        "dense",
        "dense-binary",
        "prf",
        "rocchio",
        "rrf",
        "weighted",
        "prop",
        "mix",
        "ctx-rrf",
    ];

    /// The methods that need an LLM (the `llm` module runs them), listed apart so
    /// that a picker without an LLM configured can leave them out.
    pub const LLM_NAMES: [&'static str; 4] = [
        "reform-sparse",
        "reform-dense",
        "reform-hybrid",
        "react-bm25",
    ];

    /// What to rank with when nobody chose: hybrid (`rrf` with its
    /// defaults) where the pool has vectors and queries can be embedded,
    /// BM25 elsewhere.
    pub fn default_for(has_vectors: bool) -> Method {
        match has_vectors {
            true => Method::by_name("rrf").expect("rrf is a method name"),
            false => Method::Bm25,
        }
    }

    /// Reads a pool's own hybrid (`nomos build --hybrid`): a method spec
    /// that fuses BM25 and dense ([`Method::hybrid`]), as `rrf` does.
    pub fn parse_hybrid(spec: &str) -> Result<Method, MethodError> {
        let method: Method = spec.parse()?;
        match method.hybrid() {
            Some(_) => Ok(method),
            None => Err(MethodError::NotHybrid(spec.to_owned())),
        }
    }

    /// The method called `name` with its default parameters.
    pub fn by_name(name: &str) -> Option<Method> {
        Some(match name {
            "bm25" => Method::Bm25,
            "dense" => Method::Dense {
                probes: Self::DEFAULT_PROBES,
            },
            "dense-binary" => Method::DenseBinary { candidates: 1000 },
            "prf" => Method::Prf {
                docs: 10,
                terms: 30,
            },
            "rocchio" => Method::Rocchio {
                docs: 10,
                alpha: 1.0,
                beta: 0.25,
                probes: Self::DEFAULT_PROBES,
            },
            "rrf" => Method::Rrf {
                k: 60.0,
                depth: 100,
                probes: Self::DEFAULT_PROBES,
            },
            "weighted" => Method::Weighted {
                w: 0.5,
                depth: 100,
                probes: Self::DEFAULT_PROBES,
            },
            // Swept on the definitions set's dev split
            // (docs/benchmarks/cross-references.md).
            "prop" => Method::Prop {
                share: 1.0,
                dir: Direction::Out,
            },
            "mix" => Method::Mix {
                share: Self::DEFAULT_MIX,
            },
            "ctx-rrf" => Method::CtxRrf {
                k: 60.0,
                depth: 100,
                share: 1.0,
                dir: Direction::Out,
                mix: Self::DEFAULT_MIX,
            },
            "reform-sparse" => Method::ReformSparse,
            "reform-dense" => Method::ReformDense,
            "reform-hybrid" => Method::ReformHybrid {
                k: 60.0,
                depth: 100,
            },
            // The paper's settings: 10 rounds over BM25's top 100, whole
            // articles.
            "react-bm25" => Method::ReactBm25 {
                rounds: 10,
                candidates: 100,
                chars: 0,
            },
            _ => return None,
        })
    }

    /// The name in the text form and `NAMES`.
    pub fn name(&self) -> &'static str {
        match self {
            Method::Bm25 => "bm25",
            Method::Dense { .. } => "dense",
            Method::DenseBinary { .. } => "dense-binary",
            Method::Prf { .. } => "prf",
            Method::Rocchio { .. } => "rocchio",
            Method::Rrf { .. } => "rrf",
            Method::Weighted { .. } => "weighted",
            Method::Prop { .. } => "prop",
            Method::Mix { .. } => "mix",
            Method::CtxRrf { .. } => "ctx-rrf",
            Method::ReformSparse => "reform-sparse",
            Method::ReformDense => "reform-dense",
            Method::ReformHybrid { .. } => "reform-hybrid",
            Method::ReactBm25 { .. } => "react-bm25",
        }
    }

    /// Whether the method calls an LLM (the `llm` module) before, or instead
    /// of, `Pool::rank`.
    pub fn needs_llm(&self) -> bool {
        self.ranks_reformulation().is_some() || matches!(self, Method::ReactBm25 { .. })
    }

    /// For a reformulation method, the method that ranks the reformulated
    /// query: BM25 over the keywords, dense over the statement, or RRF of
    /// the two.
    pub fn ranks_reformulation(&self) -> Option<Method> {
        match *self {
            Method::ReformSparse => Some(Method::Bm25),
            Method::ReformDense => Some(Method::Dense {
                probes: Self::DEFAULT_PROBES,
            }),
            Method::ReformHybrid { k, depth } => Some(Method::Rrf {
                k,
                depth,
                probes: Self::DEFAULT_PROBES,
            }),
            _ => None,
        }
    }

    /// A fusion of BM25 and dense ([`Method::Rrf`], [`Method::Weighted`]):
    /// how deep each ranking goes and how many lists dense probes.
    pub fn hybrid(&self) -> Option<(usize, usize)> {
        match *self {
            Method::Rrf { depth, probes, .. } | Method::Weighted { depth, probes, .. } => {
                Some((depth, probes))
            }
            _ => None,
        }
    }

    /// Whether the method needs document vectors and a query embedding.
    pub fn needs_dense(&self) -> bool {
        !matches!(
            self,
            Method::Bm25
                | Method::Prf { .. }
                | Method::Prop { .. }
                | Method::ReformSparse
                | Method::ReactBm25 { .. }
        )
    }

    /// Whether the method follows the pool's citations and definition
    /// edges (the context methods), which a pool without them cannot run.
    pub fn needs_graph(&self) -> bool {
        matches!(
            self,
            Method::Prop { .. } | Method::Mix { .. } | Method::CtxRrf { .. }
        )
    }

    /// Whether the method ranks with BM25 at all.
    pub fn needs_lexical(&self) -> bool {
        !matches!(
            self,
            Method::Dense { .. }
                | Method::DenseBinary { .. }
                | Method::Rocchio { .. }
                | Method::Mix { .. }
                | Method::ReformDense
        )
    }

    /// Counts at least 1 (expansion terms, characters and probes at least
    /// 0), RRF k finite and
    /// > 0, Rocchio weights finite, w in [0, 1], share finite and ≥ 0.
    pub fn validate(&self) -> Result<(), MethodError> {
        for (key, value) in self.params() {
            let ok = match (key, value) {
                ("terms", _) | ("chars", _) | ("probes", _) => true,
                (_, Value::Count(n)) => n >= 1,
                ("k", Value::Real(x)) => x.is_finite() && x > 0.0,
                ("w", Value::Real(x)) => (0.0..=1.0).contains(&x),
                ("share", Value::Real(x)) | ("mix", Value::Real(x)) => x.is_finite() && x >= 0.0,
                (_, Value::Real(x)) => x.is_finite(),
                (_, Value::Word(_)) => true,
            };
            if !ok {
                return Err(MethodError::OutOfRange {
                    method: self.name(),
                    key,
                    value: value.to_string(),
                });
            }
        }
        Ok(())
    }

    /// The method with every parameter, and BM25's settings when it uses
    /// BM25, e.g. `rrf:k=60,depth=100,probes=64+okapi:k1=1.5,b=0.75`: what a run tag
    /// must say to identify a run.
    pub fn describe_with(&self, bm25: &crate::search::Bm25Params) -> String {
        let mut text = format!("{self:#}");
        if self.needs_lexical() {
            text.push_str(&format!("+{bm25}"));
        }
        text
    }

    /// Each parameter's key and value as text, in display order (for a
    /// form's fields).
    pub fn parameters(&self) -> Vec<(&'static str, String)> {
        self.params()
            .into_iter()
            .map(|(key, value)| (key, value.to_string()))
            .collect()
    }

    /// This method with parameter `key` read from `raw`, if the result is
    /// valid.
    pub fn with_param(mut self, key: &str, raw: &str) -> Result<Method, MethodError> {
        self.set(key, raw)?;
        self.validate()?;
        Ok(self)
    }

    fn params(&self) -> Vec<(&'static str, Value)> {
        use Value::{Count, Real, Word};
        match *self {
            Method::Bm25 | Method::ReformSparse | Method::ReformDense => vec![],
            Method::Dense { probes } => vec![("probes", Count(probes))],
            Method::DenseBinary { candidates } => vec![("candidates", Count(candidates))],
            Method::Prf { docs, terms } => vec![("docs", Count(docs)), ("terms", Count(terms))],
            Method::Rocchio {
                docs,
                alpha,
                beta,
                probes,
            } => vec![
                ("docs", Count(docs)),
                ("alpha", Real(alpha)),
                ("beta", Real(beta)),
                ("probes", Count(probes)),
            ],
            Method::Rrf { k, depth, probes } => vec![
                ("k", Real(k)),
                ("depth", Count(depth)),
                ("probes", Count(probes)),
            ],
            Method::Weighted { w, depth, probes } => vec![
                ("w", Real(w)),
                ("depth", Count(depth)),
                ("probes", Count(probes)),
            ],
            Method::ReformHybrid { k, depth } => vec![("k", Real(k)), ("depth", Count(depth))],
            Method::Prop { share, dir } => vec![("share", Real(share)), ("dir", Word(dir.name()))],
            Method::Mix { share } => vec![("share", Real(share))],
            Method::CtxRrf {
                k,
                depth,
                share,
                dir,
                mix,
            } => vec![
                ("k", Real(k)),
                ("depth", Count(depth)),
                ("share", Real(share)),
                ("dir", Word(dir.name())),
                ("mix", Real(mix)),
            ],
            Method::ReactBm25 {
                rounds,
                candidates,
                chars,
            } => vec![
                ("rounds", Count(rounds)),
                ("candidates", Count(candidates)),
                ("chars", Count(chars)),
            ],
        }
    }

    fn set(&mut self, key: &str, raw: &str) -> Result<(), MethodError> {
        let name = self.name();
        let bad_value = || MethodError::BadValue {
            method: name,
            key: key.to_owned(),
            value: raw.to_owned(),
        };
        let count = || raw.parse::<usize>().map_err(|_| bad_value());
        let real = || raw.parse::<f64>().map_err(|_| bad_value());
        match (self, key) {
            (Method::DenseBinary { candidates }, "candidates") => *candidates = count()?,
            (Method::Prf { docs, .. }, "docs") | (Method::Rocchio { docs, .. }, "docs") => {
                *docs = count()?
            }
            (Method::Prf { terms, .. }, "terms") => *terms = count()?,
            (Method::Rocchio { alpha, .. }, "alpha") => *alpha = real()?,
            (Method::Rocchio { beta, .. }, "beta") => *beta = real()?,
            (Method::Rrf { k, .. }, "k")
            | (Method::ReformHybrid { k, .. }, "k")
            | (Method::CtxRrf { k, .. }, "k") => *k = real()?,
            (Method::Weighted { w, .. }, "w") => *w = real()?,
            (Method::Prop { share, .. }, "share")
            | (Method::Mix { share }, "share")
            | (Method::CtxRrf { share, .. }, "share") => *share = real()?,
            (Method::CtxRrf { mix, .. }, "mix") => *mix = real()?,
            (Method::Prop { dir, .. }, "dir") | (Method::CtxRrf { dir, .. }, "dir") => {
                *dir = Direction::by_name(raw).ok_or_else(bad_value)?
            }
            (Method::Rrf { depth, .. }, "depth")
            | (Method::Weighted { depth, .. }, "depth")
            | (Method::ReformHybrid { depth, .. }, "depth")
            | (Method::CtxRrf { depth, .. }, "depth") => *depth = count()?,
            (Method::Dense { probes }, "probes")
            | (Method::Rocchio { probes, .. }, "probes")
            | (Method::Rrf { probes, .. }, "probes")
            | (Method::Weighted { probes, .. }, "probes") => *probes = count()?,
            (Method::ReactBm25 { rounds, .. }, "rounds") => *rounds = count()?,
            (Method::ReactBm25 { candidates, .. }, "candidates") => *candidates = count()?,
            (Method::ReactBm25 { chars, .. }, "chars") => *chars = count()?,
            _ => {
                return Err(MethodError::UnknownKey {
                    method: name,
                    key: key.to_owned(),
                })
            }
        }
        Ok(())
    }
}

/// `name[:key=value,...]` with only the parameters that differ from the
/// defaults; the alternate form (`{:#}`) spells out every parameter, for
/// run tags that must say exactly what ran.
impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())?;
        let defaults = Method::by_name(self.name()).map(|m| m.params());
        let mut sep = ':';
        for (i, (key, value)) in self.params().into_iter().enumerate() {
            let is_default = defaults.as_ref().and_then(|d| d.get(i)) == Some(&(key, value));
            if f.alternate() || !is_default {
                write!(f, "{sep}{key}={value}")?;
                sep = ',';
            }
        }
        Ok(())
    }
}

impl FromStr for Method {
    type Err = MethodError;

    /// Parses the [`Display`](fmt::Display) form (either flavour) and
    /// validates the result.
    fn from_str(s: &str) -> Result<Method, MethodError> {
        let (name, rest) = match s.split_once(':') {
            Some((name, rest)) => (name, Some(rest)),
            None => (s, None),
        };
        let mut method =
            Method::by_name(name).ok_or_else(|| MethodError::UnknownMethod(name.to_owned()))?;
        for pair in rest.into_iter().flat_map(|r| r.split(',')) {
            let (key, value) = pair.split_once('=').ok_or_else(|| MethodError::BadValue {
                method: method.name(),
                key: pair.to_owned(),
                value: String::new(),
            })?;
            method.set(key, value)?;
        }
        method.validate()?;
        Ok(method)
    }
}

/// A method string that cannot be used.
#[derive(Debug, Clone, PartialEq)]
pub enum MethodError {
    /// No method has this name.
    UnknownMethod(String),
    /// The method has no such parameter.
    UnknownKey {
        /// The method.
        method: &'static str,
        /// The key given.
        key: String,
    },
    /// A value that cannot be read (or a pair without `=`).
    BadValue {
        /// The method.
        method: &'static str,
        /// The key.
        key: String,
        /// The text given.
        value: String,
    },
    /// A value outside its range (see [`Method::validate`]).
    OutOfRange {
        /// The method.
        method: &'static str,
        /// The key.
        key: &'static str,
        /// The value refused.
        value: String,
    },
    /// A pool's hybrid that does not fuse BM25 and dense.
    NotHybrid(String),
}

impl fmt::Display for MethodError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MethodError::UnknownMethod(name) => write!(
                f,
                "unknown ranking method {name:?} (expected one of {}, or with an LLM {})",
                Method::NAMES.join(", "),
                Method::LLM_NAMES.join(", ")
            ),
            MethodError::UnknownKey { method, key } => {
                let keys: Vec<&str> = Method::by_name(method)
                    .map(|m| m.params().into_iter().map(|(k, _)| k).collect())
                    .unwrap_or_default();
                match keys.is_empty() {
                    true => write!(f, "method {method} takes no parameters, got {key:?}"),
                    false => write!(
                        f,
                        "method {method} has no parameter {key:?} (it has {})",
                        keys.join(", ")
                    ),
                }
            }
            MethodError::BadValue { method, key, value } => {
                write!(f, "method {method}: cannot read {key}={value:?}")
            }
            MethodError::OutOfRange { method, key, value } => {
                write!(f, "method {method}: {key} = {value} is out of range")
            }
            MethodError::NotHybrid(spec) => write!(
                f,
                "{spec:?} is not a hybrid: a pool's hybrid fuses BM25 and dense (rrf, weighted)"
            ),
        }
    }
}

impl std::error::Error for MethodError {}
