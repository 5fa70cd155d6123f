//! The Greek Constitution as scraped from lawspot.gr
//! (`../shared/data/el-syntagma/syntagma.json`): a JSON array of `{title
//! "Άρθρο N - Σύνταγμα της Ελλάδος - <heading>", link, date, content[<p>
//! strings]}`, one entry per article.
//!
//! Articles are the unit, with GBR's prefix: `Syntagma::N`, N as the title
//! writes it, so the four inserted articles keep their Greek capital alpha
//! (`Syntagma::5Α`, U+0391, not Latin A). Content items that start "N. " are
//! the numbered paragraphs; un-numbered items (continuation sub-paragraphs,
//! lists "α) …") are merged into the preceding numbered paragraph, one line
//! each. `explicit_refs` are the other articles the text cites ([`refs`]), in
//! constitution order; there are no implicit (sibling) refs. The headings
//! are lawspot's, not enacted: the titles are editorial (indexed apart).

mod refs;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::path::Path;

use anyhow::Result;
use serde_json::Value;

use super::dataset::{Article, Dataset, SourceFile, SourceInfo, SourceInput};
use crate::error::bad_input;
use nomos_core::digest::sha256_hex;
use refs::{references, Target};

/// GBR's prefix for the Constitution.
const PREFIX: &str = "Syntagma";

/// Reads `syntagma.json`, or a directory holding it.
pub fn read_syntagma(path_or_dir: &Path) -> Result<Dataset> {
    let path = if path_or_dir.is_dir() {
        path_or_dir.join("syntagma.json")
    } else {
        path_or_dir.to_path_buf()
    };
    let bytes = std::fs::read(&path)
        .map_err(|e| bad_input(format!("{}: cannot read: {e}", path.display())))?;
    let articles = parse(&path.display().to_string(), &bytes)?;
    let name = path.file_name().map_or_else(
        || "syntagma.json".into(),
        |n| n.to_string_lossy().into_owned(),
    );
    Ok(Dataset {
        dataset: "el-syntagma".into(),
        articles,
        // Its other names (`Σ`, `Συντάγματος`) are the citation parser's
        // (`nomos_core::cite`), which knows them for GBR's prefix.
        sources: vec![SourceInput {
            source: PREFIX.into(),
            info: SourceInfo {
                name: "Σύνταγμα".into(),
                title: "Σύνταγμα της Ελλάδος".into(),
                ..SourceInfo::default()
            },
        }],
        files: vec![SourceFile {
            name,
            sha256: sha256_hex(&bytes),
        }],
        // lawspot's headings, not the Constitution's.
        titles_are_editorial: true,
        ..Dataset::default()
    })
}

/// One article before its references are resolved.
struct Entry {
    number: String,
    heading: String,
    paragraphs: Vec<String>,
}

/// Parses the JSON array into articles (`label` names the file in errors).
fn parse(label: &str, bytes: &[u8]) -> Result<Vec<Article>> {
    let doc: Value = super::parse_json(label, bytes)?;
    let items = doc
        .as_array()
        .ok_or_else(|| bad_input(format!("{label}: expected a JSON array of articles")))?;
    let mut entries = Vec::with_capacity(items.len());
    let mut position: HashMap<String, usize> = HashMap::new();
    for (i, item) in items.iter().enumerate() {
        let entry =
            entry(item).map_err(|msg| bad_input(format!("{label}: entry {}: {msg}", i + 1)))?;
        if position.insert(entry.number.clone(), i).is_some() {
            return Err(bad_input(format!(
                "{label}: entry {}: article {} appears twice",
                i + 1,
                entry.number
            )));
        }
        entries.push(entry);
    }
    let id = |i: usize| format!("{PREFIX}::{}", entries[i].number);
    let articles = (0..entries.len())
        .map(|i| {
            let e = &entries[i];
            let text = e.paragraphs.join("\n");
            let mut cited: Vec<usize> = references(&text)
                .into_iter()
                .flat_map(|t| resolve(&t, i, &position, entries.len()))
                .filter(|&j| j != i)
                .collect();
            cited.sort_unstable();
            cited.dedup();
            Article {
                id: id(i),
                title: e.heading.clone(),
                text,
                source: PREFIX.into(),
                paragraphs: e.paragraphs.clone(),
                explicit_refs: cited.into_iter().map(id).collect(),
                ..Article::default()
            }
        })
        .collect();
    Ok(articles)
}

/// Reads one array item: its number and heading from the title, its
/// paragraphs from the content.
fn entry(item: &Value) -> std::result::Result<Entry, String> {
    let title = match item.get("title") {
        Some(Value::String(s)) => s.trim(),
        Some(_) => return Err("field `title` must be a string".into()),
        None => return Err("missing field `title`".into()),
    };
    let content = match item.get("content") {
        Some(Value::Array(c)) => c,
        Some(_) => return Err("field `content` must be a list".into()),
        None => return Err("missing field `content`".into()),
    };
    let (number, heading) = split_title(title)
        .ok_or_else(|| format!("title \"{title}\" is not \"Άρθρο N - … - heading\""))?;
    let mut paragraphs: Vec<String> = Vec::new();
    for (k, p) in content.iter().enumerate() {
        let p = p
            .as_str()
            .ok_or_else(|| format!("content item {} must be a string", k + 1))?
            .trim();
        if p.is_empty() {
            continue;
        }
        match paragraphs.last_mut() {
            Some(last) if !is_numbered(p) => {
                last.push('\n');
                last.push_str(p);
            }
            _ => paragraphs.push(p.to_string()),
        }
    }
    if paragraphs.is_empty() {
        return Err(format!("article {number} has no text"));
    }
    Ok(Entry {
        number,
        heading,
        paragraphs,
    })
}

/// "Άρθρο 5Α - Σύνταγμα της Ελλάδος - Δικαίωμα στην πληροφόρηση" gives
/// ("5Α", "Δικαίωμα στην πληροφόρηση"). The heading is everything after the
/// constitution's name, since two headings contain " - " themselves (art. 84
/// "Εμπιστοσύνη της Βουλής - αρχή της δεδηλωμένης"); art. 39 (repealed) has
/// none and is titled "Άρθρο 39".
fn split_title(title: &str) -> Option<(String, String)> {
    let mut parts = title.splitn(3, " - ");
    let label = parts.next()?.trim();
    let number = label.strip_prefix("Άρθρο")?.trim();
    let digits = number.len()
        - number
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .len();
    let mut rest = number[digits..].chars();
    let valid_suffix = match (rest.next(), rest.next()) {
        (None, _) => true,
        (Some(c), None) => c.is_uppercase(),
        _ => false,
    };
    if digits == 0 || !valid_suffix {
        return None;
    }
    let heading = match (parts.next(), parts.next()) {
        (_, Some(h)) if !h.trim().is_empty() => h.trim().to_string(),
        _ => label.to_string(),
    };
    Some((number.to_string(), heading))
}

/// Does a content item start a numbered paragraph ("3. …")?
fn is_numbered(p: &str) -> bool {
    let digits = p.len() - p.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    digits > 0 && p[digits..].starts_with(". ")
}

/// Positions of the articles a target names (`here` is the citing article).
fn resolve(
    target: &Target,
    here: usize,
    position: &HashMap<String, usize>,
    len: usize,
) -> Vec<usize> {
    match target {
        Target::Article(n) => position.get(n).copied().into_iter().collect(),
        Target::Range(from, to) => match (position.get(from), position.get(to)) {
            (Some(&a), Some(&b)) if a <= b => (a..=b).collect(),
            _ => Vec::new(),
        },
        Target::Previous => here.checked_sub(1).into_iter().collect(),
        Target::Next => (here + 1 < len).then_some(here + 1).into_iter().collect(),
    }
}
