//! Greek acts as paragraph-level JSON Lines (`data/el-nomothesia/`): one
//! folder per act, `<topic>/<act>/articles.jsonl` with a `meta.json` beside
//! it. Each line is one paragraph: `nomothetima_id` (`kok-5209-2025`),
//! `nomothetima` (`Ν. 5209/2025`), `arthro` (article number, `6Α` with a
//! Greek capital), `titlos_arthrou` (heading, may be empty), `paragrafos`
//! (number, empty for text before the numbered paragraphs), `keimeno`.
//!
//! Articles are the unit: consecutive lines of one act and article number,
//! id `{nomothetima_id}::{arthro}`. Each paragraph is written "N. text"
//! ("text" when un-numbered); the article's text is its paragraphs, one a
//! line. The source is the act's short name; acts not extracted from the
//! Government Gazette (ΦΕΚ) itself, which `meta.json` marks by a `pigi_url`
//! other than `file:sources/fek/…`, are private consolidations and say so:
//! `Ν. 2960/2001 (unofficial consolidation)`. No references are resolved.
//! The heading is the title, shown apart from the text, and indexed with
//! it for search ([`Pool::titles_are_headings`]).

#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::Result;
use serde_json::Value;

use super::jsonl::records;
use super::pool::{Article, Pool, SourceFile, SourceInfo, SourceInput};
use super::text_file::TextFile;
use crate::error::bad_input;
use nomos_core::digest::sha256_hex;

/// The paragraph files, one per act.
const ARTICLES: &str = "articles.jsonl";
/// The act's description, beside each paragraph file.
const META: &str = "meta.json";
/// `meta.json`'s `pigi_url` for text extracted from the Government Gazette.
const OFFICIAL_PREFIX: &str = "file:sources/fek/";
/// Appended to the source of acts that are not the official text.
const UNOFFICIAL: &str = " (unofficial consolidation)";

/// Reads every `articles.jsonl` under `dir` (recursively, in path order).
pub fn read_nomothesia(dir: &Path) -> Result<Pool> {
    if !dir.is_dir() {
        return Err(bad_input(format!("{}: not a directory", dir.display())));
    }
    let mut found = Vec::new();
    collect(dir, &mut found)?;
    found.sort();
    if found.is_empty() {
        return Err(bad_input(format!(
            "{}: no {ARTICLES} found (expected <topic>/<act>/{ARTICLES})",
            dir.display()
        )));
    }
    let mut pool = Pool {
        dataset: "el-nomothesia".into(),
        // A Greek act's article headings are enacted with it (printed in
        // the Gazette), so a search for their words should find them.
        titles_are_headings: true,
        ..Pool::default()
    };
    let mut reader = Grouper::default();
    let (mut official, mut unofficial) = (Vec::new(), Vec::new());
    for path in found {
        let act_dir = path.parent().unwrap_or(dir);
        let meta_path = act_dir.join(META);
        if !meta_path.is_file() {
            return Err(bad_input(format!(
                "{}: has {ARTICLES} but no {META}",
                act_dir.display()
            )));
        }
        let meta = std::fs::read(&meta_path)
            .map_err(|e| bad_input(format!("{}: cannot read: {e}", meta_path.display())))?;
        let meta_doc = MetaDoc::parse(&meta_path, &meta)?;
        let is_official = meta_doc.pigi_url.starts_with(OFFICIAL_PREFIX);
        let file = TextFile::read(&path)?;
        let articles = reader.read_act(&file, is_official)?;
        if let Some(first) = articles.first() {
            pool.sources.push(meta_doc.source_input(&first.source));
            let name = first.source.trim_end_matches(UNOFFICIAL).to_string();
            if is_official {
                official.push(name);
            } else {
                unofficial.push(name);
            }
        }
        pool.articles.extend(articles);
        for (p, bytes) in [(&path, file.bytes()), (&meta_path, &meta[..])] {
            pool.files.push(SourceFile {
                name: relative(dir, p),
                sha256: sha256_hex(bytes),
            });
        }
    }
    pool.notes.push(note(&official, &unofficial));
    Ok(pool)
}

/// Every `articles.jsonl` below `dir`.
fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let list_error = |e: std::io::Error| bad_input(format!("{}: cannot list: {e}", dir.display()));
    for entry in std::fs::read_dir(dir).map_err(list_error)? {
        let path = entry.map_err(list_error)?.path();
        if path.is_dir() {
            collect(&path, out)?;
        } else if path.file_name().is_some_and(|n| n == ARTICLES) {
            out.push(path);
        }
    }
    Ok(())
}

/// `path` relative to `root`, with `/` between components.
fn relative(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// What `meta.json` says of an act.
struct MetaDoc {
    /// Where the act's text was taken from.
    pigi_url: String,
    /// The act's title (`titlos`).
    title: String,
    /// Its number as cited (`onoma`, `Ν. 5209/2025`).
    number: String,
    /// The Gazette issue (`fek`, `Α΄100/13-06-2025`), whose date is the act's.
    fek: String,
}

impl MetaDoc {
    fn parse(path: &Path, bytes: &[u8]) -> Result<MetaDoc> {
        let label = path.display().to_string();
        let doc: Value = super::parse_json(&label, bytes)?;
        let field = |name: &str, required: bool| match doc.get(name) {
            Some(Value::String(s)) => Ok(s.trim().to_owned()),
            None | Some(Value::Null) if !required => Ok(String::new()),
            _ => Err(bad_input(format!("{label}: missing string field `{name}`"))),
        };
        Ok(MetaDoc {
            pigi_url: field("pigi_url", true)?,
            title: field("titlos", false)?,
            number: field("onoma", false)?,
            fek: field("fek", false)?,
        })
    }

    /// The act's names for the blob: its source (`Ν. 5209/2025`, marked
    /// when unofficial) as its name, with title, number and the Gazette's
    /// date.
    fn source_input(&self, source: &str) -> SourceInput {
        SourceInput {
            source: source.into(),
            info: SourceInfo {
                name: source.into(),
                title: self.title.clone(),
                aliases: Vec::new(),
                number: self.number.clone(),
                date: fek_date(&self.fek).unwrap_or_default(),
            },
        }
    }
}

/// `Α΄100/13-06-2025` → `2025-06-13`.
fn fek_date(fek: &str) -> Option<String> {
    let (_, date) = fek.rsplit_once('/')?;
    let parts: Vec<&str> = date.split('-').collect();
    let [d, m, y] = parts[..] else { return None };
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    (digits(d, 2) && digits(m, 2) && digits(y, 4)).then(|| format!("{y}-{m}-{d}"))
}

/// The pool's note on which acts are the official text.
fn note(official: &[String], unofficial: &[String]) -> String {
    if unofficial.is_empty() {
        return "Every act is the official text as published in the Government Gazette (ΦΕΚ)."
            .into();
    }
    let mut note = format!(
        "Unofficial consolidations (private editions showing the law as amended, e.g. \
         e-nomothesia.gr; their source is marked \"{}\"): {}.",
        UNOFFICIAL.trim(),
        unofficial.join(", ")
    );
    if !official.is_empty() {
        note.push_str(&format!(
            " The others ({}) are the official text as published in the Government Gazette (ΦΕΚ).",
            official.join(", ")
        ));
    }
    note
}

/// Where an article started and where its last paragraph was.
struct Seen {
    file: String,
    first: usize,
    last: usize,
}

/// Groups paragraphs into articles across all files, remembering every
/// article seen so that one split in two is caught.
#[derive(Default)]
struct Grouper {
    seen: HashMap<String, Seen>,
}

/// An article being assembled.
struct Open {
    id: String,
    title: String,
    source: String,
    paragraphs: Vec<String>,
}

impl Grouper {
    /// The articles of one `articles.jsonl`.
    fn read_act(&mut self, file: &TextFile, official: bool) -> Result<Vec<Article>> {
        let mut articles = Vec::new();
        let mut open: Option<Open> = None;
        for rec in records(file)? {
            let act = rec.string("nomothetima_id")?;
            let name = rec.string("nomothetima")?;
            let number = rec.string("arthro")?;
            let heading = rec.string("titlos_arthrou")?;
            let number_of_paragraph = rec.string("paragrafos")?;
            let text = rec.string("keimeno")?;
            let id = format!("{}::{}", act.trim(), number.trim());
            let heading = heading.trim();

            let continues = open.as_ref().is_some_and(|o| o.id == id);
            if continues {
                let o = open.as_ref().expect("checked above");
                if o.title != heading {
                    let first = self.seen[&id].first;
                    return Err(rec.error(format!(
                        "article {id} has heading \"{heading}\" here but \"{}\" on line {first}",
                        o.title
                    )));
                }
            } else {
                if let Some(seen) = self.seen.get(&id) {
                    return Err(rec.error(format!(
                        "article {id} continues after other articles (it ended at {}:{}); \
                         an article's paragraphs must be consecutive",
                        seen.file, seen.last
                    )));
                }
                articles.extend(open.take().map(finish));
                let mut source = name.trim().to_string();
                if !official {
                    source.push_str(UNOFFICIAL);
                }
                self.seen.insert(
                    id.clone(),
                    Seen {
                        file: file.path.clone(),
                        first: rec.line,
                        last: rec.line,
                    },
                );
                open = Some(Open {
                    id: id.clone(),
                    title: heading.to_string(),
                    source,
                    paragraphs: Vec::new(),
                });
            }
            self.seen.get_mut(&id).expect("inserted above").last = rec.line;
            if let Some(p) = paragraph(&number_of_paragraph, &text) {
                open.as_mut().expect("opened above").paragraphs.push(p);
            }
        }
        articles.extend(open.map(finish));
        Ok(articles)
    }
}

/// A paragraph as shown: "N. text", or the text alone when un-numbered
/// (`None` when that is blank).
fn paragraph(number: &str, text: &str) -> Option<String> {
    let (number, text) = (number.trim(), text.trim());
    if !number.is_empty() {
        Some(format!("{number}. {text}"))
    } else if !text.is_empty() {
        Some(text.to_string())
    } else {
        None
    }
}

fn finish(o: Open) -> Article {
    Article {
        id: o.id,
        title: o.title,
        text: o.paragraphs.join("\n"),
        source: o.source,
        paragraphs: o.paragraphs,
        ..Article::default()
    }
}
