//! What one evaluation ranks with: a method and the BM25 settings it uses
//! (ignored by the purely dense methods), and which result it fills.

use nomos_core::methods::Method;
use nomos_core::search::Bm25Params;

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
}

impl Config {
    /// `rrf:k=60,depth=100+okapi:k1=1.5,b=0.75`, as `nomos eval` tags runs.
    pub fn tag(&self) -> String {
        self.method.describe_with(&self.params)
    }

    /// For people: `BM25 okapi k1=1.5 b=0.75`, `rrf + BM25 okapi k1=1.5
    /// b=0.75`, `rrf:k=20 + BM25 …`, `dense`.
    pub fn describe(&self) -> String {
        let bm25 = || format!("BM25 {}", self.params.describe());
        match (self.method, self.method.needs_lexical()) {
            (Method::Bm25, _) => bm25(),
            (m, true) => format!("{m} + {}", bm25()),
            (m, false) => m.to_string(),
        }
    }

    /// Whether both rank identically: the same method, and the same BM25
    /// settings where it uses them.
    pub fn same_ranking(&self, other: &Config) -> bool {
        self.method == other.method && (!self.method.needs_lexical() || self.params == other.params)
    }
}
