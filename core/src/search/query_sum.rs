//! A document's BM25 sum over a query whose terms repeat, anywhere in it,
//! in the time of its distinct terms: each term's contribution is
//! computed once, and combined per document, bit for bit as the
//! references add one occurrence after another in query order.
//!
//! A term a document lacks adds nothing to its sum (the scorers only
//! visit postings), so a document's additions are the query's runs of
//! the terms it has, in order, with the runs between them dropped: a
//! document with one of the terms adds its contribution as many times as
//! the query has it ([`add_repeated`], in the time of the binades it
//! crosses); `a b a b …` costs a step a run only for documents with both,
//! and documents that repeat another's contributions reuse its sum.

use std::collections::HashMap;

use super::repeated_add::{add_repeated, Precision};

/// A query as its distinct terms, in first-seen order, and its runs over
/// them.
pub(crate) struct QueryTerms<T> {
    pub distinct: Vec<T>,
    /// (index into `distinct`, occurrences in a row), in query order.
    runs: Vec<(usize, u64)>,
    /// Each distinct term's occurrences in the whole query.
    totals: Vec<u64>,
}

impl<T: PartialEq> QueryTerms<T> {
    pub fn of(items: impl IntoIterator<Item = T>) -> Self {
        let mut terms = QueryTerms {
            distinct: Vec::new(),
            runs: Vec::new(),
            totals: Vec::new(),
        };
        for item in items {
            let at = match terms.distinct.iter().position(|d| *d == item) {
                Some(at) => at,
                None => {
                    terms.distinct.push(item);
                    terms.totals.push(0);
                    terms.distinct.len() - 1
                }
            };
            terms.totals[at] += 1;
            match terms.runs.last_mut() {
                Some((last, count)) if *last == at => *count += 1,
                _ => terms.runs.push((at, 1)),
            }
        }
        terms
    }
}

impl<T> QueryTerms<T> {
    /// Sums documents' contributions, remembering the sums of documents
    /// with several terms.
    pub fn summer(&self, precision: Precision) -> Summer<'_, T> {
        Summer {
            terms: self,
            precision,
            seen: HashMap::new(),
            key: Vec::new(),
            values: vec![None; self.distinct.len()],
        }
    }
}

pub(crate) struct Summer<'a, T> {
    terms: &'a QueryTerms<T>,
    precision: Precision,
    /// Sums by the (term, contribution bits) a document has.
    seen: HashMap<Vec<(usize, u64)>, f64>,
    key: Vec<(usize, u64)>,
    /// Scratch: each distinct term's contribution to the current document.
    values: Vec<Option<f64>>,
}

impl<T> Summer<'_, T> {
    /// The sum of one document whose contribution from each term it has is
    /// `contributions` (index into `distinct`, one occurrence's value),
    /// each term once: each occurrence added in query order.
    pub fn sum(&mut self, contributions: &[(usize, f64)]) -> f64 {
        if let [(term, value)] = contributions {
            return add_repeated(0.0, *value, self.terms.totals[*term], self.precision);
        }
        self.key.clear();
        self.key
            .extend(contributions.iter().map(|&(t, v)| (t, v.to_bits())));
        self.key.sort_unstable();
        if let Some(&sum) = self.seen.get(self.key.as_slice()) {
            return sum;
        }
        for &(term, value) in contributions {
            self.values[term] = Some(value);
        }
        let mut sum = 0.0;
        // The run being added: runs of one term with only absent terms
        // between them add as one.
        let mut pending: Option<(f64, u64)> = None;
        for &(term, count) in &self.terms.runs {
            let Some(value) = self.values[term] else {
                continue;
            };
            pending = match pending {
                Some((v, n)) if v.to_bits() == value.to_bits() => Some((v, n + count)),
                Some((v, n)) => {
                    sum = add_repeated(sum, v, n, self.precision);
                    Some((value, count))
                }
                None => Some((value, count)),
            };
        }
        if let Some((v, n)) = pending {
            sum = add_repeated(sum, v, n, self.precision);
        }
        for &(term, _) in contributions {
            self.values[term] = None;
        }
        self.seen.insert(self.key.clone(), sum);
        sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The references' way: one rounded addition per occurrence of a
    /// term the document has.
    fn one_by_one(query: &[usize], values: &[Option<f64>], precision: Precision) -> f64 {
        query
            .iter()
            .filter_map(|&t| values[t])
            .fold(0.0, |s, v| precision.add(s, v))
    }

    #[test]
    fn sums_are_those_of_adding_each_occurrence_in_order() {
        // A small deterministic generator: queries of 3 terms with runs
        // and alternations, documents with any subset of them.
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for precision in [Precision::F64, Precision::F32] {
            for _ in 0..200 {
                let len = 1 + (next() % 300) as usize;
                let query: Vec<usize> = (0..len)
                    .map(|_| match next() % 10 {
                        0..=5 => 0,
                        6..=8 => 1,
                        _ => 2,
                    })
                    .collect();
                let terms = QueryTerms::of(query.iter().copied());
                let mut summer = terms.summer(precision);
                for mask in 1..8u32 {
                    let mut values = vec![None; 3];
                    let mut contributions = Vec::new();
                    for (t, &term) in terms.distinct.iter().enumerate() {
                        if mask & (1 << term) != 0 {
                            let v = (next() % 1_000_000) as f64 / 997.0 + 0.001;
                            let v = match precision {
                                Precision::F64 => v,
                                Precision::F32 => f64::from(v as f32),
                            };
                            values[term] = Some(v);
                            contributions.push((t, v));
                        }
                    }
                    if contributions.is_empty() {
                        continue;
                    }
                    let expected = one_by_one(&query, &values, precision);
                    let got = summer.sum(&contributions);
                    assert_eq!(
                        got.to_bits(),
                        expected.to_bits(),
                        "{precision:?} {query:?} {values:?}"
                    );
                    // Remembered: the same contributions again.
                    assert_eq!(summer.sum(&contributions).to_bits(), expected.to_bits());
                }
            }
        }
    }
}
