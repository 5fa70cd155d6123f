//! Danish consolidated acts as Retsinformation JSON (`../shared/data/da-statutes/`,
//! one act per `<year>_<number>.json`: `{title, provisions[{provision_ref,
//! chapter, section, content}], …}`, one provision per §, stykker and items
//! flattened into `content`), chunked the way CRAwLeR-DK chunks its laws.
//!
//! Each stykke is an article `{law}_§{num}{letter}_stk{n}`; text outside a §
//! is `{law}_nonpar_{i}`, `i` being the chunk's position in the law (as in
//! CRAwLeR, where `nonpar` numbers are `chunk_idx`). Our nonpar chunks are:
//! - the act's title (`_nonpar_0`);
//! - repealed or omitted ranges such as "§§ 28-30. (Ophævet)", kept as one
//!   chunk in place rather than invented as `§28`, `§29`, `§30`, so that a
//!   reference to § 29 resolves to nothing, as the § no longer exists;
//! - provisions without a `chapter`: the commencement clauses of amending
//!   acts that a consolidation reprints after the law ("§ 12. Loven træder i
//!   kraft …"). Their § numbers are the amending act's, so as §-chunks they
//!   would collide with the law's own §§ and their references would resolve
//!   into the wrong law.
//!
//! A document with no chapters at all (most executive orders) has no such
//! reprinted clauses: each of its §§ is its own.
//!
//! The JSON has no chapter or § headings, which CRAwLeR also chunks as
//! `nonpar`, so our laws have fewer chunks than the benchmark's.
//!
//! Context lists follow CRAwLeR: `implicit_refs` are the other stykker of the
//! same §; `explicit_refs` the stykker the text cites ([`refs`]), whole §§
//! expanded to all their stykker. Both exclude the chunk itself, are sorted
//! as strings (`stk10` before `stk2`) and are empty for nonpar chunks.

mod acts;
mod chunker;
mod cross;
mod definitions;
mod law;
mod popular;
mod refs;
#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use anyhow::Result;
use serde_json::Value;

use super::dataset::{Article, Dataset, SourceFile, SourceInfo, SourceInput};
use crate::error::bad_input;
use acts::Act;
use chunker::{split_stykker, SectionKey, Stykke};
use nomos_core::digest::sha256_hex;
use refs::{cross_references, references, Target};

/// The `type` of the acts `nomos synth` writes: not law, and a pool note
/// says so.
pub const SYNTHETIC_TYPE: &str = "synthetic";

/// How a reader names the documents it reads.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Naming {
    /// By title, with CRAwLeR-DK's short names (`da-acts`): a chosen set of
    /// consolidated acts, one per act.
    Crawler,
    /// By type, year and number ([`nomos_core::eli::DocRef`], `da-law`):
    /// every document of Retsinformation, whatever its title.
    Eli,
}

/// Reads every `*.json` act in `dir`, sorted by file name (names starting
/// with `_` are skipped).
pub fn read_da_acts(dir: &Path) -> Result<Dataset> {
    read_dir(dir, Naming::Crawler)
}

/// Reads every document with provisions in `dir`, the `data/seed/` folder
/// of Ansvar-Systems/Danish-law-mcp (every Retsinformation document in
/// force, in the JSON `da-acts` reads), each named by its type, year and
/// number (`LBK-2025-1129`); documents without provisions are skipped and
/// counted in a pool note.
pub fn read_da_law(dir: &Path) -> Result<Dataset> {
    read_dir(dir, Naming::Eli)
}

fn read_dir(dir: &Path, naming: Naming) -> Result<Dataset> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| bad_input(format!("{}: cannot list: {e}", dir.display())))?;
    let mut names = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| bad_input(format!("{}: cannot list: {e}", dir.display())))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".json") && !name.starts_with('_') {
            names.push(name);
        }
    }
    // The seed names each document `<year>_<number>.json`; its other files
    // (an index of EU references, a court case) are no documents.
    let listed = names.len();
    if naming == Naming::Eli {
        names.retain(|n| is_document_file(n));
    }
    let not_documents = listed - names.len();
    names.sort();
    if names.is_empty() {
        return Err(bad_input(format!("{}: no *.json acts", dir.display())));
    }
    let mut pool = Dataset {
        dataset: match naming {
            Naming::Crawler => "da-statutes",
            Naming::Eli => "da-law",
        }
        .into(),
        source_names_indexed: true,
        ..Dataset::default()
    };
    let mut laws: HashMap<String, String> = HashMap::new();
    let (mut synthetic, mut without_provisions, mut repeated) = (0, 0, 0);
    let mut docs: Vec<cross::Doc> = Vec::new();
    let bar = crate::progress::bar(names.len(), "reading");
    for name in names {
        bar.inc(1);
        let path = dir.join(&name);
        let bytes = std::fs::read(&path)
            .map_err(|e| bad_input(format!("{}: cannot read: {e}", path.display())))?;
        let label = path.display().to_string();
        let Some(read) = read_act(&label, &bytes, naming)? else {
            without_provisions += 1;
            continue;
        };
        let (articles, names, is_synthetic) = (read.articles, read.names, read.synthetic);
        repeated += read.repeated;
        if let Some(mut doc) = read.cross {
            doc.first = pool.articles.len();
            for (article, _) in &mut doc.cites {
                *article += doc.first;
            }
            docs.push(doc);
        }
        synthetic += usize::from(is_synthetic);
        let law = articles
            .first()
            .map(|a| a.source.clone())
            .unwrap_or_default();
        if let Some(other) = laws.insert(law.clone(), name.clone()) {
            return Err(bad_input(format!(
                "{}: {other} and {name} both hold {law}; keep one consolidation per act",
                dir.display()
            )));
        }
        pool.articles.extend(articles);
        pool.definitions.extend(read.definitions);
        pool.sources.push(names);
        pool.files.push(SourceFile {
            name,
            sha256: sha256_hex(&bytes),
        });
    }
    bar.finish_and_clear();
    cross::resolve(&mut pool.articles, &docs);
    if not_documents > 0 {
        pool.notes.push(format!(
            "{not_documents} files not named <year>_<number>.json are no documents and are \
             left out."
        ));
    }
    if repeated > 0 {
        pool.notes.push(format!(
            "{repeated} §§ whose number an earlier § of their document has (an amended act's \
             text or an annex numbered anew, or a letter lost: `§ 7 B` filed as § 7) are kept \
             as text outside §§."
        ));
    }
    if without_provisions > 0 {
        pool.notes.push(format!(
            "{without_provisions} documents without provisions (their text is not in the source) \
             are left out."
        ));
    }
    if pool.articles.is_empty() {
        return Err(bad_input(format!(
            "{}: no document has provisions",
            dir.display()
        )));
    }
    if synthetic > 0 {
        pool.notes.push(format!(
            "{synthetic} acts are SYNTHETIC TEXT, NOT LAW, generated by `nomos synth` for testing \
             (their source folder's PROVENANCE.md says from what)."
        ));
    }
    Ok(pool)
}

/// One provision as read from the JSON.
struct Provision<'a> {
    /// "provision 12 (provision_ref \"1:12\")", for errors.
    label: String,
    /// `provision_ref`, which a definition's `source_provision` names.
    reference: Option<&'a str>,
    section: &'a str,
    in_chapter: bool,
    content: &'a str,
}

/// A chunk before its context lists are filled in.
enum Chunk {
    Stykke { section: SectionKey, stykke: Stykke },
    NonPar { title: String, text: String },
}

/// `2025_1129.json`.
fn is_document_file(name: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    name.strip_suffix(".json")
        .and_then(|stem| stem.split_once('_'))
        .is_some_and(|(year, number)| digits(year) && digits(number))
}

/// One act file, read.
#[derive(Debug)]
struct ReadAct {
    articles: Vec<Article>,
    /// What the act is called.
    names: SourceInput,
    /// Whether `nomos synth` made it.
    synthetic: bool,
    /// §§ whose number an earlier § of the act has (naming by ELI), kept
    /// as text outside §§.
    repeated: usize,
    /// Naming by ELI, what citations across documents need (the articles'
    /// indexes in it count from the act's first).
    cross: Option<cross::Doc>,
    /// The terms it defines.
    definitions: Vec<super::dataset::Definition>,
}

/// Chunks one act file (`label` names it in errors); `None` for a document
/// without provisions when naming by ELI (`da-law` leaves those out).
fn read_act(label: &str, bytes: &[u8], naming: Naming) -> Result<Option<ReadAct>> {
    let doc: Value = super::parse_json(label, bytes)?;
    let title = doc
        .get("title")
        .and_then(Value::as_str)
        .ok_or_else(|| bad_input(format!("{label}: missing string field `title`")))?;
    let provisions = doc
        .get("provisions")
        .and_then(Value::as_array)
        .ok_or_else(|| bad_input(format!("{label}: missing list field `provisions`")))?;
    if naming == Naming::Eli && provisions.is_empty() {
        return Ok(None);
    }
    let named = match naming {
        Naming::Crawler => acts::identify(title).and_then(|act| {
            let names = source_input(&doc, &act, title).map_err(bad_input)?;
            Ok((act, names))
        }),
        Naming::Eli => law::identify(&doc, title).map_err(bad_input),
    };
    let (act, names) = named.map_err(|e| bad_input(format!("{label}: {e}")))?;
    let parsed: Vec<Provision> = provisions
        .iter()
        .enumerate()
        .map(|(i, value)| provision(value, i).map_err(|msg| bad_input(format!("{label}: {msg}"))))
        .collect::<Result<_>>()?;
    // Without any chapter, no § is an amending act's reprinted clause.
    let chapters = parsed.iter().any(|p| p.in_chapter);

    let mut chunks = vec![Chunk::NonPar {
        title: act.display.clone(),
        text: title.trim().to_string(),
    }];
    let mut seen: HashMap<SectionKey, String> = HashMap::new();
    let mut by_reference: HashMap<&str, SectionKey> = HashMap::new();
    let mut repeated = 0;
    for p in parsed {
        let own = p.in_chapter || !chapters;
        let section = SectionKey::parse(p.section).filter(|_| own);
        // Naming by ELI, a § number met again is kept as text outside §§.
        let again = section.as_ref().filter(|s| seen.contains_key(s));
        if naming == Naming::Eli && again.is_some() {
            repeated += 1;
            chunks.push(Chunk::NonPar {
                title: nonpar_title(&act, p.content, true),
                text: p.content.trim().to_string(),
            });
            continue;
        }
        match section {
            Some(section) => {
                if let Some(first) = seen.insert(section.clone(), p.label.clone()) {
                    return Err(bad_input(format!(
                        "{label}: {} repeats § {section} of {first}",
                        p.label
                    )));
                }
                if let Some(reference) = p.reference {
                    by_reference.insert(reference, section.clone());
                }
                for stykke in split_stykker(p.content) {
                    chunks.push(Chunk::Stykke {
                        section: section.clone(),
                        stykke,
                    });
                }
            }
            None => chunks.push(Chunk::NonPar {
                title: nonpar_title(&act, p.content, own),
                text: p.content.trim().to_string(),
            }),
        }
    }
    let synthetic = doc.get("type").and_then(Value::as_str) == Some(SYNTHETIC_TYPE);
    let (articles, stykker, cites) = articles(&act, chunks, naming == Naming::Eli);
    let defined_in = |reference: &str| -> Vec<String> {
        by_reference
            .get(reference)
            .and_then(|section| stykker.get(section))
            .map(|ids| ids.values().cloned().collect())
            .unwrap_or_default()
    };
    let definitions = definitions::read(&doc, &articles, defined_in)
        .map_err(|msg| bad_input(format!("{label}: {msg}")))?;
    let cross = match naming {
        Naming::Crawler => None,
        Naming::Eli => Some(cross_doc(&act, &names, stykker, cites)?),
    };
    Ok(Some(ReadAct {
        articles,
        names,
        synthetic,
        repeated,
        cross,
        definitions,
    }))
}

/// What citations across documents need of one document.
fn cross_doc(
    act: &Act,
    names: &SourceInput,
    stykker: Stykker,
    cites: Vec<(usize, Vec<refs::Foreign>)>,
) -> Result<cross::Doc> {
    let doc_ref = nomos_core::eli::DocRef::parse(&names.source)
        .ok_or_else(|| bad_input(format!("{} is not a document number", names.source)))?;
    let mut lower: Vec<String> = act.own_names.clone();
    lower.push(act.display.to_lowercase());
    lower.extend(act.abbreviation.iter().map(|a| a.to_lowercase()));
    Ok(cross::Doc {
        doc_ref,
        date: names.info.date.clone(),
        names: lower,
        title: names.info.title.to_lowercase(),
        stykker,
        first: 0,
        cites,
    })
}

/// The act's names, number and date: `{name: "Straffeloven", aliases:
/// ["strfl.", "straffeloven"], number: "LBK nr. 1294", date: "2025-11-07"}`
/// from `title`, `id` (`"2025:1294"`) and `issued_date`.
fn source_input(doc: &Value, act: &Act, title: &str) -> std::result::Result<SourceInput, String> {
    let (_, number) = id_parts(doc)?;
    let date = issued_date(doc)?;
    // "Bekendtgørelse af …" is a consolidated act (lovbekendtgørelse).
    let kind = match title
        .trim_start()
        .to_lowercase()
        .starts_with("bekendtgørelse af")
    {
        true => "LBK",
        false => "Lov",
    };
    let mut aliases: Vec<String> = act.abbreviation.iter().cloned().collect();
    aliases.extend(act.own_names.iter().cloned());
    Ok(SourceInput {
        source: act.short.clone(),
        info: SourceInfo {
            name: act.display.clone(),
            title: title.split_whitespace().collect::<Vec<_>>().join(" "),
            aliases,
            number: format!("{kind} nr. {number}"),
            date: date.to_string(),
        },
    })
}

fn string_field<'a>(doc: &'a Value, name: &str) -> std::result::Result<&'a str, String> {
    doc.get(name)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("missing string field `{name}`"))
}

/// The `id` field, `"2025:1129"`: the year and the number in it.
fn year_and_number(doc: &Value) -> std::result::Result<(&str, &str), String> {
    let (year, number) = id_parts(doc)?;
    match is_number(year) {
        true => Ok((year, number)),
        false => Err(format!(
            "field `id` is \"{year}:{number}\", not \"YEAR:NUMBER\""
        )),
    }
}

/// The `id` field split at its colon, the number checked: an act's name
/// needs only its number, and `nomos synth`'s acts are `"synthetic:1"`.
fn id_parts(doc: &Value) -> std::result::Result<(&str, &str), String> {
    let id = string_field(doc, "id")?;
    id.split_once(':')
        .filter(|(_, n)| is_number(n))
        .ok_or_else(|| format!("field `id` is \"{id}\", not \"YEAR:NUMBER\""))
}

fn is_number(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// The `issued_date` field, checked to be `YYYY-MM-DD`.
fn issued_date(doc: &Value) -> std::result::Result<&str, String> {
    let date = string_field(doc, "issued_date")?;
    let valid_date = date.len() == 10
        && date.bytes().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                b == b'-'
            } else {
                b.is_ascii_digit()
            }
        });
    match valid_date {
        true => Ok(date),
        false => Err(format!("field `issued_date` is \"{date}\", not YYYY-MM-DD")),
    }
}

/// Checks one provision's fields; the error names the provision.
fn provision(value: &Value, i: usize) -> std::result::Result<Provision<'_>, String> {
    let reference = value.get("provision_ref").and_then(Value::as_str);
    let label = match reference {
        Some(r) => format!("provision {} (provision_ref \"{r}\")", i + 1),
        None => format!("provision {}", i + 1),
    };
    let string = |field: &str| match value.get(field) {
        Some(Value::String(s)) => Ok(s.as_str()),
        Some(_) => Err(format!("{label}: field `{field}` must be a string")),
        None => Err(format!("{label}: missing field `{field}`")),
    };
    let section = string("section")?;
    let content = string("content")?;
    if content.trim().is_empty() {
        return Err(format!("{label}: empty `content`"));
    }
    let in_chapter = match value.get("chapter") {
        None | Some(Value::Null) => false,
        Some(Value::String(_)) => true,
        Some(_) => return Err(format!("{label}: field `chapter` must be a string")),
    };
    Ok(Provision {
        label,
        reference,
        section,
        in_chapter,
        content,
    })
}

/// "Straffeloven §§ 28-30" for a repealed range, "Almenboligloven
/// (ændringslov) § 29" for an amending act's clause.
fn nonpar_title(act: &Act, content: &str, in_chapter: bool) -> String {
    let content = content.trim();
    let heading = content.split_once(". ").map_or(content, |(h, _)| h);
    if in_chapter {
        format!("{} {heading}", act.display)
    } else {
        format!("{} (ændringslov) {heading}", act.display)
    }
}

/// Stykke ids per § and stykke number.
type Stykker = BTreeMap<SectionKey, BTreeMap<u32, String>>;

/// Gives chunks their ids, titles and context lists; also the stykke ids
/// per §, and with `cross`, each article's citations of other acts.
#[allow(clippy::type_complexity)]
fn articles(
    act: &Act,
    chunks: Vec<Chunk>,
    cross: bool,
) -> (Vec<Article>, Stykker, Vec<(usize, Vec<refs::Foreign>)>) {
    let id = |i: usize, chunk: &Chunk| match chunk {
        Chunk::Stykke { section, stykke } => {
            format!("{}_§{}_stk{}", act.short, section.id_part(), stykke.number)
        }
        Chunk::NonPar { .. } => format!("{}_nonpar_{i}", act.short),
    };
    let ids: Vec<String> = chunks.iter().enumerate().map(|(i, c)| id(i, c)).collect();
    // Stykke ids per §, by stykke number, for resolving references.
    let mut stykker: Stykker = BTreeMap::new();
    for (chunk, id) in chunks.iter().zip(&ids) {
        if let Chunk::Stykke { section, stykke } = chunk {
            stykker
                .entry(section.clone())
                .or_default()
                .insert(stykke.number, id.clone());
        }
    }
    let mut cites = Vec::new();
    let articles = chunks
        .into_iter()
        .zip(ids)
        .enumerate()
        .map(|(i, (chunk, id))| match chunk {
            Chunk::NonPar { title, text } => {
                // Text outside §§ cites other acts too ("personskattelovens
                // § 20" in a note on an amending act).
                if cross {
                    let (_, foreign) = cross_references(&text, act);
                    if !foreign.is_empty() {
                        cites.push((i, foreign));
                    }
                }
                Article {
                    id,
                    title,
                    text,
                    source: act.short.clone(),
                    ..Article::default()
                }
            }
            Chunk::Stykke { section, stykke } => {
                let siblings = &stykker[&section];
                let title = if siblings.len() > 1 {
                    format!("{} § {section}, stk. {}", act.display, stykke.number)
                } else {
                    format!("{} § {section}", act.display)
                };
                let implicit = siblings.values().cloned().collect();
                let body = &stykke.text[stykke.body_start..];
                let (cited, foreign) = match cross {
                    true => cross_references(body, act),
                    false => (references(body, act), Vec::new()),
                };
                if !foreign.is_empty() {
                    cites.push((i, foreign));
                }
                let explicit = resolve(&cited, &section, &stykker);
                Article {
                    title,
                    text: stykke.text,
                    source: act.short.clone(),
                    paragraphs: stykke.items,
                    explicit_refs: context_list(explicit, &id),
                    implicit_refs: context_list(implicit, &id),
                    id,
                    ..Article::default()
                }
            }
        })
        .collect();
    (articles, stykker, cites)
}

/// The stykke ids `targets` name; `own` is the citing §. Stykker and §§ that
/// this consolidation does not have resolve to nothing.
fn resolve(targets: &[Target], own: &SectionKey, stykker: &Stykker) -> Vec<String> {
    let mut out = Vec::new();
    for target in targets {
        match target {
            Target::Sections { from, to } if from <= to => {
                for ids in stykker.range(from.clone()..=to.clone()).map(|(_, s)| s) {
                    out.extend(ids.values().cloned());
                }
            }
            Target::Stykker { section, from, to } if from <= to => {
                let section = section.as_ref().unwrap_or(own);
                if let Some(ids) = stykker.get(section) {
                    out.extend(ids.range(*from..=*to).map(|(_, id)| id.clone()));
                }
            }
            Target::Sections { .. } | Target::Stykker { .. } => {}
        }
    }
    out
}

/// Sorted as strings, deduplicated, without the chunk itself.
fn context_list(mut ids: Vec<String>, own: &str) -> Vec<String> {
    ids.retain(|id| id != own);
    ids.sort();
    ids.dedup();
    ids
}
