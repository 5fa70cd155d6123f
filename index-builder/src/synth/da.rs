//! Synthetic Danish acts in the Retsinformation JSON that `nomos build
//! --format da-acts` reads: one file per act, one provision per §, stykker
//! marked "Stk. N." as in the real files, so the builder chunks them the
//! same way (the act's title chunk, then one chunk per stykke).
//!
//! Drawn from the real acts (`da-statutes/`, read by the builder's own
//! reader): chunks per act, stykker per §, words per stykke, and resolved
//! references per stykke. References are written in the acts' own forms
//! ("jf. § 12", "jf. § 12, stk. 2") to other §§ of the same synthetic act,
//! the only references the reader resolves, so the built graph has about
//! the real number of edges per chunk.

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
use crate::sources::da_acts::{read_da_acts, SYNTHETIC_TYPE};

/// What the real acts say about their shape, and their words.
pub struct Model {
    chain: Chain,
    chunks_per_act: Vec<usize>,
    stykker_per_section: Vec<usize>,
    words_per_stykke: Vec<usize>,
    refs_per_stykke: Vec<usize>,
}

/// Reads the real acts in `dir`.
pub fn train(dir: &Path) -> Result<(Model, Real)> {
    let pool = read_da_acts(dir)?;
    let mut chunks: BTreeMap<&str, usize> = BTreeMap::new();
    let mut sections: BTreeMap<&str, usize> = BTreeMap::new();
    let (mut words, mut refs) = (Vec::new(), Vec::new());
    let mut training = Vec::new();
    let cites = |w: &str| w.contains('§') || w.to_lowercase().starts_with("stk");
    for a in &pool.articles {
        *chunks.entry(&a.source).or_default() += 1;
        // Stykke ids are `{act}_§{n}_stk{m}`; the rest are titles and
        // repealed ranges, not drawn.
        let Some(at) = a.id.rfind("_stk").filter(|_| a.id.contains("_§")) else {
            continue;
        };
        *sections.entry(&a.id[..at]).or_default() += 1;
        // The "§ 5." or "Stk. 2." heading is two words.
        let body: Vec<&str> = a.text.split_whitespace().skip(2).collect();
        words.push(body.len().max(1));
        refs.push(a.explicit_refs.len());
        training.extend(sentences(&body, &cites));
    }
    let chain = Chain::train(training);
    if chain.is_empty() {
        return Err(crate::error::bad_input(
            "the real pool has no sentence to train on",
        ));
    }
    let real = Real::new(&pool, refs.iter().sum(), words.len());
    let model = Model {
        chain,
        chunks_per_act: chunks.into_values().collect(),
        stykker_per_section: sections.into_values().collect(),
        words_per_stykke: words,
        refs_per_stykke: refs,
    };
    Ok((model, real))
}

/// Writes acts until `docs` chunks are written.
pub fn write(model: &Model, docs: usize, draw: &mut Draw, sink: &mut Sink) -> Result<Written> {
    let mut written = Written::default();
    let mut act = 0;
    while written.docs < docs {
        act += 1;
        let left = docs - written.docs;
        let size = draw
            .pick(&model.chunks_per_act)
            .clamp(2, left.max(2))
            .min(left);
        // The title is one chunk; the stykker make up the rest.
        let mut budget = size - 1;
        let mut plan = Vec::new();
        while budget > 0 {
            let n = draw.pick(&model.stykker_per_section).clamp(1, budget);
            plan.push(n);
            budget -= n;
        }
        let name = format!("synthetic{act:06}loven");
        let mut provisions = Vec::with_capacity(plan.len());
        for (i, &stykker) in plan.iter().enumerate() {
            let mut content = String::new();
            for stk in 1..=stykker {
                if stk == 1 {
                    content.push_str(&format!("§ {}.", i + 1));
                } else {
                    content.push_str(&format!(" Stk. {stk}."));
                }
                let n_refs = draw.pick(&model.refs_per_stykke);
                let cited = references(&plan, i, n_refs, draw);
                written.refs += cited.resolved;
                let n_words = draw.pick(&model.words_per_stykke);
                let body = body(&model.chain, n_words, draw, &cited.phrases);
                content.push(' ');
                content.push_str(&body);
                sink.doc();
            }
            provisions.push(json!({
                "provision_ref": format!("1:{}", i + 1),
                "chapter": "1",
                "section": (i + 1).to_string(),
                "content": content,
            }));
        }
        sink.doc();
        written.docs += size;
        written.acts += 1;
        let doc = json!({
            "id": format!("synthetic:{act}"),
            "type": SYNTHETIC_TYPE,
            "title": format!("Bekendtgørelse af SYNTHETIC TEXT, NOT LAW, made by nomos synth ({name})"),
            "short_name": "SYNTHETIC",
            "status": "synthetic",
            "issued_date": "0001-01-01",
            "url": "",
            "description": "Synthetic text generated by `nomos synth` (see PROVENANCE.md). Not law.",
            "provisions": provisions,
        });
        let path = sink.path(&format!("synthetic_{act:06}.json"));
        let mut file = std::io::BufWriter::new(
            std::fs::File::create(&path).with_context(|| format!("creating {}", path.display()))?,
        );
        serde_json::to_writer_pretty(&mut file, &doc)?;
        file.write_all(b"\n")?;
        file.flush()?;
    }
    Ok(written)
}

/// The reference phrases of one stykke and how many stykker they resolve to.
struct Cited {
    phrases: Vec<String>,
    resolved: usize,
}

/// Phrases citing about `want` stykker of the other §§ of the act (`plan`:
/// stykker per §; `own`: the citing §'s index): a whole § when it fits in
/// what is left, else one stykke. Targets are distinct, so each phrase adds
/// its stykker to the graph.
fn references(plan: &[usize], own: usize, want: usize, draw: &mut Draw) -> Cited {
    let mut cited = Cited {
        phrases: Vec::new(),
        resolved: 0,
    };
    let mut used = std::collections::BTreeSet::new();
    let mut tries = 0;
    while cited.resolved < want && plan.len() > 1 && tries < 4 * want {
        tries += 1;
        let section = draw.below(plan.len());
        if section == own {
            continue;
        }
        let left = want - cited.resolved;
        let whole = plan[section] <= left && draw.chance(0.5);
        let (phrase, n) = if whole && !used.iter().any(|&(s, _)| s == section) {
            used.insert((section, 0));
            (format!("jf. § {}", section + 1), plan[section])
        } else {
            let stk = 1 + draw.below(plan[section]);
            if used.contains(&(section, 0)) || !used.insert((section, stk)) {
                continue;
            }
            (format!("jf. § {}, stk. {stk}", section + 1), 1)
        };
        cited.phrases.push(phrase);
        cited.resolved += n;
    }
    cited
}
