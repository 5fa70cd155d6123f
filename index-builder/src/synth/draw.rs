//! Seeded draws: the same seed gives the same pool, byte for byte, on any
//! machine (integer-only stream, no hashing order involved).

use nomos_core::eval::significance::Prng;

pub struct Draw(Prng);

impl Draw {
    pub fn new(seed: u64) -> Draw {
        Draw(Prng::new(seed))
    }

    /// Uniform in `0..n` (`n > 0`; the modulo bias is below 2^-40 for the
    /// sizes drawn here).
    pub fn below(&mut self, n: usize) -> usize {
        (self.0.next_u64() % n as u64) as usize
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        ((self.0.next_u64() >> 11) as f64 / (1u64 << 53) as f64) < p
    }

    /// One of `values`, each as often as it occurs (an empirical
    /// distribution; `values` is not empty).
    pub fn pick<T: Copy>(&mut self, values: &[T]) -> T {
        values[self.below(values.len())]
    }
}
