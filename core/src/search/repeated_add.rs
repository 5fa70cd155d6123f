//! Adding one contribution `n` times, rounded after each addition as the
//! references round, in the time of the binades the sum crosses rather
//! than of `n`.
//!
//! rank_bm25 and bm25s add a query term's contribution once per
//! occurrence, so a word repeated 10,000 times is 10,000 rounded
//! additions. While the sum stays in one binade `[2^e, 2^(e+1))` its
//! representable values are the multiples of one step `u`, and adding `c`
//! lands exactly on the multiple of `u` nearest to `s + c`: the sum grows
//! by the same `c` rounded to a multiple of `u` each time, which can be
//! added for all those occurrences at once, exactly, as integers. Only
//! the addition that leaves the binade is performed as a float addition.
//! Where that argument does not hold (a sum of 0 or below the normal
//! range, a contribution not above 0, `c` exactly halfway between two
//! multiples of `u`, where ties-to-even depends on the sum), additions
//! are performed one by one.

/// Float64 (rank_bm25) or float32 (bm25s) running sums, held in an `f64`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Precision {
    F64,
    F32,
}

impl Precision {
    /// Significand bits, the leading one included.
    fn bits(self) -> i32 {
        match self {
            Precision::F64 => 53,
            Precision::F32 => 24,
        }
    }

    /// One addition, rounded in this precision.
    #[inline]
    pub(crate) fn add(self, s: f64, c: f64) -> f64 {
        match self {
            Precision::F64 => s + c,
            Precision::F32 => f64::from(s as f32 + c as f32),
        }
    }
}

/// Below this the step of a binade may be subnormal or underflow in
/// either precision; such sums are added to one by one.
const SMALLEST_JUMPED: f64 = 1e-30;

/// `s` with `c` added `n` times, each addition rounded in `precision`:
/// bit for bit the loop `for _ in 0..n { s = precision.add(s, c) }`.
/// For float32, `s` and `c` must be float32 values.
pub(crate) fn add_repeated(mut s: f64, c: f64, mut n: u64, precision: Precision) -> f64 {
    if n == 1 {
        return precision.add(s, c);
    }
    let p = precision.bits();
    let top = 1u64 << p;
    while n > 0 {
        if !(s >= SMALLEST_JUMPED && s.is_finite() && c > 0.0 && c.is_finite()) {
            s = precision.add(s, c);
            n -= 1;
            continue;
        }
        // The binade's step u = 2^(e − p + 1); s / u is an integer in
        // [2^(p−1), 2^p), as s has at most p significant bits.
        let e = ((s.to_bits() >> 52) & 0x7ff) as i32 - 1023;
        let u = f64::from_bits(((e - p + 1 + 1023) as u64) << 52);
        let k = c / u;
        let jumped = if k >= top as f64 {
            0
        } else {
            let whole = k.floor();
            let frac = k - whole;
            if frac == 0.5 {
                0
            } else {
                let m = whole as u64 + u64::from(frac > 0.5);
                let at = (s / u) as u64;
                // Additions that keep the sum below 2^(e+1).
                let room = top - 1 - at;
                let j = room.checked_div(m).map_or(n, |j| j.min(n));
                s = (at + j * m) as f64 * u;
                j
            }
        };
        n -= jumped;
        if n > 0 {
            s = precision.add(s, c);
            n -= 1;
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn looped(mut s: f64, c: f64, n: u64, precision: Precision) -> f64 {
        for _ in 0..n {
            s = precision.add(s, c);
        }
        s
    }

    /// A small deterministic generator (xorshift), so failures replay.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn unit(&mut self) -> f64 {
            (self.next() >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    #[test]
    fn equals_the_loop_bit_for_bit() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for precision in [Precision::F64, Precision::F32] {
            for _ in 0..3_000 {
                let scale = 10f64.powi((rng.next() % 9) as i32 - 4);
                let mut c = rng.unit() * scale;
                let mut s = match rng.next() % 3 {
                    0 => 0.0,
                    1 => rng.unit() * scale,
                    _ => rng.unit() * scale * 1e6,
                };
                if precision == Precision::F32 {
                    (c, s) = (f64::from(c as f32), f64::from(s as f32));
                }
                let n = rng.next() % 20_000;
                assert_eq!(
                    add_repeated(s, c, n, precision).to_bits(),
                    looped(s, c, n, precision).to_bits(),
                    "{precision:?} s {s:e} c {c:e} n {n}"
                );
            }
        }
    }

    #[test]
    fn ties_zeros_and_negatives_are_added_one_by_one() {
        for precision in [Precision::F64, Precision::F32] {
            // c half a step of the binade of 1: ties to even alternate.
            let half = match precision {
                Precision::F64 => f64::EPSILON / 2.0,
                Precision::F32 => f64::from(f32::EPSILON / 2.0),
            };
            // c a step and a half: rounds up or down by the sum's parity.
            for (s, c) in [
                (1.0, half),
                (1.0, 3.0 * half),
                (0.0, 0.3),
                (2.5, -0.1),
                (-3.0, 0.7),
                (1e-40, 1e-41),
                (1e30, 1e-3),
            ] {
                let (s, c) = match precision {
                    Precision::F64 => (s, c),
                    Precision::F32 => (f64::from(s as f32), f64::from(c as f32)),
                };
                for n in [0, 1, 2, 3, 1_000, 100_001] {
                    assert_eq!(
                        add_repeated(s, c, n, precision).to_bits(),
                        looped(s, c, n, precision).to_bits(),
                        "{precision:?} s {s:e} c {c:e} n {n}"
                    );
                }
            }
        }
    }
}
