//! What one evaluation ranks with: a method, the BM25 settings it uses
//! (ignored by the purely dense methods) and the field it ranks, or a run
//! file made elsewhere; and which result it fills.

use nomos_core::blob::Field;
use nomos_core::methods::Method;
use nomos_core::search::Bm25Params;

use crate::transcript_files::short_hash;

/// Which result an evaluation fills.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// The current method (the one Search uses), A.
    Current,
    /// The method it is compared with, B.
    Compared,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Config {
    pub method: Method,
    pub params: Bm25Params,
    /// The documents' text, or their augmented text.
    pub field: Field,
}

impl Config {
    /// `rrf:k=60,depth=100,probes=64+okapi:k1=1.5,b=0.75`, as `nomos eval` tags runs
    /// (it names no field, whichever `--field` ranked).
    pub fn tag(&self) -> String {
        self.method.describe_with(&self.params)
    }

    /// For people: `BM25 okapi k1=1.5 b=0.75`, `rrf + BM25 okapi k1=1.5
    /// b=0.75`, `rrf:k=20 + BM25 …`, `dense`; with `on augmented` when
    /// it ranks that field.
    pub fn describe(&self) -> String {
        let bm25 = || format!("BM25 {}", self.params.describe());
        let method = match (self.method, self.method.needs_lexical()) {
            (Method::Bm25, _) => bm25(),
            (m, true) => format!("{m} + {}", bm25()),
            (m, false) => m.to_string(),
        };
        match self.field {
            Field::Text => method,
            Field::Augmented => format!("{method} on augmented"),
        }
    }

    /// Whether both rank identically: the same method on the same field,
    /// and the same BM25 settings where it uses them.
    pub fn same_ranking(&self, other: &Config) -> bool {
        self.method == other.method
            && self.field == other.field
            && (!self.method.needs_lexical() || self.params == other.params)
    }
}

/// A TREC run file imported into Evaluate, named by the SHA-256 of its
/// bytes (links carry the hash, never the file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunFile {
    pub name: String,
    pub sha256: String,
}

impl RunFile {
    /// The hash's first digits, as messages show it.
    pub fn short(&self) -> &str {
        short_hash(&self.sha256)
    }
}

/// A run file shown as A or B, as links name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunLink {
    pub slot: Slot,
    /// Lowercase hex.
    pub sha256: String,
}

/// Where an outcome's rankings come from.
#[derive(Debug, Clone, PartialEq)]
pub enum RankedBy {
    /// A method of ours, ranked here.
    Method(Config),
    /// A run file, evaluated as it is.
    RunFile(RunFile),
}

impl RankedBy {
    /// The method, if one ranked.
    pub fn method(&self) -> Option<Config> {
        match self {
            RankedBy::Method(c) => Some(*c),
            RankedBy::RunFile(_) => None,
        }
    }

    /// A run tag: `nomos eval`'s for a method, the file's hash for a run.
    pub fn tag(&self) -> String {
        match self {
            RankedBy::Method(c) => c.tag(),
            RankedBy::RunFile(f) => format!("run-{}", f.short()),
        }
    }

    /// For people: [`Config::describe`], or `run file NAME (SHA-256 …)`.
    pub fn describe(&self) -> String {
        match self {
            RankedBy::Method(c) => c.describe(),
            RankedBy::RunFile(f) => format!("run file {} (SHA-256 {}…)", f.name, f.short()),
        }
    }

    /// The method as its spec string (`react-bm25:rounds=3,…`), or the
    /// run file as [`Self::describe`] says it.
    pub fn describe_method(&self) -> String {
        match self {
            RankedBy::Method(c) => c.method.to_string(),
            RankedBy::RunFile(_) => self.describe(),
        }
    }

    /// The run file, if one is.
    pub fn run_file(&self) -> Option<&RunFile> {
        match self {
            RankedBy::RunFile(f) => Some(f),
            RankedBy::Method(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_tell_configurations_apart_but_not_tags() {
        let text = Config {
            method: Method::Bm25,
            params: Bm25Params::default(),
            field: Field::Text,
        };
        let augmented = Config {
            field: Field::Augmented,
            ..text
        };
        assert!(!text.same_ranking(&augmented));
        assert_ne!(text, augmented);
        assert_eq!(
            augmented.describe(),
            format!("{} on augmented", text.describe())
        );
        // As `nomos eval --field augmented` tags its run.
        assert_eq!(augmented.tag(), text.tag());
    }
}
