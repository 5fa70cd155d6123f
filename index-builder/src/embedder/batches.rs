//! Which passages run through the model together. A run pads every row
//! to its longest, so texts are taken shortest first and packed up to a
//! number of rows (windows); the model is batch-invariant, so only speed
//! changes (docs/benchmarks/scale.md, "Embedding cost at scale", has the measured
//! gain).

/// Runs over texts of `(tokens, rows)`: each run's text indices, shortest
/// first, at most `max_rows` rows a run (a text with more rows runs
/// alone), every text in exactly one run. Ties keep the texts' order.
pub fn plan(texts: &[(usize, usize)], max_rows: usize) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..texts.len()).collect();
    order.sort_by_key(|&i| texts[i].0);
    let mut runs: Vec<Vec<usize>> = Vec::new();
    let mut rows = 0;
    for i in order {
        let r = texts[i].1;
        match runs.last_mut() {
            Some(run) if rows + r <= max_rows => {
                run.push(i);
                rows += r;
            }
            _ => {
                runs.push(vec![i]);
                rows = r;
            }
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::plan;

    #[test]
    fn packs_shortest_first_up_to_the_rows() {
        let texts = [(50, 1), (10, 1), (600, 2), (30, 1), (20, 1)];
        assert_eq!(plan(&texts, 3), vec![vec![1, 4, 3], vec![0, 2]]);
        assert_eq!(plan(&texts, 2), vec![vec![1, 4], vec![3, 0], vec![2]]);
        assert_eq!(plan(&texts, 8), vec![vec![1, 4, 3, 0, 2]]);
    }

    #[test]
    fn one_row_runs_each_text_alone_and_a_long_text_runs_alone() {
        let texts = [(900, 4), (10, 1), (10, 1)];
        assert_eq!(plan(&texts, 1), vec![vec![1], vec![2], vec![0]]);
        assert_eq!(plan(&texts, 2), vec![vec![1, 2], vec![0]]);
        assert!(plan(&[], 8).is_empty());
    }
}
