//! From f32 vectors to the stored codes.

/// The component-wise mean of `n × dim` vectors, summed in f64 in corpus
/// order (zeros for an empty corpus).
pub(super) fn mean(vectors: &[f32], dim: usize) -> Vec<f32> {
    let mut sum = vec![0f64; dim];
    for v in vectors.chunks_exact(dim) {
        for (s, &x) in sum.iter_mut().zip(v) {
            *s += f64::from(x);
        }
    }
    let n = (vectors.len() / dim).max(1) as f64;
    sum.iter().map(|&s| (s / n) as f32).collect()
}

/// Appends `v`'s int8 codes to `codes` and returns its scale
/// `max|x| / 127`: the largest component maps to ±127 and the others round
/// to nearest (ties away from zero). An all-zero vector gets scale 0.
pub(super) fn int8(v: &[f32], codes: &mut Vec<i8>) -> f32 {
    let max = v.iter().fold(0f32, |m, &x| m.max(x.abs()));
    let scale = max / 127.0;
    for &x in v {
        let c = if scale > 0.0 {
            (x / scale).round()
        } else {
            0.0
        };
        // |x / scale| ≤ 127 up to rounding of the division: clamp keeps the
        // code symmetric (never −128).
        codes.push(c.clamp(-127.0, 127.0) as i8);
    }
    scale
}

/// Appends the sign bits of `v − mean`: bit set when `v_i > mean_i`.
pub(super) fn sign_bits(v: &[f32], mean: &[f32], bits: &mut Vec<u64>) {
    for (chunk, m) in v.chunks(64).zip(mean.chunks(64)) {
        let mut word = 0u64;
        for (i, (&x, &mu)) in chunk.iter().zip(m).enumerate() {
            if x > mu {
                word |= 1 << i;
            }
        }
        bits.push(word);
    }
}
