//! BM25 variants and their parameters, with one text form for run tags,
//! links and the command line: `okapi:k1=1.5,b=0.75` (`,epsilon=…` only
//! when it differs from the default), and [`Bm25Params::describe`] for
//! people.

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
    /// Which reference's formula and float width.
    pub variant: Bm25Variant,
    /// Term frequency saturation.
    pub k1: f64,
    /// Document length normalisation, 0 (none) to 1 (full).
    pub b: f64,
    /// Okapi's idf floor: negative idfs become `epsilon × mean idf`.
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

    /// `okapi k1=1.5 b=0.75`: the parameters for people, in tables and
    /// messages (` epsilon=…` only when it differs from the default).
    pub fn describe(&self) -> String {
        let mut text = format!("{} k1={} b={}", self.variant, self.k1, self.b);
        if let Some(epsilon) = self.custom_epsilon() {
            text.push_str(&format!(" epsilon={epsilon}"));
        }
        text
    }

    /// Epsilon, when it is not the variant's default (and so must be said).
    fn custom_epsilon(&self) -> Option<f64> {
        let default = Bm25Params::new(self.variant).epsilon;
        (self.epsilon.to_bits() != default.to_bits()).then_some(self.epsilon)
    }
}

/// `okapi:k1=1.5,b=0.75`, numbers in their shortest round-trip form, with
/// `,epsilon=…` only when it differs from the default: the form of run
/// tags, links and the command line, read back by [`FromStr`].
impl fmt::Display for Bm25Params {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:k1={},b={}", self.variant, self.k1, self.b)?;
        if let Some(epsilon) = self.custom_epsilon() {
            write!(f, ",epsilon={epsilon}")?;
        }
        Ok(())
    }
}

impl FromStr for Bm25Params {
    type Err = ParamsError;

    /// Reads the [`Display`](fmt::Display) form: a variant, then optionally
    /// `:` and `key=value` pairs (`k1`, `b`, `epsilon`, each at most once);
    /// keys left out keep the variant's defaults. The result is validated.
    fn from_str(s: &str) -> Result<Bm25Params, ParamsError> {
        let (name, rest) = match s.split_once(':') {
            Some((name, rest)) => (name, Some(rest)),
            None => (s, None),
        };
        let mut params = Bm25Params::new(name.parse()?);
        let mut seen: Vec<&str> = Vec::new();
        for pair in rest.into_iter().flat_map(|r| r.split(',')) {
            let bad = || ParamsError::BadValue(pair.to_owned());
            let (key, raw) = pair.split_once('=').ok_or_else(bad)?;
            let value: f64 = raw.parse().map_err(|_| bad())?;
            let slot = match key {
                "k1" => &mut params.k1,
                "b" => &mut params.b,
                "epsilon" => &mut params.epsilon,
                _ => return Err(ParamsError::UnknownKey(key.to_owned())),
            };
            if seen.contains(&key) {
                return Err(bad());
            }
            seen.push(key);
            *slot = value;
        }
        params.validate()?;
        Ok(params)
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
    OutOfRange {
        /// `k1`, `b` or `epsilon`.
        name: &'static str,
        /// The value refused.
        value: f64,
    },
    /// Not one of `k1`, `b`, `epsilon` in the text form.
    UnknownKey(String),
    /// A `key=value` pair of the text form that cannot be read (not a
    /// number, no `=`, or a key given twice).
    BadValue(String),
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
            ParamsError::UnknownKey(key) => {
                write!(f, "BM25 has no parameter {key:?} (it has k1, b, epsilon)")
            }
            ParamsError::BadValue(pair) => write!(f, "cannot read BM25 setting {pair:?}"),
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

    #[test]
    fn text_form_round_trips() {
        let okapi = Bm25Params::default();
        assert_eq!(okapi.to_string(), "okapi:k1=1.5,b=0.75");
        assert_eq!(okapi.describe(), "okapi k1=1.5 b=0.75");
        let lucene = Bm25Params {
            k1: 1.2,
            b: 0.3,
            ..Bm25Params::new(Bm25Variant::Lucene)
        };
        assert_eq!(lucene.to_string(), "lucene:k1=1.2,b=0.3");
        let floored = Bm25Params {
            epsilon: 0.5,
            ..okapi
        };
        assert_eq!(floored.to_string(), "okapi:k1=1.5,b=0.75,epsilon=0.5");
        assert_eq!(floored.describe(), "okapi k1=1.5 b=0.75 epsilon=0.5");
        let odd = Bm25Params {
            k1: 0.1 + 0.2,
            b: 1.0 / 3.0,
            ..okapi
        };
        for p in [okapi, lucene, floored, odd] {
            assert_eq!(p.to_string().parse::<Bm25Params>(), Ok(p), "{p}");
        }
        // Keys left out keep the defaults, in any order.
        assert_eq!("okapi".parse(), Ok(okapi));
        assert_eq!("lucene:b=0.3,k1=1.2".parse(), Ok(lucene));
    }

    #[test]
    fn bad_text_forms_are_named() {
        let err = |s: &str| s.parse::<Bm25Params>().unwrap_err();
        assert_eq!(err("bm25+"), ParamsError::UnknownVariant("bm25+".into()));
        assert_eq!(err("okapi:k2=1"), ParamsError::UnknownKey("k2".into()));
        assert_eq!(err("okapi:k1"), ParamsError::BadValue("k1".into()));
        assert_eq!(err("okapi:k1=x"), ParamsError::BadValue("k1=x".into()));
        assert_eq!(err("okapi:k1=1,k1=2"), ParamsError::BadValue("k1=2".into()));
        assert_eq!(err("okapi:"), ParamsError::BadValue("".into()));
        assert!(matches!(
            err("okapi:b=1.5"),
            ParamsError::OutOfRange { name: "b", .. }
        ));
        assert!(err("okapi:k2=1")
            .to_string()
            .contains("no parameter \"k2\""));
        assert!(err("okapi:k1=x").to_string().contains("\"k1=x\""));
    }
}
