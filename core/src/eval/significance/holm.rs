//! Holm–Bonferroni step-down adjustment, computed as statsmodels'
//! `multipletests(method='holm')` does, so the adjusted p-values are equal
//! to the bit.

/// Holm-adjusted p-values, in the input's order. NaN p-values (tests that
/// are undefined, e.g. a t-test over all-zero differences) are left out of
/// the family and stay NaN: m counts only the defined tests.
pub fn holm(p: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..p.len()).filter(|&i| !p[i].is_nan()).collect();
    // Ties may come in any order: each gets the running maximum either way.
    crate::order::sort_by(&mut order, |&i, &j| p[i].total_cmp(&p[j]));
    let m = order.len();
    let mut adjusted = vec![f64::NAN; p.len()];
    let mut running = f64::NEG_INFINITY;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(p[i] * (m - rank) as f64);
        adjusted[i] = running.min(1.0);
    }
    adjusted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_down_monotonically_and_caps_at_one() {
        let got = holm(&[0.01, 0.04, 0.03, 0.5]);
        // Sorted: 0.01·4, 0.03·3, 0.04·2 → max(0.09, 0.08), 0.5·1 → 0.5.
        assert_eq!(got, [0.04, 0.09, 0.09, 0.5]);
        assert_eq!(holm(&[0.6, 0.7]), [1.0, 1.0]);
        assert!(holm(&[]).is_empty());
    }

    #[test]
    fn undefined_tests_are_not_counted() {
        let got = holm(&[f64::NAN, 0.02, 0.03]);
        assert!(got[0].is_nan());
        assert_eq!(got[1..], [0.04, 0.04]);
    }
}
