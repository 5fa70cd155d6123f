//! The randomization test's random bits: xoshiro256** seeded through
//! SplitMix64 (Blackman and Vigna), integer-only so the stream is the same
//! natively and in wasm for the same seed.

/// A seeded stream of 64-bit words.
pub struct Prng {
    state: [u64; 4],
}

impl Prng {
    /// The stream for `seed`; SplitMix64 spreads it over the state (never
    /// all zero).
    pub fn new(seed: u64) -> Self {
        let mut x = seed;
        let mut next = || {
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        Self {
            state: [next(), next(), next(), next()],
        }
    }

    /// The next word of the stream.
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.state;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_fixed_by_the_seed() {
        // Pinned: a change here changes every recorded randomization p-value.
        let mut a = Prng::new(42);
        let words: Vec<u64> = (0..3).map(|_| a.next_u64()).collect();
        let mut b = Prng::new(42);
        assert_eq!(words, (0..3).map(|_| b.next_u64()).collect::<Vec<_>>());
        assert_eq!(words, PINNED);
        assert_ne!(Prng::new(43).next_u64(), words[0]);
    }

    const PINNED: [u64; 3] = [
        1_546_998_764_402_558_742,
        6_990_951_692_964_543_102,
        12_544_586_762_248_559_009,
    ];
}
