//! Where a subset's files sit in a downloaded Hugging Face dataset repo.
//!
//! The GBR hub layout is unverified (see the reference BENCHMARKS.md §1.2), so every
//! layout `datasets` produces or reads is accepted. For a subset `S`, the
//! first of these locations that holds table files wins:
//!
//! 1. directory `S/` (`push_to_hub` with a config name:
//!    `S/test-00000-of-00001.parquet`; MTEB: `qrels/test.tsv`), then
//!    `S/test/` (the hub's Parquet conversion: `S/test/0000.parquet`);
//! 2. directory `data/S/`;
//! 3. files `data/S.EXT` or `data/S-*.EXT` (`data/corpus-00000-of-00001.parquet`);
//! 4. files `S.EXT` or `S-*.EXT` at the top (`corpus.jsonl`, `corpus.csv`).
//!
//! Within a location only one format is used, the first present of Parquet,
//! JSONL, CSV, TSV; inside a directory, if some file names start with
//! `test` (the only split GBR has) only those are kept. Shards are read in
//! name order, which is the hub's shard order.

use std::path::Path;

use anyhow::Result;

use crate::error::bad_input;
use crate::sources::tabular::Format;

/// The files (relative to `dir`, `/`-separated) holding `subset`, or `None`
/// when no location has any.
pub fn find_subset(dir: &Path, subset: &str) -> Result<Option<Vec<String>>> {
    let locations = [
        (subset.to_string(), Selection::SplitFiles),
        (format!("{subset}/test"), Selection::SplitFiles),
        (format!("data/{subset}"), Selection::SplitFiles),
        ("data".to_string(), Selection::Named(subset)),
        (String::new(), Selection::Named(subset)),
    ];
    for (sub, selection) in locations {
        let names = table_files(dir, &sub)?;
        let picked = selection.pick(names);
        if let Some(files) = one_format(picked) {
            return Ok(Some(
                files
                    .into_iter()
                    .map(|f| {
                        if sub.is_empty() {
                            f
                        } else {
                            format!("{sub}/{f}")
                        }
                    })
                    .collect(),
            ));
        }
    }
    Ok(None)
}

/// Which files of a location belong to the subset.
#[derive(Clone, Copy)]
enum Selection<'a> {
    /// A directory dedicated to the subset: its `test*` files if any, else all.
    SplitFiles,
    /// A shared directory: files named `S.EXT` or `S-*.EXT`.
    Named(&'a str),
}

impl Selection<'_> {
    fn pick(self, names: Vec<String>) -> Vec<String> {
        match self {
            Selection::SplitFiles => {
                let test: Vec<String> = names
                    .iter()
                    .filter(|n| n.starts_with("test"))
                    .cloned()
                    .collect();
                if test.is_empty() {
                    names
                } else {
                    test
                }
            }
            Selection::Named(subset) => names
                .into_iter()
                .filter(|n| {
                    n.strip_prefix(subset)
                        .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('-'))
                })
                .collect(),
        }
    }
}

/// Names of the table files (known extension, not hidden) directly in
/// `dir/sub`, sorted; empty if that directory does not exist.
fn table_files(dir: &Path, sub: &str) -> Result<Vec<String>> {
    let path = if sub.is_empty() {
        dir.to_path_buf()
    } else {
        dir.join(sub)
    };
    if !path.is_dir() {
        return Ok(Vec::new());
    }
    let entries = std::fs::read_dir(&path)
        .map_err(|e| bad_input(format!("{}: cannot list: {e}", path.display())))?;
    let mut names = Vec::new();
    for entry in entries {
        let entry =
            entry.map_err(|e| bad_input(format!("{}: cannot list: {e}", path.display())))?;
        let is_file = entry.file_type().is_ok_and(|t| t.is_file());
        if let (true, Some(name)) = (is_file, entry.file_name().to_str()) {
            if !name.starts_with('.') && Format::of(name).is_some() {
                names.push(name.to_string());
            }
        }
    }
    names.sort();
    Ok(names)
}

/// The files of the first format (in preference order) present, if any.
fn one_format(names: Vec<String>) -> Option<Vec<String>> {
    Format::ALL.into_iter().find_map(|format| {
        let files: Vec<String> = names
            .iter()
            .filter(|n| Format::of(n) == Some(format))
            .cloned()
            .collect();
        (!files.is_empty()).then_some(files)
    })
}
