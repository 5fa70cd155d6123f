//! Each article's division path: the book, part, chapter … it stands in,
//! from the headings that open a division's first article ([`layout`]).
//!
//! A heading replaces the division of its kind and clears the deeper ones;
//! the headings that open one article nest in the order they come. Which
//! kind is deeper differs by code (the Code of Civil Procedure puts its
//! titles under chapters, the Code of Criminal Procedure its chapters under
//! sections, the Lawyers' Code its sections under chapters), so a code's
//! own headings decide: where one article opens with two kinds, the first
//! is the outer. Kinds a code never nests follow [`KINDS`].
//!
//! [`layout`]: super::layout

use std::collections::HashMap;

use super::layout::{Heading, KINDS};

/// The path of each article, outermost first, given the headings that
/// open each article of one code, in file order.
pub fn paths(runs: &[Vec<Heading>]) -> Vec<Vec<String>> {
    let order = Order::of(runs);
    let mut path: Vec<&Heading> = Vec::new();
    runs.iter()
        .map(|run| {
            for (i, heading) in run.iter().enumerate() {
                let keep = if i > 0 {
                    path.len()
                } else if let Some(at) = path.iter().position(|p| p.kind == heading.kind) {
                    at
                } else {
                    path.iter()
                        .rposition(|p| order.above(p.kind, heading.kind))
                        .map_or(0, |at| at + 1)
                };
                path.truncate(keep);
                path.push(heading);
            }
            path.iter().map(|h| h.text.clone()).collect()
        })
        .collect()
}

/// How often one kind heads another in the same article's headings.
struct Order(HashMap<(&'static str, &'static str), usize>);

impl Order {
    fn of(runs: &[Vec<Heading>]) -> Order {
        let mut votes = HashMap::new();
        for run in runs {
            for (i, outer) in run.iter().enumerate() {
                for inner in &run[i + 1..] {
                    *votes.entry((outer.kind, inner.kind)).or_insert(0) += 1;
                }
            }
        }
        Order(votes)
    }

    /// Is a division of kind `a` outside one of kind `b`?
    fn above(&self, a: &str, b: &str) -> bool {
        let votes = |x: &str, y: &str| {
            self.0
                .iter()
                .find(|((p, q), _)| *p == x && *q == y)
                .map_or(0, |(_, &n)| n)
        };
        let (down, up) = (votes(a, b), votes(b, a));
        if down != up {
            return down > up;
        }
        let rank = |k: &str| KINDS.iter().position(|&x| x == k);
        rank(a) < rank(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(headings: &[(&'static str, &str)]) -> Vec<Heading> {
        headings
            .iter()
            .map(|&(kind, text)| Heading {
                kind,
                text: text.into(),
            })
            .collect()
    }

    #[test]
    fn a_heading_replaces_its_level_and_clears_the_deeper_ones() {
        let runs = [
            run(&[("βιβλιο", "Β1"), ("κεφαλαιο", "Κ1")]),
            run(&[]),
            run(&[("κεφαλαιο", "Κ2")]),
            run(&[("βιβλιο", "Β2")]),
        ];
        assert_eq!(
            paths(&runs),
            [
                vec!["Β1", "Κ1"],
                vec!["Β1", "Κ1"],
                vec!["Β1", "Κ2"],
                vec!["Β2"]
            ]
        );
    }

    #[test]
    fn a_code_s_own_nesting_beats_the_usual_order() {
        // Titles under chapters, as in the Code of Civil Procedure: a new
        // title stays in its chapter, a new chapter clears the title.
        let runs = [
            run(&[("κεφαλαιο", "Κ12"), ("τιτλοσ", "Τ1")]),
            run(&[("τιτλοσ", "Τ2")]),
            run(&[("κεφαλαιο", "Κ13")]),
            run(&[("τιτλοσ", "Τ9")]),
        ];
        assert_eq!(
            paths(&runs),
            [
                vec!["Κ12", "Τ1"],
                vec!["Κ12", "Τ2"],
                vec!["Κ13"],
                vec!["Κ13", "Τ9"]
            ]
        );
        // Without that evidence a title is outside a chapter.
        let runs = [run(&[("κεφαλαιο", "Κ1")]), run(&[("τιτλοσ", "Τ1")])];
        assert_eq!(paths(&runs), [vec!["Κ1"], vec!["Τ1"]]);
    }
}
