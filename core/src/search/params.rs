//! BM25 variants and their parameters.

use std::fmt;
use std::str::FromStr;

/// Which reference implementation a score must reproduce bit for bit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bm25Variant {
    /// rank_bm25 0.2.2 `BM25Okapi` (GreekBarRetrieval baseline), float64.
    Okapi,
    /// bm25s 0.3.8 `BM25(method="lucene")` (CRAwLeR-DK baseline), float32.
    Lucene,
}

impl Bm25Variant {
    /// The name [`FromStr`] accepts.
    pub fn name(self) -> &'static str {
        match self {
            Bm25Variant::Okapi => "okapi",
            Bm25Variant::Lucene => "lucene",
        }
    }
}

impl fmt::Display for Bm25Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Bm25Variant {
    type Err = ParamsError;

    fn from_str(s: &str) -> Result<Self, ParamsError> {
        match s {
            "okapi" => Ok(Bm25Variant::Okapi),
            "lucene" => Ok(Bm25Variant::Lucene),
            other => Err(ParamsError::UnknownVariant(other.to_owned())),
        }
    }
}

/// BM25 parameters. `epsilon` (the idf floor factor) is used by
/// [`Bm25Variant::Okapi`] only.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bm25Params {
    pub variant: Bm25Variant,
    pub k1: f64,
    pub b: f64,
    pub epsilon: f64,
}

impl Bm25Params {
    /// The reference library's defaults for `variant`: k1 = 1.5, b = 0.75
    /// for both, and epsilon = 0.25 (rank_bm25's default).
    pub fn new(variant: Bm25Variant) -> Self {
        Bm25Params {
            variant,
            k1: 1.5,
            b: 0.75,
            epsilon: 0.25,
        }
    }

    /// Requires k1 finite and ≥ 0, b in [0, 1] and epsilon finite. Within
    /// these ranges a posting's denominator `tf + k1·(1 − b + b·dl/avgdl)`
    /// is at least 1, so no score can be NaN or infinite.
    pub fn validate(&self) -> Result<(), ParamsError> {
        let out_of_range = |name, value| Err(ParamsError::OutOfRange { name, value });
        if !(self.k1.is_finite() && self.k1 >= 0.0) {
            return out_of_range("k1", self.k1);
        }
        if !(0.0..=1.0).contains(&self.b) {
            return out_of_range("b", self.b);
        }
        if !self.epsilon.is_finite() {
            return out_of_range("epsilon", self.epsilon);
        }
        Ok(())
    }
}

impl Default for Bm25Params {
    /// Okapi with rank_bm25's defaults, the GreekBarRetrieval baseline.
    fn default() -> Self {
        Bm25Params::new(Bm25Variant::Okapi)
    }
}

/// Invalid BM25 settings.
#[derive(Debug, Clone, PartialEq)]
pub enum ParamsError {
    /// Not `okapi` or `lucene`.
    UnknownVariant(String),
    /// A parameter outside its allowed range.
    OutOfRange { name: &'static str, value: f64 },
}

impl fmt::Display for ParamsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamsError::UnknownVariant(s) => {
                write!(f, "unknown BM25 variant {s:?} (expected okapi or lucene)")
            }
            ParamsError::OutOfRange { name, value } => {
                write!(f, "BM25 parameter {name} = {value} is out of range")
            }
        }
    }
}

impl std::error::Error for ParamsError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_variant_names() {
        for v in [Bm25Variant::Okapi, Bm25Variant::Lucene] {
            assert_eq!(v.name().parse::<Bm25Variant>(), Ok(v));
            assert_eq!(v.to_string(), v.name());
        }
        assert_eq!(
            "bm25+".parse::<Bm25Variant>(),
            Err(ParamsError::UnknownVariant("bm25+".into()))
        );
    }

    #[test]
    fn defaults_match_the_references() {
        let p = Bm25Params::default();
        assert_eq!(p.variant, Bm25Variant::Okapi);
        assert_eq!((p.k1, p.b, p.epsilon), (1.5, 0.75, 0.25));
        let p = Bm25Params::new(Bm25Variant::Lucene);
        assert_eq!((p.k1, p.b), (1.5, 0.75));
    }

    #[test]
    fn rejects_out_of_range_values() {
        let base = Bm25Params::default();
        for (p, name) in [
            (Bm25Params { k1: -0.1, ..base }, "k1"),
            (
                Bm25Params {
                    k1: f64::NAN,
                    ..base
                },
                "k1",
            ),
            (Bm25Params { b: 1.5, ..base }, "b"),
            (
                Bm25Params {
                    b: f64::NAN,
                    ..base
                },
                "b",
            ),
            (
                Bm25Params {
                    epsilon: f64::INFINITY,
                    ..base
                },
                "epsilon",
            ),
        ] {
            match p.validate() {
                Err(ParamsError::OutOfRange { name: got, .. }) => assert_eq!(got, name),
                other => panic!("{p:?}: {other:?}"),
            }
        }
        assert_eq!(
            Bm25Params {
                k1: 0.0,
                b: 1.0,
                ..base
            }
            .validate(),
            Ok(())
        );
    }
}
