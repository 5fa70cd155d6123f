//! The Greek codes as exported from ΙΣΟΚΡΑΤΗΣ, the Athens Bar's legal
//! database (`../shared/data/el-codes/`, one `.txt` file per code).
//!
//! One document per article, id `PREFIX::NUMBER` as GreekBarRetrieval
//! writes it (`AK::914`, `KPolD::338`; the number as printed, `1017Α` with
//! its letter; [`codes`] lists the prefixes). Where a number repeats, the
//! version with the latest `Ημ/νία` is the one in force and the only one
//! read. The heading is the title, enacted with the code and so searched
//! ([`Dataset::titles_are_headings`]); the text is unwrapped into paragraphs
//! without the division headings that open a division's first article
//! ([`layout`]), which become the path shown above every article of the
//! division ([`divisions`]); each article keeps its version's date. The editorial layer never leaves [`records`]. Citations
//! in the text become the article's explicit references ([`refs`]).
//!
//! Two pools: the lawyer's (`--format el-codes`: the codes in force) and
//! the historical one (`--format el-codes-historical`: the repealed 1951
//! Penal Code and bankruptcy code ν. 3588/2007). Each says in its notes
//! which files it leaves out and why; a file the reader does not know is
//! an error.

mod codes;
mod divisions;
mod layout;
mod marks;
mod records;
mod refs;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::path::Path;

use anyhow::Result;

use super::dataset::{Article, Dataset, SourceFile, SourceInfo, SourceInput};
use super::text_file::TextFile;
use crate::error::bad_input;
use codes::{Code, Status};
use nomos_core::digest::sha256_hex;

/// The lawyer's pool: the codes in force.
pub fn read_el_codes(dir: &Path) -> Result<Dataset> {
    read(dir, Status::Current)
}

/// The repealed codes, as a pool labelled historical.
pub fn read_el_codes_historical(dir: &Path) -> Result<Dataset> {
    read(dir, Status::Historical)
}

/// An article of one code, before its citations are resolved.
struct Entry {
    source: usize,
    number: String,
    heading: String,
    paragraphs: Vec<String>,
    /// The divisions it stands in, outermost first.
    path: Vec<String>,
    /// Its version's date, `YYYY-MM-DD`.
    date: String,
}

fn read(dir: &Path, wanted: Status) -> Result<Dataset> {
    if !dir.is_dir() {
        return Err(bad_input(format!("{}: not a directory", dir.display())));
    }
    let list_error = |e: std::io::Error| bad_input(format!("{}: cannot list: {e}", dir.display()));
    let mut names: Vec<String> = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(list_error)? {
        let path = entry.map_err(list_error)?.path();
        if path.extension().is_some_and(|e| e == "txt") {
            names.push(
                path.file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned(),
            );
        }
    }
    names.sort();
    let historical = wanted == Status::Historical;
    let mut pool = Dataset {
        dataset: if historical {
            "el-codes-historical"
        } else {
            "el-codes"
        }
        .into(),
        titles_are_headings: true,
        ..Dataset::default()
    };
    let mut entries: Vec<Entry> = Vec::new();
    let mut left_out: Vec<String> = Vec::new();
    let mut without_text: Vec<String> = Vec::new();
    for name in &names {
        let path = dir.join(name);
        let code = codes::by_file(name).ok_or_else(|| {
            bad_input(format!(
                "{}: not a file of the ΙΣΟΚΡΑΤΗΣ export this reader knows (docs/el-codes.md \
                 lists them)",
                path.display()
            ))
        })?;
        match code.status {
            Status::Refused(why) => {
                left_out.push(format!("{name} (not read: {why})"));
                continue;
            }
            status if status != wanted => {
                left_out.push(format!(
                    "{name} ({})",
                    if historical {
                        "in force"
                    } else {
                        "repealed: in the historical pool"
                    }
                ));
                continue;
            }
            _ => {}
        }
        let file = TextFile::read(&path)?;
        let label = path.display().to_string();
        let source = pool.sources.len();
        let (read, empty) = articles(&label, file.text()?, source)?;
        without_text.extend(empty.into_iter().map(|n| format!("{}::{n}", code.prefix)));
        entries.extend(read);
        pool.sources.push(source_input(code));
        pool.files.push(SourceFile {
            name: name.clone(),
            sha256: sha256_hex(file.bytes()),
        });
    }
    if pool.sources.is_empty() {
        return Err(bad_input(format!(
            "{}: none of the ΙΣΟΚΡΑΤΗΣ export's files for this pool",
            dir.display()
        )));
    }
    for line in &left_out {
        eprintln!("note: el-codes: left out {line}");
    }
    pool.articles = resolve(&pool.sources, entries);
    pool.notes = notes(historical, &left_out, &without_text);
    Ok(pool)
}

/// One file's articles in force, in file order, and the numbers whose
/// version in force has no text.
fn articles(label: &str, text: &str, source: usize) -> Result<(Vec<Entry>, Vec<String>)> {
    let all = records::records(label, text)?;
    // The version in force: the latest date, the later block on a tie.
    let mut latest: HashMap<&str, usize> = HashMap::new();
    let mut order: Vec<&str> = Vec::new();
    for (i, r) in all.iter().enumerate() {
        match latest.get(r.number.as_str()) {
            Some(&j) if all[j].date > r.date => {}
            Some(_) => {
                latest.insert(&r.number, i);
            }
            None => {
                latest.insert(&r.number, i);
                order.push(&r.number);
            }
        }
    }
    let mut entries = Vec::new();
    let mut runs = Vec::new();
    let mut empty = Vec::new();
    for number in order {
        let r = &all[latest[number]];
        let lines: Vec<&str> = r.body.iter().flatten().map(|(_, l)| l.as_str()).collect();
        let laid = layout::lay_out(&lines);
        runs.push(laid.headings);
        if laid.paragraphs.is_empty() {
            empty.push(number.to_string());
            entries.push(None);
            continue;
        }
        entries.push(Some(Entry {
            source,
            number: number.to_string(),
            heading: r.heading.clone(),
            paragraphs: laid.paragraphs,
            path: Vec::new(),
            date: r.date.clone(),
        }));
    }
    // An article without text may still open a division.
    let entries = entries
        .into_iter()
        .zip(divisions::paths(&runs))
        .filter_map(|(entry, path)| entry.map(|e| Entry { path, ..e }))
        .collect();
    Ok((entries, empty))
}

/// The blob's names for a code: the citation parser reads them.
fn source_input(code: &Code) -> SourceInput {
    SourceInput {
        source: code.prefix.into(),
        info: SourceInfo {
            name: code.name.into(),
            title: code.name.into(),
            aliases: code.aliases.iter().map(|a| a.to_string()).collect(),
            number: code.number.into(),
            date: String::new(),
        },
    }
}

/// The articles with their citations resolved.
fn resolve(sources: &[SourceInput], entries: Vec<Entry>) -> Vec<Article> {
    let keys: Vec<(usize, &str)> = entries
        .iter()
        .map(|e| (e.source, e.number.as_str()))
        .collect();
    let resolver = refs::Resolver::new(sources, &keys);
    let id = |e: &Entry| format!("{}::{}", sources[e.source].source, e.number);
    entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let text = e.paragraphs.join("\n");
            let (cited, _) = resolver.cited(&text, e.source);
            Article {
                id: id(e),
                title: e.heading.clone(),
                source: sources[e.source].source.clone(),
                paragraphs: e.paragraphs.clone(),
                explicit_refs: cited
                    .into_iter()
                    .filter(|&j| j != i)
                    .map(|j| id(&entries[j]))
                    .collect(),
                text,
                path: e.path.clone(),
                version_date: Some(e.date.clone()),
                ..Article::default()
            }
        })
        .collect()
}

/// What the pool is, said plainly: how current it is, what it leaves out.
fn notes(historical: bool, left_out: &[String], without_text: &[String]) -> Vec<String> {
    let mut notes = vec![if historical {
        "HISTORICAL: repealed codes, not law in force: the 1951 Penal Code (replaced by ν. \
         4619/2019) and the bankruptcy code ν. 3588/2007 (replaced by ν. 4738/2020)."
            .to_string()
    } else {
        "Consolidated codes exported from ΙΣΟΚΡΑΤΗΣ (Athens Bar), versions of 2016–2020, each \
         article as its latest version: older than today's law in places. The Code of Civil \
         Procedure is before ν. 4842/2021; the Code of Criminal Procedure is ν. 4620/2019 as \
         enacted. The repealed 1951 Penal Code and bankruptcy code ν. 3588/2007 are not here."
            .to_string()
    }];
    if !left_out.is_empty() {
        notes.push(format!("Files left out: {}.", left_out.join("; ")));
    }
    if !without_text.is_empty() {
        notes.push(format!(
            "{} articles have no text in the export (repealed, or left out by the database, which \
             says so only in its editorial notes) and are not in the pool: {}.",
            without_text.len(),
            without_text.join(", ")
        ));
    }
    notes
}
