//! The paired randomization test: under the null hypothesis each query's
//! difference B − A is as likely to have the other sign, so the statistic
//! (the mean difference) is recomputed with random signs.
//!
//! The p-value is scipy's `permutation_test(..., permutation_type='samples')`
//! convention, two-sided: `2 · min(P(T ≤ t), P(T ≥ t))`, capped at 1, where
//! null values within `100 ε |t|` of the observed `t` count as equal to it.
//! With `N` random sign vectors, `P(T ≤ t) = (count + 1) / (N + 1)`: the
//! observed signs count as one more sample, so p is never 0. When
//! `N ≥ 2ⁿ` the test is exact instead: all `2ⁿ` sign vectors, `count / 2ⁿ`.
//!
//! Speed: the sum of the flipped differences is read eight queries at a
//! time from a table of all 256 subset sums of each block of eight, so a
//! sign vector costs `n / 8` look-ups.

use super::prng::Prng;

/// Queries per table block: one byte of a sign vector.
const BLOCK: usize = 8;

/// Two-sided p-value of the mean of `differences` against random signs:
/// `permutations` sign vectors drawn from `seed` (see the module docs).
/// 1 for no differences.
pub fn p_value(differences: &[f64], permutations: u64, seed: u64) -> f64 {
    let n = differences.len();
    let sums = SubsetSums::new(differences);
    let observed = sums.total;
    let tolerance = (100.0 * f64::EPSILON * observed).abs();
    let (mut at_most, mut at_least) = (0u64, 0u64);
    let mut count = |flipped: f64| {
        let statistic = observed - 2.0 * flipped;
        at_most += u64::from(statistic <= observed + tolerance);
        at_least += u64::from(statistic >= observed - tolerance);
    };
    let (samples, adjustment) = if is_exact(n, permutations) {
        for signs in 0..1u64 << n {
            count(sums.flipped(&[signs]));
        }
        (1u64 << n, 0)
    } else {
        let mut rng = Prng::new(seed);
        let mut words = vec![0u64; n.div_ceil(64)];
        for _ in 0..permutations {
            words.iter_mut().for_each(|w| *w = rng.next_u64());
            count(sums.flipped(&words));
        }
        (permutations, 1)
    };
    let tail = |c: u64| (c + adjustment) as f64 / (samples + adjustment) as f64;
    (2.0 * tail(at_most).min(tail(at_least))).min(1.0)
}

/// Whether `permutations` sign vectors cover all of `n` queries' (the
/// test is then exact).
pub fn is_exact(n: usize, permutations: u64) -> bool {
    n < 64 && permutations >= 1u64 << n
}

/// Every subset sum of each block of eight differences (zero-padded).
struct SubsetSums {
    table: Vec<f64>,
    total: f64,
}

impl SubsetSums {
    fn new(differences: &[f64]) -> Self {
        let blocks = differences.len().div_ceil(64) * (64 / BLOCK);
        let mut table = vec![0.0; blocks * 256];
        for (block, chunk) in differences.chunks(BLOCK).enumerate() {
            let sums = &mut table[block * 256..(block + 1) * 256];
            for subset in 1..256usize {
                let lowest = subset.trailing_zeros() as usize;
                let value = chunk.get(lowest).copied().unwrap_or(0.0);
                sums[subset] = sums[subset & (subset - 1)] + value;
            }
        }
        Self {
            table,
            total: differences.iter().sum(),
        }
    }

    /// The sum of the differences whose bit is set in `words` (bit `i` of
    /// word `w` is query `64 w + i`).
    fn flipped(&self, words: &[u64]) -> f64 {
        let mut sums = [0.0; 2];
        for (w, &word) in words.iter().enumerate() {
            let base = w * (64 / BLOCK);
            for (b, byte) in word.to_le_bytes().into_iter().enumerate() {
                let index = (base + b) * 256 + usize::from(byte);
                sums[b & 1] += self.table.get(index).copied().unwrap_or(0.0);
            }
        }
        sums[0] + sums[1]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_enumeration_counts_every_sign_vector() {
        // [1, 2]: the four sums 3, 1, −1, −3; P(T ≥ 3) = 1/4, so p = 1/2.
        assert_eq!(p_value(&[1.0, 2.0], 4, 0), 0.5);
        // Five positive differences: 1/32 on each side.
        assert_eq!(p_value(&[1.0; 5], 1_000, 0), 2.0 / 32.0);
        assert!(is_exact(5, 32) && !is_exact(5, 31));
    }

    #[test]
    fn sampled_p_counts_the_observed_signs() {
        // 70 equal positive differences: no random sign vector reaches the
        // observed sum, so p = 2 · 1 / (N + 1).
        assert_eq!(p_value(&[0.5; 70], 999, 7), 2.0 / 1000.0);
    }

    #[test]
    fn no_difference_gives_one() {
        assert_eq!(p_value(&[0.0; 100], 1_000, 3), 1.0);
        assert_eq!(p_value(&[], 1_000, 3), 1.0);
    }

    #[test]
    fn subset_sums_match_a_direct_sum() {
        let d: Vec<f64> = (0..150).map(|i| f64::from(i % 17) - 8.0).collect();
        let sums = SubsetSums::new(&d);
        let words = [0xDEAD_BEEF_0123_4567u64, u64::MAX, 0b1011];
        let direct: f64 = (0..d.len())
            .filter(|&i| words[i / 64] >> (i % 64) & 1 == 1)
            .map(|i| d[i])
            .sum();
        assert_eq!(sums.flipped(&words), direct);
    }
}
