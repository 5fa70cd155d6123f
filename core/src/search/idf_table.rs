//! The natural logarithms BM25's idf needs, by document frequency,
//! computed once where a blob is built and stored in it.
//!
//! Why: rank_bm25 and bm25s take `ln` from the C library (glibc natively),
//! and so does our native build. WebAssembly has no `ln` instruction, so
//! the browser build uses a software `ln` that differs from glibc's in the
//! last bit for about 0.6% of inputs; an idf off by one ulp moves a score
//! in its last digits and can flip an exact tie. With the table, the browser
//! ranks with the very idf the native build computed. A table is checked
//! against the local `ln` (it must agree to 1e-9, relative) before use, so
//! a damaged one cannot skew rankings.

use std::fmt;

/// Per distinct document frequency, ascending: okapi's `ln(N − df + 0.5) −
/// ln(df + 0.5)` and lucene's `ln(1 + (N − df + 0.5) / (df + 0.5))`.
#[derive(Debug, Clone, PartialEq)]
pub struct IdfTable {
    n_docs: u64,
    dfs: Vec<u32>,
    okapi: Vec<f64>,
    lucene: Vec<f64>,
}

impl IdfTable {
    /// About the memory its tables hold.
    pub fn heap_bytes(&self) -> usize {
        4 * self.dfs.len() + 8 * (self.okapi.len() + self.lucene.len())
    }
}

/// Why a stored table was refused.
#[derive(Debug, Clone, PartialEq)]
pub struct IdfTableError(String);

impl fmt::Display for IdfTableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for IdfTableError {}

/// Relative agreement required between a stored value and the local `ln`.
const TOLERANCE: f64 = 1e-9;

impl IdfTable {
    /// The table for a corpus of `n_docs` documents and the given document
    /// frequencies (any order, repeats allowed), computed with this
    /// platform's `ln`: call it natively.
    pub fn compute(n_docs: u64, dfs: impl IntoIterator<Item = u32>) -> IdfTable {
        let mut dfs: Vec<u32> = dfs.into_iter().collect();
        dfs.sort_unstable();
        dfs.dedup();
        IdfTable {
            okapi: dfs.iter().map(|&df| okapi_ln(n_docs, df)).collect(),
            lucene: dfs.iter().map(|&df| lucene_ln(n_docs, df)).collect(),
            n_docs,
            dfs,
        }
    }

    /// A stored table, checked: equal lengths, frequencies strictly
    /// ascending and at most `n_docs`, and every value within 1e-9 of what
    /// the local `ln` gives.
    pub fn from_parts(
        n_docs: u64,
        dfs: Vec<u32>,
        okapi: Vec<f64>,
        lucene: Vec<f64>,
    ) -> Result<IdfTable, IdfTableError> {
        let bad = |msg: String| Err(IdfTableError(msg));
        if okapi.len() != dfs.len() || lucene.len() != dfs.len() {
            return bad(format!(
                "{} document frequencies but {} okapi and {} lucene values",
                dfs.len(),
                okapi.len(),
                lucene.len()
            ));
        }
        if let Some(w) = dfs.windows(2).find(|w| w[0] >= w[1]) {
            return bad(format!("document frequencies not ascending at {}", w[1]));
        }
        if let Some(&df) = dfs.iter().find(|&&df| u64::from(df) > n_docs) {
            return bad(format!(
                "document frequency {df} exceeds {n_docs} documents"
            ));
        }
        for (i, &df) in dfs.iter().enumerate() {
            for (stored, local) in [
                (okapi[i], okapi_ln(n_docs, df)),
                (lucene[i], lucene_ln(n_docs, df)),
            ] {
                let close = (stored - local).abs() <= TOLERANCE * local.abs().max(1.0);
                // NaN is never close.
                if !close {
                    return bad(format!(
                        "the logarithm for document frequency {df} is {stored}, not about {local}"
                    ));
                }
            }
        }
        Ok(IdfTable {
            n_docs,
            dfs,
            okapi,
            lucene,
        })
    }

    /// The corpus size the table is for.
    pub fn n_docs(&self) -> u64 {
        self.n_docs
    }

    /// The document frequencies, ascending.
    pub fn dfs(&self) -> &[u32] {
        &self.dfs
    }

    /// Okapi's logarithm per frequency.
    pub fn okapi_values(&self) -> &[f64] {
        &self.okapi
    }

    /// Lucene's logarithm per frequency.
    pub fn lucene_values(&self) -> &[f64] {
        &self.lucene
    }

    /// Okapi's log ratio for `df` in a corpus of `n_docs`: the table's when
    /// it has it, else computed here.
    pub(crate) fn okapi(table: Option<&IdfTable>, n_docs: u64, df: u32) -> f64 {
        Self::lookup(table, n_docs, df, |t| &t.okapi).unwrap_or_else(|| okapi_ln(n_docs, df))
    }

    pub(crate) fn lucene(table: Option<&IdfTable>, n_docs: u64, df: u32) -> f64 {
        Self::lookup(table, n_docs, df, |t| &t.lucene).unwrap_or_else(|| lucene_ln(n_docs, df))
    }

    fn lookup(
        table: Option<&IdfTable>,
        n_docs: u64,
        df: u32,
        values: fn(&IdfTable) -> &Vec<f64>,
    ) -> Option<f64> {
        let table = table.filter(|t| t.n_docs == n_docs)?;
        let at = table.dfs.binary_search(&df).ok()?;
        Some(values(table)[at])
    }
}

/// rank_bm25's `ln(N − df + 0.5) − ln(df + 0.5)`.
fn okapi_ln(n_docs: u64, df: u32) -> f64 {
    let df = u64::from(df).min(n_docs);
    ((n_docs - df) as f64 + 0.5).ln() - (df as f64 + 0.5).ln()
}

/// bm25s' `ln(1 + (N − df + 0.5) / (df + 0.5))`, in float64.
fn lucene_ln(n_docs: u64, df: u32) -> f64 {
    let df = u64::from(df).min(n_docs);
    let ratio = ((n_docs - df) as f64 + 0.5) / (df as f64 + 0.5);
    (1.0 + ratio).ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn computed_tables_are_sorted_deduplicated_and_accepted_back() {
        let t = IdfTable::compute(10, [3, 1, 3, 10]);
        assert_eq!(t.dfs(), [1, 3, 10]);
        assert_eq!(t.okapi_values()[0], 9.5f64.ln() - 1.5f64.ln());
        assert_eq!(t.lucene_values()[2], (1.0 + 0.5 / 10.5f64).ln());
        let back = IdfTable::from_parts(10, t.dfs.clone(), t.okapi.clone(), t.lucene.clone());
        assert_eq!(back, Ok(t));
    }

    #[test]
    fn lookups_fall_back_to_the_local_ln() {
        let t = IdfTable::compute(10, [2]);
        assert_eq!(IdfTable::okapi(Some(&t), 10, 2), t.okapi[0]);
        assert_eq!(IdfTable::okapi(Some(&t), 10, 5), okapi_ln(10, 5));
        // Another corpus size: the table does not apply.
        assert_eq!(IdfTable::lucene(Some(&t), 11, 2), lucene_ln(11, 2));
        assert_eq!(IdfTable::lucene(None, 10, 2), lucene_ln(10, 2));
    }

    #[test]
    fn damaged_tables_are_refused() {
        let t = IdfTable::compute(10, [1, 3]);
        let parts =
            |dfs: Vec<u32>, okapi: Vec<f64>| IdfTable::from_parts(10, dfs, okapi, t.lucene.clone());
        assert!(parts(vec![3, 1], t.okapi.clone()).is_err());
        assert!(parts(vec![1, 11], t.okapi.clone()).is_err());
        assert!(parts(vec![1], vec![t.okapi[0]]).is_err());
        assert!(parts(t.dfs.clone(), vec![t.okapi[0], f64::NAN]).is_err());
        let err = parts(t.dfs.clone(), vec![t.okapi[0], t.okapi[1] + 1e-6]).unwrap_err();
        assert!(err.to_string().contains("document frequency 3"), "{err}");
        // Within the tolerance: accepted (another platform's last bit).
        let nudged = f64::from_bits(t.okapi[1].to_bits() + 1);
        assert!(parts(t.dfs.clone(), vec![t.okapi[0], nudged]).is_ok());
    }
}
