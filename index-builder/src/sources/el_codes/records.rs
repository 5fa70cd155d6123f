//! One export file as article records: each `Αρθρο: N` block's number,
//! version date, heading and text lines, with the editorial layer
//! (`Περιγραφή όρου θησαυρού`, `Λήμματα`, `Σχόλια`) read past and dropped
//! here, so nothing downstream can index, show or ship it.
//!
//! Two layouts: most files label every part (`Τίτλος Αρθρου`, `Κείμενο
//! Αρθρου`); `kwdikas_dikigorwn.txt` labels none, its heading being the
//! lines after `Ημ/νία` up to the first blank line. The header and, there,
//! the table of contents come before the first `Αρθρο:` line and are not
//! read.

use crate::error::bad_input;

/// One `Αρθρο:` block.
#[derive(Debug, Clone)]
pub struct Record {
    /// The article number as printed (`1017Α`, `90A`).
    pub number: String,
    /// `Ημ/νία`, the version's date, as `YYYY-MM-DD`.
    pub date: String,
    /// `Τίτλος Αρθρου`, joined into one line; may be empty.
    pub heading: String,
    /// The text's lines with their numbers; `None` when the block has no
    /// text (repealed articles, whose repeal only the editorial notes say).
    pub body: Option<Vec<(usize, String)>>,
}

/// The parts of a labelled block, in the order they come.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Part {
    /// Between the dates and the first label.
    Fields,
    Heading,
    /// `Περιγραφή όρου θησαυρού`, `Λήμματα`, `Σχόλια`.
    Editorial,
    Text,
}

/// A line as the export should have written it: no form feed, soft hyphen
/// or BOM, and Greek letters for the look-alikes some files use (the
/// increment sign for Δ, the micro sign for μ, the ohm sign for Ω; a stray
/// Windows-1252 quote for ’).
pub fn clean(line: &str) -> String {
    line.chars()
        .filter(|&c| !matches!(c, '\u{c}' | '\u{ad}' | '\u{feff}' | '\r'))
        .map(|c| match c {
            '\u{2206}' => 'Δ',
            '\u{b5}' => 'μ',
            '\u{2126}' => 'Ω',
            '\u{92}' => '’',
            c => c,
        })
        .collect::<String>()
        .trim_end()
        .to_string()
}

/// The records of one file (`label` names it in errors).
pub fn records(label: &str, text: &str) -> anyhow::Result<Vec<Record>> {
    let mut lines: Vec<String> = text.split('\n').map(clean).collect();
    drop_repeated_headers(&mut lines);
    restore_lost_labels(&mut lines);
    let labelled = lines.iter().any(|l| l == "Κείμενο Αρθρου");
    let mut out = Vec::new();
    let mut i = lines
        .iter()
        .position(|l| l.starts_with("Αρθρο:"))
        .ok_or_else(|| bad_input(format!("{label}: no `Αρθρο:` line: not a ΙΣΟΚΡΑΤΗΣ export")))?;
    while i < lines.len() {
        let end = (i + 1..lines.len())
            .find(|&j| lines[j].starts_with("Αρθρο:"))
            .unwrap_or(lines.len());
        let block = &lines[i..end];
        let at = |k: usize| i + k + 1;
        let record = if labelled {
            labelled_block(block, at)
        } else {
            plain_block(block, at)
        };
        match record.map_err(|(k, msg)| bad_input(format!("{label}:{}: {msg}", at(k))))? {
            Some(r) => out.push(r),
            // The export ends with a block of empty fields.
            None if end == lines.len() => {}
            None => {
                return Err(bad_input(format!(
                    "{label}:{}: `Αρθρο:` without a number",
                    at(0)
                )))
            }
        }
        i = end;
    }
    Ok(out)
}

/// Blanks the file header where the export repeats it between articles
/// (AK, after art. 1000: `ΙΣΟΚΡΑΤΗΣ` … `ΣΤΟΙΧΕΙΑ ΑΡΘΡΩΝ`), so that it is
/// not read as the text of the article before it.
fn drop_repeated_headers(lines: &mut [String]) {
    let Some(first) = lines.iter().position(|l| l.starts_with("Αρθρο:")) else {
        return;
    };
    let mut k = first;
    while k < lines.len() {
        if lines[k].trim() == "ΙΣΟΚΡΑΤΗΣ" {
            let end = (k + 1..lines.len())
                .take_while(|&j| !lines[j].starts_with("Αρθρο:"))
                .find(|&j| lines[j].trim() == "ΣΤΟΙΧΕΙΑ ΑΡΘΡΩΝ");
            if let Some(end) = end {
                lines[k..=end].iter_mut().for_each(String::clear);
                k = end;
            }
        }
        k += 1;
    }
}

/// Puts back the labels of blocks that lost them: three articles of the
/// Code of Civil Procedure (265, 271, 276) start with their number, date
/// and thesaurus term alone on three lines.
fn restore_lost_labels(lines: &mut [String]) {
    let is_number = |l: &str| {
        l.starts_with(|c: char| c.is_ascii_digit()) && l.chars().all(char::is_alphanumeric)
    };
    for k in 0..lines.len().saturating_sub(2) {
        let (number, date) = (lines[k].trim().to_string(), lines[k + 1].trim().to_string());
        if is_number(&number) && iso_date(&date).is_some() {
            lines[k] = format!("Αρθρο: {number}");
            lines[k + 1] = format!("Ημ/νία: {date}");
            if !lines[k + 2].trim().is_empty() {
                lines[k + 2] = format!("Περιγραφή όρου θησαυρού: {}", lines[k + 2].trim());
            }
        }
    }
}

/// An error at the block's `k`-th line.
type BlockError = (usize, String);

/// The number and date every block starts with: `Ok(None)` for a block of
/// empty fields.
fn number_and_date(block: &[String]) -> Result<Option<(String, String, usize)>, BlockError> {
    let number = block[0]["Αρθρο:".len()..].trim().to_string();
    let date_at = 1 + block[1..]
        .iter()
        .position(|l| !l.is_empty())
        .ok_or((0, "no `Ημ/νία:` line after `Αρθρο:`".to_string()))?;
    let date = block[date_at]
        .strip_prefix("Ημ/νία:")
        .ok_or((date_at, "expected `Ημ/νία:` after `Αρθρο:`".to_string()))?
        .trim();
    if number.is_empty() {
        let empty = block[date_at + 1..]
            .iter()
            .all(|l| l.is_empty() || l.starts_with("Περιγραφή όρου θησαυρού:"));
        return match (date.is_empty(), empty) {
            (true, true) => Ok(None),
            _ => Err((0, "`Αρθρο:` without a number".into())),
        };
    }
    let valid = number.chars().next().is_some_and(|c| c.is_ascii_digit())
        && number.chars().all(char::is_alphanumeric);
    if !valid {
        return Err((
            0,
            format!("article number \"{number}\" is not digits and a letter"),
        ));
    }
    let date = iso_date(date).ok_or((date_at, format!("date \"{date}\" is not DD.MM.YYYY")))?;
    Ok(Some((number, date, date_at)))
}

/// `23.02.1946` → `1946-02-23`.
fn iso_date(s: &str) -> Option<String> {
    let parts: Vec<&str> = s.split('.').collect();
    let [d, m, y] = parts[..] else { return None };
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    (digits(d, 2) && digits(m, 2) && digits(y, 4)).then(|| format!("{y}-{m}-{d}"))
}

/// A block with labelled parts.
fn labelled_block(
    block: &[String],
    at: impl Fn(usize) -> usize,
) -> Result<Option<Record>, BlockError> {
    let Some((number, date, date_at)) = number_and_date(block)? else {
        return Ok(None);
    };
    let mut part = Part::Fields;
    let mut heading: Vec<&str> = Vec::new();
    let mut body: Option<Vec<(usize, String)>> = None;
    for (k, line) in block.iter().enumerate().skip(date_at + 1) {
        if part == Part::Text {
            body.get_or_insert_with(Vec::new)
                .push((at(k), line.clone()));
            continue;
        }
        let label = line.trim();
        match label {
            "Τίτλος Αρθρου" => part = Part::Heading,
            "Λήμματα" | "Σχόλια" => part = Part::Editorial,
            "Κείμενο Αρθρου" => {
                part = Part::Text;
                body = Some(Vec::new());
            }
            _ if label.starts_with("Ημ/νία Ισχύος:") => {}
            // The label garbled into the heading's last line: AK 883
            // "Λήμματα της έκταξης." (the heading being "Ανάκληση της
            // έκταξης."), KDND 208Α "Λήμματαναυτολόγηση. …".
            _ if part == Part::Heading && label.starts_with("Λήμματα") => {
                heading.push(label["Λήμματα".len()..].trim());
                part = Part::Editorial;
            }
            _ if is_description(label) => part = Part::Editorial,
            "" => {}
            // Art. 348 of the Code of Criminal Procedure has its label
            // garbled into fragments ("Τί λ", "Α θ") before the real one.
            _ if part == Part::Fields && label.chars().count() <= 4 => {}
            _ => match part {
                Part::Heading => heading.push(label),
                Part::Editorial => {}
                _ => {
                    return Err((
                        k,
                        format!("unexpected line before `Κείμενο Αρθρου`: \"{label}\""),
                    ))
                }
            },
        }
    }
    Ok(Some(Record {
        number,
        date,
        heading: heading.join(" "),
        body,
    }))
}

/// `Περιγραφή όρου θησαυρού:` (one file writes `ΠερΙγραφή`).
fn is_description(line: &str) -> bool {
    line.to_lowercase().starts_with("περιγραφή όρου θησαυρού")
}

/// A block with no labels: the heading runs from after the date to the
/// first blank line, the text from there.
fn plain_block(
    block: &[String],
    at: impl Fn(usize) -> usize,
) -> Result<Option<Record>, BlockError> {
    let Some((number, date, date_at)) = number_and_date(block)? else {
        return Ok(None);
    };
    let rest = &block[date_at + 1..];
    let split = rest.iter().position(|l| l.is_empty()).unwrap_or(rest.len());
    let heading: Vec<&str> = rest[..split].iter().map(|l| l.trim()).collect();
    let body: Vec<(usize, String)> = rest[split..]
        .iter()
        .enumerate()
        .map(|(k, l)| (at(date_at + 1 + split + k), l.clone()))
        .collect();
    Ok(Some(Record {
        number,
        date,
        heading: heading.join(" "),
        body: Some(body),
    }))
}
