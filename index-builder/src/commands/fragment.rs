//! `nomos fragment BLOB DIR`: the blob's postings cut into a meta file and
//! fragments (`nomos_core::fragments`). Every file is read back through
//! the reader's checks before the command succeeds; `--plan` ranks a query
//! from the files it needs and prints what it fetched.

use std::path::Path;

use anyhow::{Context, Result};
use nomos_core::blob::Field;
use nomos_core::dense::Ivf;
use nomos_core::fragments::{fragment_with_lists, FragmentKind, Meta};

use crate::blob_file;
use crate::cli::FragmentArgs;
use crate::error::bad_input;

/// The meta file's name in the directory.
const META_FILE: &str = "meta";

pub fn run(args: &FragmentArgs) -> Result<()> {
    let path = &args.blob;
    let opened = blob_file::read(path)?;
    let bytes = opened.bytes;
    let ivf = match (opened.blob.dense(Field::Text), args.lists) {
        (None, _) | (_, Some(0)) => None,
        (Some(dense), lists) => {
            let lists = lists.unwrap_or_else(|| Ivf::default_lists(dense.n_vectors()));
            Some(Ivf::build(dense, lists, args.seed).map_err(bad_input)?)
        }
    };
    let made = fragment_with_lists(&opened.blob, args.max_bytes, ivf.as_ref())
        .map_err(|e| bad_input(format!("{}: {e}", path.display())))?;
    std::fs::create_dir_all(&args.dir)
        .with_context(|| format!("cannot create {}", args.dir.display()))?;
    for (file, data) in &made.fragments {
        write(&args.dir.join(&file.file), data)?;
    }
    write(&args.dir.join(META_FILE), &made.meta)?;

    let meta = Meta::load(&made.meta)?;
    for (number, file) in meta.fragments().iter().enumerate() {
        let data = std::fs::read(args.dir.join(&file.file))
            .with_context(|| format!("cannot read back {}", file.file))?;
        match file.kind {
            FragmentKind::Postings => drop(meta.open(number, &data)?),
            FragmentKind::Docs => drop(meta.open_docs(number, &data)?),
            FragmentKind::Lists => drop(meta.open_lists(number, &data)?),
            FragmentKind::Centroids => drop(meta.open_centroids(number, &data)?),
        }
    }
    for kind in [
        FragmentKind::Postings,
        FragmentKind::Docs,
        FragmentKind::Lists,
        FragmentKind::Centroids,
    ] {
        let mut sizes: Vec<u64> = meta
            .fragments()
            .iter()
            .filter(|f| f.kind == kind)
            .map(|f| f.len)
            .collect();
        sizes.sort_unstable();
        eprintln!(
            "{:?}: {} fragments of {}..{} bytes (median {}, {} in all)",
            kind,
            sizes.len(),
            sizes.first().unwrap_or(&0),
            sizes.last().unwrap_or(&0),
            sizes.get(sizes.len() / 2).unwrap_or(&0),
            sizes.iter().sum::<u64>(),
        );
    }
    eprintln!(
        "{}: meta {} bytes; the blob is {} bytes",
        args.dir.display(),
        made.meta.len(),
        bytes.len()
    );
    for query in &args.plan {
        let tokens = meta.analyzer().tokens(query);
        let needed = meta.needed(Field::Text, &tokens)?;
        let mut opened = Vec::with_capacity(needed.len());
        for &n in &needed {
            opened.push(meta.open(n, &std::fs::read(args.dir.join(&meta.fragments()[n].file))?)?);
        }
        let given: Vec<_> = opened.iter().collect();
        let hits = meta.rank(Field::Text, meta.bm25_params(), &tokens, &given, 10)?;
        let docs: Vec<u32> = hits.iter().map(|h| h.doc).collect();
        let shown = meta.needed_docs(&docs)?;
        let size =
            |numbers: &[usize]| -> u64 { numbers.iter().map(|&n| meta.fragments()[n].len).sum() };
        let ranked = made.meta.len() as u64 + size(&needed);
        println!(
            "{query:?}: {} tokens; meta + {} postings fragments = {ranked} bytes ({:.1}% of the \
             blob); the top {} in {} documents fragments, {} bytes more",
            tokens.len(),
            needed.len(),
            100.0 * ranked as f64 / bytes.len() as f64,
            hits.len(),
            shown.len(),
            size(&shown),
        );
    }
    Ok(())
}

fn write(path: &Path, data: &[u8]) -> Result<()> {
    std::fs::write(path, data).with_context(|| format!("cannot write {}", path.display()))
}
