//! Which definitions each article uses: the terms its own document defines
//! (a definition's scope is its document), found as [`crate::terms`] finds
//! them, outside the stykker that define them. One place for the context
//! field's definition lines and the blob's definition edges.

use std::collections::{HashMap, HashSet};

use crate::sources::dataset::Dataset;
use crate::terms::Term;

/// For each article of `pool`, the indexes into `pool.definitions` of the
/// terms it uses, in the definitions' order; a term its document defines
/// twice counts with its first definition.
pub fn definitions_used(pool: &Dataset) -> Vec<Vec<usize>> {
    let mut terms: HashMap<&str, Vec<(Term, usize)>> = HashMap::new();
    let mut seen = HashSet::new();
    for (d, def) in pool.definitions.iter().enumerate() {
        if !seen.insert((def.source.as_str(), def.term.to_lowercase())) {
            continue;
        }
        if let Some(term) = Term::new(&def.term) {
            terms
                .entry(def.source.as_str())
                .or_default()
                .push((term, d));
        }
    }
    pool.articles
        .iter()
        .map(|a| {
            terms
                .get(a.source.as_str())
                .into_iter()
                .flatten()
                .filter(|(term, d)| {
                    !pool.definitions[*d].defined_in.contains(&a.id)
                        && !term.find(&a.text).is_empty()
                })
                .map(|(_, d)| *d)
                .collect()
        })
        .collect()
}

/// Gives each article of `pool` an edge to the stykker defining the terms
/// it uses (`definition_refs`, without repeats), so that `prop` can
/// propagate along them; a pool without definitions is left as it is.
pub fn add_definition_edges(pool: &mut Dataset) {
    if pool.definitions.is_empty() {
        return;
    }
    let used = definitions_used(pool);
    for (a, used) in pool.articles.iter_mut().zip(used) {
        for d in used {
            for id in &pool.definitions[d].defined_in {
                if !a.definition_refs.contains(id) {
                    a.definition_refs.push(id.clone());
                }
            }
        }
    }
}
