//! The k1 × b sweep: a grid of BM25 parameters, each cell a whole
//! evaluation of one measure (Recall@100 by default).

use nomos_core::order::sort_by;

/// Most values per axis: 12 × 12 cells is already a long wait.
pub const MAX_VALUES: usize = 12;

/// The default grid, 8 × 6, through the usual defaults (k1 = 1.5,
/// b = 0.75) and both ends of b.
pub const DEFAULT_K1: [f64; 8] = [0.4, 0.8, 1.2, 1.5, 1.8, 2.2, 2.6, 3.0];
pub const DEFAULT_B: [f64; 6] = [0.0, 0.2, 0.4, 0.6, 0.75, 1.0];

/// A grid's axes: rows are k1 values, columns b values.
#[derive(Debug, Clone, PartialEq)]
pub struct Grid {
    pub k1: Vec<f64>,
    pub b: Vec<f64>,
}

impl Default for Grid {
    fn default() -> Self {
        Grid {
            k1: DEFAULT_K1.to_vec(),
            b: DEFAULT_B.to_vec(),
        }
    }
}

impl Grid {
    pub fn cells(&self) -> usize {
        self.k1.len() * self.b.len()
    }

    /// The (k1, b) of cell `i`, row by row.
    pub fn cell(&self, i: usize) -> (f64, f64) {
        (self.k1[i / self.b.len()], self.b[i % self.b.len()])
    }
}

/// Parses a comma- or space-separated list of values in `min..=max`,
/// sorted and without repeats.
pub fn parse_axis(text: &str, name: &str, min: f64, max: f64) -> Result<Vec<f64>, String> {
    let mut values = Vec::new();
    for part in text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|p| !p.is_empty())
    {
        let v: f64 = part
            .parse()
            .map_err(|_| format!("{name}: “{part}” is not a number"))?;
        if !(min..=max).contains(&v) {
            return Err(format!("{name}: {v} is outside {min}–{max}"));
        }
        values.push(v);
    }
    sort_by(&mut values, f64::total_cmp);
    values.dedup();
    if values.is_empty() {
        return Err(format!("{name}: give at least one value"));
    }
    if values.len() > MAX_VALUES {
        return Err(format!("{name}: at most {MAX_VALUES} values"));
    }
    Ok(values)
}

/// An axis as the form shows it: `0.4, 0.8, 1.2`.
pub fn format_axis(values: &[f64]) -> String {
    values
        .iter()
        .map(f64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The cell with the highest value (the first, in grid order, on a tie).
pub fn best(values: &[Option<f64>]) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (i, v) in values.iter().enumerate() {
        if let Some(v) = *v {
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((i, v));
            }
        }
    }
    best.map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_parse_sorted_deduplicated_and_bounded() {
        assert_eq!(
            parse_axis("1.2, 0.4 0.4,,3", "k1", 0.0, 3.0),
            Ok(vec![0.4, 1.2, 3.0])
        );
        assert!(parse_axis("", "b", 0.0, 1.0).is_err());
        assert!(parse_axis("0.5, x", "b", 0.0, 1.0)
            .unwrap_err()
            .contains("“x”"));
        assert!(parse_axis("1.5", "b", 0.0, 1.0)
            .unwrap_err()
            .contains("outside"));
        let many = (0..13)
            .map(|i| (f64::from(i) / 10.0).to_string())
            .collect::<Vec<_>>();
        assert!(parse_axis(&many.join(","), "k1", 0.0, 3.0).is_err());
    }

    #[test]
    fn the_default_grid_is_8_by_6_through_the_defaults() {
        let g = Grid::default();
        assert_eq!(g.cells(), 48);
        assert!(g.k1.contains(&1.5) && g.b.contains(&0.75));
        assert_eq!(g.cell(0), (0.4, 0.0));
        assert_eq!(g.cell(7), (0.8, 0.2));
        assert_eq!(parse_axis(&format_axis(&g.k1), "k1", 0.0, 3.0), Ok(g.k1));
    }

    #[test]
    fn best_is_the_first_highest_cell() {
        assert_eq!(best(&[None, Some(0.5), Some(0.7), Some(0.7)]), Some(2));
        assert_eq!(best(&[None, None]), None);
    }
}
