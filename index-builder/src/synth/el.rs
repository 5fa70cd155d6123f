//! Synthetic Greek acts in the paragraph JSON Lines that `nomos build
//! --format el-nomothesia` reads: one folder per act with `articles.jsonl`
//! (one line per paragraph) and `meta.json`.
//!
//! Drawn from the real Greek text the builder reads (`el-nomothesia/` and
//! the Constitution, `el-syntagma/`): articles per act, paragraphs per
//! article and words per paragraph from the acts; references per article
//! from the Constitution, whose references the builder resolves. They are
//! written in the texts' own form ("σύμφωνα με το άρθρο 12") to other
//! articles of the same act, but `el-nomothesia`'s reader resolves no
//! references, so in a built pool they stay text (the graph is empty, as
//! for the real acts).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use serde_json::json;

use super::draw::Draw;
use super::markov::Chain;
use super::output::{Real, Sink, Written};
use super::sentences::sentences;
use super::text::body;
use crate::sources::nomothesia::{read_nomothesia, SYNTHETIC_PREFIX};
use crate::sources::syntagma::read_syntagma;

pub struct Model {
    chain: Chain,
    headings: Chain,
    articles_per_act: Vec<usize>,
    paragraphs_per_article: Vec<usize>,
    words_per_paragraph: Vec<usize>,
    refs_per_article: Vec<usize>,
}

/// Reads the real acts in `acts` and the Constitution in `constitution`.
pub fn train(acts: &Path, constitution: &Path) -> Result<(Model, Real)> {
    let acts = read_nomothesia(acts)?;
    let constitution = read_syntagma(constitution)?;
    let cites = |w: &str| {
        let w = w.to_lowercase();
        w.starts_with("άρθρ") || w.starts_with("αρθρ") || w.starts_with("παρ.") || w.contains('§')
    };
    let mut per_act: BTreeMap<&str, usize> = BTreeMap::new();
    let (mut paragraphs, mut words) = (Vec::new(), Vec::new());
    let mut training = Vec::new();
    let mut headings = Vec::new();
    for a in acts.articles.iter().chain(&constitution.articles) {
        for p in &a.paragraphs {
            // "3. Text": the number is the reader's, not a word.
            let body = p
                .split_once(". ")
                .filter(|(n, _)| {
                    n.len() < 5 && n.chars().all(|c| c.is_ascii_digit() || c.is_uppercase())
                })
                .map_or(p.as_str(), |(_, b)| b);
            let words: Vec<&str> = body.split_whitespace().collect();
            training.extend(sentences(&words, &cites));
        }
    }
    for a in &acts.articles {
        *per_act.entry(&a.source).or_default() += 1;
        paragraphs.push(a.paragraphs.len().max(1));
        for p in &a.paragraphs {
            words.push(p.split_whitespace().count().max(1));
        }
        if !a.title.trim().is_empty() {
            headings.push(a.title.split_whitespace().collect());
        }
    }
    let refs: Vec<usize> = constitution
        .articles
        .iter()
        .map(|a| a.explicit_refs.len())
        .collect();
    let chain = Chain::train(training);
    let heading_chain = Chain::train(headings);
    if chain.is_empty() {
        return Err(crate::error::bad_input(
            "the real pool has no sentence to train on",
        ));
    }
    let mut real = Real::new(&acts, refs.iter().sum(), refs.len());
    real.pools
        .push((constitution.dataset.clone(), constitution.files.clone()));
    let model = Model {
        chain,
        headings: heading_chain,
        articles_per_act: per_act.into_values().collect(),
        paragraphs_per_article: paragraphs,
        words_per_paragraph: words,
        refs_per_article: refs,
    };
    Ok((model, real))
}

/// Writes acts until `docs` articles are written.
pub fn write(model: &Model, docs: usize, draw: &mut Draw, sink: &mut Sink) -> Result<Written> {
    let mut written = Written::default();
    let mut act = 0;
    while written.docs < docs {
        act += 1;
        let size = draw
            .pick(&model.articles_per_act)
            .clamp(1, docs - written.docs);
        let id = format!("synthetic::el-{act:06}");
        let name = format!("SYNTHETIC Ν. {act}/0001");
        let dir = sink.path(&format!("synthetic_{act:06}"));
        std::fs::create_dir(&dir).with_context(|| format!("creating {}", dir.display()))?;
        let path = dir.join("articles.jsonl");
        let mut file = std::io::BufWriter::new(
            std::fs::File::create(&path).with_context(|| format!("creating {}", path.display()))?,
        );
        for article in 1..=size {
            let mut heading = String::new();
            model.headings.sentence(draw, &mut heading);
            let n = draw.pick(&model.paragraphs_per_article);
            let want = draw.pick(&model.refs_per_article);
            let mut phrases = Vec::new();
            for _ in 0..want.min(size - 1) {
                let mut target = 1 + draw.below(size - 1);
                if target >= article {
                    target += 1;
                }
                phrases.push(format!("σύμφωνα με το άρθρο {target}"));
            }
            written.refs += phrases.len();
            for p in 1..=n {
                // The phrases go into the first paragraph, one a sentence.
                let mine = if p == 1 { &phrases[..] } else { &[] };
                let want = draw.pick(&model.words_per_paragraph);
                let line = json!({
                    "id": format!("{id}:art-{article}"),
                    "nomothetima_id": id,
                    "nomothetima": name,
                    "titlos_nomothetimatos": "SYNTHETIC TEXT, NOT LAW (nomos synth)",
                    "thematiki": "synthetic",
                    "arthro": article.to_string(),
                    "titlos_arthrou": heading,
                    "paragrafos": if n > 1 { p.to_string() } else { String::new() },
                    "keimeno": body(&model.chain, want, draw, mine),
                });
                serde_json::to_writer(&mut file, &line)?;
                file.write_all(b"\n")?;
            }
            sink.doc();
        }
        file.flush()?;
        let meta = json!({
            "id": id,
            "onoma": name,
            "titlos": "SYNTHETIC TEXT, NOT LAW: generated by nomos synth (see PROVENANCE.md)",
            "typos": "synthetic",
            "pigi_url": format!("{SYNTHETIC_PREFIX}nomos-synth"),
        });
        let path = dir.join("meta.json");
        std::fs::write(&path, serde_json::to_string_pretty(&meta)? + "\n")
            .with_context(|| format!("creating {}", path.display()))?;
        written.docs += size;
        written.acts += 1;
    }
    Ok(written)
}
