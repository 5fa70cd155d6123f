//! `nomos analyze`: stdin lines to space-joined tokens, one line per line.

use std::io::{BufRead, BufWriter, Write};

use anyhow::Result;

use super::analyzer_by_name;
use crate::error::bad_input;

pub fn run(analyzer: &str) -> Result<()> {
    let analyzer = analyzer_by_name(analyzer)?;
    let stdin = std::io::stdin().lock();
    let mut out = BufWriter::new(std::io::stdout().lock());
    for (i, line) in stdin.split(b'\n').enumerate() {
        let bytes = line?;
        let text = std::str::from_utf8(&bytes)
            .map_err(|_| bad_input(format!("stdin:{}: not valid UTF-8", i + 1)))?;
        let text = text.strip_suffix('\r').unwrap_or(text);
        writeln!(out, "{}", analyzer.tokens(text).join(" "))?;
    }
    out.flush()?;
    Ok(())
}
