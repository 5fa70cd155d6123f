//! `nomos info BLOB`: a blob's header and per-section sizes, raw and as
//! gzip (level 9) and brotli (quality 11) would serve them, for
//! docs/benchmarks/ and the size budget; a light blob's sibling files too.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use nomos_core::blob::Field;

pub fn run(path: &Path) -> Result<()> {
    let started = std::time::Instant::now();
    let opened = crate::blob_file::read(path)?;
    let load_ms = started.elapsed().as_secs_f64() * 1e3;
    let (blob, bytes) = (&opened.blob, &opened.bytes);

    let h = blob.header();
    let p = blob.bm25_params();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "blob:         {} ({} bytes)",
        path.display(),
        blob.len_bytes()
    )?;
    writeln!(
        out,
        "format:       version {}",
        nomos_core::blob::FORMAT_VERSION
    )?;
    writeln!(out, "built by:     {}", h.builder)?;
    writeln!(out, "analyzer:     {}", h.analyzer)?;
    writeln!(
        out,
        "bm25:         {} k1={} b={} epsilon={}",
        p.variant, p.k1, p.b, p.epsilon
    )?;
    writeln!(out, "title:        {}", h.manifest.title)?;
    writeln!(out, "dataset:      {}", h.manifest.dataset)?;
    for f in &h.manifest.files {
        writeln!(out, "source file:  {}  sha256:{}", f.name, f.sha256)?;
    }
    for note in &h.manifest.notes {
        writeln!(out, "note:         {note}")?;
    }
    writeln!(out, "content hash: {:032x}", h.content_hash)?;
    writeln!(
        out,
        "counts:       {} documents, {} queries, {} judgments",
        h.n_docs, h.n_queries, h.n_judgments
    )?;
    for field in blob.fields() {
        if let Some(index) = blob.index(field) {
            writeln!(
                out,
                "field:        {} ({} terms, {} tokens)",
                field.name(),
                index.n_terms(),
                index.total_len()
            )?;
        }
    }
    if let Some(model) = blob.dense_model() {
        let vectors = blob.dense(Field::Text).map_or(0, |d| d.n_vectors());
        writeln!(
            out,
            "vectors:      {} ({} dimensions), pooling {} ({}), {vectors} text vectors",
            model.id,
            model.dim,
            model.pooling,
            model.pooling.describe()
        )?;
    }
    if let Some(hybrid) = blob.hybrid() {
        writeln!(
            out,
            "hybrid:       {hybrid} (ranks when no method is chosen)"
        )?;
    }
    let (explicit, implicit) = blob.unknown_refs();
    writeln!(
        out,
        "unknown refs: {explicit} explicit, {implicit} implicit (dropped at build)"
    )?;
    for (s, data) in &opened.siblings {
        writeln!(
            out,
            "sibling:      {} of documents {}–{} in {} ({} bytes, content hash {:032x})",
            s.kind.name(),
            s.docs.start,
            s.docs.end,
            s.file,
            data.len(),
            s.content_hash
        )?;
    }
    writeln!(
        out,
        "load time:    {load_ms:.1} ms (reading and validation, siblings included)"
    )?;
    writeln!(out)?;

    writeln!(
        out,
        "{:<20} {:>12} {:>12} {:>12}",
        "section", "raw", "gzip", "brotli"
    )?;
    let mut totals = [0usize; 3];
    let n_docs = blob.n_docs().max(1);
    for s in blob.sections() {
        let data = bytes.get(s.offset..s.offset + s.len).unwrap_or_default();
        let sizes = [data.len(), gzip_len(data)?, brotli_len(data)?];
        writeln!(
            out,
            "{:<20} {:>12} {:>12} {:>12}",
            s.name, sizes[0], sizes[1], sizes[2]
        )?;
        for (t, s) in totals.iter_mut().zip(sizes) {
            *t += s;
        }
        if s.name == format!("lexical:{}", Field::Text.name()) {
            writeln!(
                out,
                "{:<20} {:>12.1} {:>12.1} {:>12.1}",
                "  per document",
                sizes[0] as f64 / n_docs as f64,
                sizes[1] as f64 / n_docs as f64,
                sizes[2] as f64 / n_docs as f64
            )?;
        }
    }
    writeln!(
        out,
        "{:<20} {:>12} {:>12} {:>12}",
        "sections total", totals[0], totals[1], totals[2]
    )?;
    writeln!(
        out,
        "{:<20} {:>12} {:>12} {:>12}",
        "whole file",
        bytes.len(),
        gzip_len(bytes)?,
        brotli_len(bytes)?
    )?;
    for (s, data) in &opened.siblings {
        writeln!(
            out,
            "{:<20} {:>12} {:>12} {:>12}",
            format!("file {}", s.file),
            data.len(),
            gzip_len(data)?,
            brotli_len(data)?
        )?;
    }
    Ok(())
}

fn gzip_len(data: &[u8]) -> Result<usize> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(data)?;
    Ok(enc.finish()?.len())
}

pub(super) fn brotli_len(data: &[u8]) -> Result<usize> {
    let mut out = Vec::new();
    {
        let mut enc = brotli::CompressorWriter::new(&mut out, 1 << 16, 11, 22);
        enc.write_all(data)?;
    }
    Ok(out.len())
}
