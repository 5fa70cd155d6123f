//! How often the citation parser (`nomos_core::cite`) resolves the
//! citations in the pools' own text to what the builder's reference
//! readers resolve them to: every explicit reference of the Danish acts and
//! the Greek Constitution, compared per citing article and cited § or
//! article. A citation that names no act is read as the citing act's own,
//! as the builder reads it. The figure is in docs/benchmarks/browser.md ("Citation
//! jump"); `cargo test -p nomos-index-builder cite_agreement -- --nocapture`
//! prints it.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use nomos_core::cite::{ActRef, CiteIndex, Lexicon};

use super::dataset::Dataset;
use super::{da_acts, syntagma};

/// The share the parser must reach (the goal is 0.99).
const FLOOR: f64 = 0.99;

/// `straffeloven_§244_stk2` → `straffeloven_§244`; `Syntagma::14` as is.
fn section_of(id: &str) -> &str {
    id.rsplit_once("_stk").map_or(id, |(s, _)| s)
}

/// (agreeing, builder's, parser's) pairs of citing article and cited §.
fn agreement(pool: &Dataset, body: impl Fn(&str) -> &str) -> (usize, usize, usize) {
    let sources: Vec<&str> = {
        let mut seen = Vec::new();
        for a in &pool.articles {
            if !seen.contains(&a.source.as_str()) {
                seen.push(a.source.as_str());
            }
        }
        seen
    };
    let info = |s: &str| pool.sources.iter().find(|i| i.source == s).map(|i| &i.info);
    let lexicon = Lexicon::new(sources.iter().map(|s| (*s, info(s))));
    let act_of: HashMap<&str, usize> = sources.iter().enumerate().map(|(i, s)| (*s, i)).collect();
    let index = CiteIndex::new(
        lexicon,
        pool.articles
            .iter()
            .map(|a| (a.id.as_str(), act_of[a.source.as_str()])),
    );
    let (mut agree, mut builder, mut parser) = (0, 0, 0);
    for a in &pool.articles {
        let own = act_of[a.source.as_str()];
        let own_section = section_of(&a.id);
        let theirs: BTreeSet<&str> = a
            .explicit_refs
            .iter()
            .map(|r| section_of(r))
            .filter(|s| *s != own_section)
            .collect();
        let mut ours = BTreeSet::new();
        for (citation, jumps) in index.jumps(body(&a.text), Some(own)) {
            // No act named: the citing act's own article, as the builder
            // reads it (not every act's).
            let named = !matches!(citation.act, ActRef::Any);
            for j in jumps.iter().filter(|j| named || j.act == own) {
                let id = &pool.articles[j.doc as usize].id;
                ours.insert(section_of(id).to_owned());
            }
        }
        ours.remove(own_section);
        builder += theirs.len();
        parser += ours.len();
        agree += theirs.iter().filter(|s| ours.contains(**s)).count();
    }
    (agree, builder, parser)
}

#[test]
fn the_parser_resolves_the_pools_in_text_citations_as_the_builder_does() {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data");
    let danish = da_acts::read_da_acts(&shared.join("da-statutes")).unwrap();
    // A stykke's own heading ("§ 244.") is not a citation.
    let da = agreement(&danish, |t| {
        t.strip_prefix('§')
            .and_then(|r| r.split_once(". "))
            .map_or(t, |(_, rest)| rest)
    });
    let greek = syntagma::read_syntagma(&shared.join("el-syntagma")).unwrap();
    let el = agreement(&greek, |t| t);
    let mut all = (0, 0, 0);
    for (name, (agree, builder, parser)) in [("da-statutes", da), ("el-syntagma", el)] {
        println!(
            "{name}: the parser finds {agree} of the builder's {builder} cited §§/articles ({:.2} %); it finds {parser} in all",
            100.0 * agree as f64 / builder as f64
        );
        all = (all.0 + agree, all.1 + builder, all.2 + parser);
    }
    let share = all.0 as f64 / all.1 as f64;
    println!("together: {} of {} ({:.2} %)", all.0, all.1, 100.0 * share);
    assert!(share >= FLOOR, "{share}");
}
