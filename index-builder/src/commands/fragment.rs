//! `nomos fragment BLOB DIR`: the blob's postings cut into a meta file and
//! fragments (`nomos_core::fragments`); [`write_dir`] writes them, here
//! and for `nomos build --fragments`. Every file is read back through the
//! reader's checks before the command succeeds; `--plan` ranks a query
//! from the files it needs and prints what it fetched.

use std::path::Path;

use anyhow::{bail, Context, Result};
use nomos_core::blob::Field;
use nomos_core::dense::Ivf;
use nomos_core::fragments::{fragment_with_lists, FragmentKind, FragmentRef, Fragmented, Meta};

use super::plan::{plan_query, META_FILE};
use crate::progress;

use crate::blob_file;
use crate::cli::FragmentArgs;
use crate::error::bad_input;

/// Fragments carry no editorial headings field (`LEXE`): said, not hidden.
pub(super) const EDITORIAL_NOTE: &str = "note: fragments have no editorial headings field: \
     the fragmented pool ranks the text alone, as `--editorial-weight 0` ranks the blob";

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
    let meta = write_dir(&args.dir, &made)?;
    if opened.blob.has_editorial_headings() {
        eprintln!("{EDITORIAL_NOTE}");
    }
    eprintln!(
        "{}: meta {} bytes; the blob is {} bytes",
        args.dir.display(),
        made.meta.len(),
        bytes.len()
    );
    for query in &args.plan {
        let plan = plan_query(&args.dir, &meta, query)?;
        let size = |files: &[FragmentRef]| -> u64 { files.iter().map(|f| f.len).sum() };
        let ranked = made.meta.len() as u64 + size(&plan.postings);
        println!(
            "{query:?}: {} tokens; meta + {} postings fragments = {ranked} bytes ({:.1}% of the \
             blob); the top {} in {} directory pages and {} documents fragments, {} bytes more",
            plan.tokens,
            plan.postings.len(),
            100.0 * ranked as f64 / bytes.len() as f64,
            plan.hits,
            plan.pages.len(),
            plan.docs.len(),
            size(&plan.pages) + size(&plan.docs),
        );
    }
    Ok(())
}

/// Writes `made` into `dir` (the meta last, so a reader never finds a
/// meta whose fragments are not there yet), reads every file back through
/// the reader's checks, and prints the fragments' sizes.
pub(super) fn write_dir(dir: &Path, made: &Fragmented) -> Result<Meta> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let bar = progress::bar(made.fragments.len(), "writing");
    for (file, data) in &made.fragments {
        write(&dir.join(&file.file), data)?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    write(&dir.join(META_FILE), &made.meta)?;

    let meta = Meta::load(&made.meta)?;
    check_fragments(dir, &meta)?;
    for kind in [
        FragmentKind::Postings,
        FragmentKind::DocsPage,
        FragmentKind::Docs,
        FragmentKind::Lists,
        FragmentKind::Centroids,
    ] {
        let mut sizes: Vec<u64> = made
            .fragments
            .iter()
            .map(|(f, _)| f)
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
    Ok(meta)
}

/// Reads every fragment `meta` lists from `dir` through the reader's
/// checks, and every documents fragment its directory pages list, so a
/// missing or damaged file fails here, not in a browser.
pub(super) fn check_fragments(dir: &Path, meta: &Meta) -> Result<()> {
    let bar = progress::bar(meta.n_fragments(), "checking");
    let read = |file: &FragmentRef| -> Result<Vec<u8>> {
        let path = dir.join(&file.file);
        std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))
    };
    let mut docs_bytes = 0;
    for (number, file) in meta.fragments().iter().enumerate() {
        let data = read(file)?;
        match file.kind {
            FragmentKind::Postings => drop(meta.open(number, &data)?),
            FragmentKind::DocsPage => {
                let page = meta.open_page(number, &data)?;
                for (n, docs) in page.fragments() {
                    drop(meta.open_docs(&page, n, &read(docs)?)?);
                    docs_bytes += docs.len;
                    bar.inc(1);
                }
            }
            FragmentKind::Docs => bail!("the meta lists a documents fragment itself"),
            FragmentKind::Lists => drop(meta.open_lists(number, &data)?),
            FragmentKind::Centroids => drop(meta.open_centroids(number, &data)?),
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    if docs_bytes != meta.docs_bytes() {
        bail!(
            "the meta says its documents fragments hold {} bytes, its pages list {docs_bytes}",
            meta.docs_bytes()
        );
    }
    Ok(())
}

fn write(path: &Path, data: &[u8]) -> Result<()> {
    std::fs::write(path, data).with_context(|| format!("cannot write {}", path.display()))
}
