//! Parity of `nomos_core::eval::significance` with scipy and statsmodels on
//! the fixtures written by `scripts/fixtures/gen_significance.py`: the
//! paired t-test and its confidence interval to 1e-9, the randomization
//! test within ±0.005 of scipy's at 100,000 permutations (to 1e-12 where
//! both enumerate every sign vector), Holm exactly.

use nomos_core::eval::significance::{holm, is_exact, randomization_p, t_test};
use serde_json::Value;

const T_TOLERANCE: f64 = 1e-9;
const RANDOMIZATION_TOLERANCE: f64 = 0.005;
const PERMUTATIONS: u64 = 100_000;
const SEED: u64 = 7;

fn fixture() -> Value {
    let text = include_str!("fixtures/significance/cases.json");
    serde_json::from_str(text).expect("fixture is JSON")
}

/// A fixture number: null is NaN, "inf"/"-inf" are infinities.
fn number(v: &Value) -> f64 {
    match v {
        Value::Null => f64::NAN,
        Value::String(s) if s == "inf" => f64::INFINITY,
        Value::String(s) if s == "-inf" => f64::NEG_INFINITY,
        v => v.as_f64().expect("fixture number"),
    }
}

fn same(got: f64, want: f64, tolerance: f64) -> bool {
    (got.is_nan() && want.is_nan()) || got == want || (got - want).abs() <= tolerance
}

fn column(rows: &Value, j: usize) -> Vec<f64> {
    rows.as_array()
        .expect("rows")
        .iter()
        .map(|r| number(&r[j]))
        .collect()
}

#[test]
fn t_test_and_randomization_match_scipy() {
    let fixture = fixture();
    let mut compared = 0;
    for case in fixture["cases"].as_array().expect("cases") {
        let name = case["name"].as_str().expect("name");
        for (j, measure) in case["measures"]
            .as_array()
            .expect("measures")
            .iter()
            .enumerate()
        {
            let (a, b) = (column(&case["a"], j), column(&case["b"], j));
            let d: Vec<f64> = b.iter().zip(&a).map(|(b, a)| b - a).collect();
            let want = &case["t_test"][j];
            let got = t_test(&d);
            for (what, g, w) in [
                ("t", got.t, number(&want["t"])),
                ("p", got.p, number(&want["p"])),
                ("ci_low", got.ci_low, number(&want["ci_low"])),
                ("ci_high", got.ci_high, number(&want["ci_high"])),
            ] {
                // t itself is compared relatively: it can be large.
                let tolerance = if what == "t" {
                    T_TOLERANCE * w.abs().max(1.0)
                } else {
                    T_TOLERANCE
                };
                assert!(
                    same(g, w, tolerance),
                    "{name} {measure} {what}: got {g:?}, scipy {w:?}"
                );
            }
            let exact = case["exact"].as_bool().expect("exact");
            assert_eq!(is_exact(d.len(), PERMUTATIONS), exact, "{name}");
            let got = randomization_p(&d, PERMUTATIONS, SEED);
            let want = number(&case["randomization"][j]);
            let tolerance = if exact {
                1e-12
            } else {
                RANDOMIZATION_TOLERANCE
            };
            assert!(
                (got - want).abs() <= tolerance,
                "{name} {measure} randomization p: got {got}, scipy {want}"
            );
            compared += 1;
        }
    }
    assert!(compared >= 15, "only {compared} measures compared");
}

#[test]
fn holm_equals_statsmodels_exactly() {
    let fixture = fixture();
    let families = fixture["holm"].as_array().expect("holm");
    assert!(families.len() >= 6);
    for family in families {
        let p: Vec<f64> = family["p"]
            .as_array()
            .expect("p")
            .iter()
            .map(number)
            .collect();
        let want: Vec<f64> = family["adjusted"]
            .as_array()
            .expect("adjusted")
            .iter()
            .map(number)
            .collect();
        assert_eq!(holm(&p), want, "p = {p:?}");
    }
}
