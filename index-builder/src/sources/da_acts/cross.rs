//! Citations across the documents of the `da-law` pool, resolved once every
//! document is read: "§ 5 i lov om social service", "§ 10, jf.
//! lovbekendtgørelse nr. 1129 af 22. september 2025", "straffelovens § 74
//! a", and in an executive order "lovens § 12" (the act it cites most by
//! name or number, which it is issued under). Each becomes explicit
//! references to the stykker named; and the title chunk of a cited act lists
//! the title chunks of the executive orders that cite it.
//!
//! An act named by its title or popular name is the newest document of that
//! name issued on or before the citing one (the seed holds earlier
//! consolidations too), else the newest; by number, the one document with
//! that number and year. A popular name that no document carries is derived
//! from the titles where exactly one fits ([`popular`]).

use std::collections::{BTreeMap, HashMap};

use super::chunker::SectionKey;
use super::popular;
use super::refs::{Foreign, LawRef, Target};
use super::Article;
use nomos_core::eli::DocRef;

/// Types whose names other documents cite them by.
const NAMED_KINDS: [&str; 2] = ["LBK", "LOV"];

/// One document, as citations into it and out of it need it.
#[derive(Debug)]
pub struct Doc {
    pub doc_ref: DocRef,
    /// `YYYY-MM-DD`.
    pub date: String,
    /// Lowercase names it is cited by (titles, popular names, abbreviations).
    pub names: Vec<String>,
    /// Its stykke ids per § and stykke number.
    pub stykker: BTreeMap<SectionKey, BTreeMap<u32, String>>,
    /// The index of its first article (its title chunk) in the pool.
    pub first: usize,
    /// Its articles' citations of other acts: (index in the pool, chains).
    pub cites: Vec<(usize, Vec<Foreign>)>,
}

/// Adds every resolved citation to the citing article's explicit
/// references, and each cited act's executive orders to its title chunk's.
pub fn resolve(articles: &mut [Article], docs: &[Doc]) {
    let lookup = Lookup::new(docs);
    let mut issued_under: Vec<Vec<usize>> = vec![Vec::new(); docs.len()];
    for (d, doc) in docs.iter().enumerate() {
        let the_act = lookup.the_act(d, doc);
        for (article, chains) in &doc.cites {
            let mut ids = Vec::new();
            for chain in chains {
                let Some(target) = lookup.law(doc, &chain.law, the_act) else {
                    continue;
                };
                if target == d {
                    continue;
                }
                // A § an amendment added after the version chosen ("§ 83, stk.
                // 2-5, og § 83 b i lov om værdipapirhandel"): the oldest newer
                // version that has it.
                let newer = lookup.newer(doc, &chain.law);
                for cited in chain.targets.chunks(1) {
                    let found = std::iter::once(target)
                        .chain(newer.iter().copied().filter(|&t| t != d))
                        .map(|t| stykker(&docs[t], cited))
                        .find(|ids| !ids.is_empty());
                    ids.extend(found.unwrap_or_default());
                }
                if doc.doc_ref.kind == "BEK"
                    && NAMED_KINDS.contains(&docs[target].doc_ref.kind.as_str())
                {
                    issued_under[target].push(d);
                }
            }
            add(&mut articles[*article].explicit_refs, ids);
        }
    }
    for (target, mut beks) in issued_under.into_iter().enumerate() {
        beks.sort_unstable();
        beks.dedup();
        let ids = beks
            .iter()
            .map(|&b| articles[docs[b].first].id.clone())
            .collect();
        add(&mut articles[docs[target].first].explicit_refs, ids);
    }
}

/// Adds `ids` to a context list, which stays sorted as strings and free of
/// repeats.
fn add(list: &mut Vec<String>, ids: Vec<String>) {
    if ids.is_empty() {
        return;
    }
    list.extend(ids);
    list.sort();
    list.dedup();
}

/// The stykke ids of `targets` in `doc`; a bare stykke ("stk. 2 i lov om
/// …") names no § and resolves to nothing.
fn stykker(doc: &Doc, targets: &[Target]) -> Vec<String> {
    let mut out = Vec::new();
    for target in targets {
        match target {
            Target::Sections { from, to } if from <= to => {
                for ids in doc.stykker.range(from.clone()..=to.clone()).map(|(_, s)| s) {
                    out.extend(ids.values().cloned());
                }
            }
            Target::Stykker {
                section: Some(section),
                from,
                to,
            } if from <= to => {
                if let Some(ids) = doc.stykker.get(section) {
                    out.extend(ids.range(*from..=*to).map(|(_, id)| id.clone()));
                }
            }
            Target::Sections { .. } | Target::Stykker { .. } => {}
        }
    }
    out
}

/// Adds the popular names the documents cite ("straffuldbyrdelseslovens
/// §", "§ 48 i arbejdsskadesikringsloven") but no document carries, each
/// with the documents of the one title it fits.
fn derive_popular_names<'a>(docs: &'a [Doc], by_name: &mut HashMap<&'a str, Vec<usize>>) {
    let mut unknown: Vec<&str> = docs
        .iter()
        .flat_map(|doc| doc.cites.iter().flat_map(|(_, chains)| chains))
        .filter_map(|chain| match &chain.law {
            LawRef::Genitive(name) => Some(name.as_str()),
            LawRef::Named { text, number: None } => text
                .split(|c: char| !c.is_alphanumeric() && c != '-')
                .next(),
            _ => None,
        })
        .filter(|name| name.ends_with("loven") && !by_name.contains_key(name))
        .collect();
    unknown.sort_unstable();
    unknown.dedup();
    let mut titles: Vec<&str> = by_name
        .keys()
        .copied()
        .filter(|name| name.starts_with("lov om "))
        .collect();
    titles.sort_unstable();
    for name in unknown {
        if let Some(title) = popular::title_of(name, &titles) {
            let list = by_name[title].clone();
            by_name.insert(name, list);
        }
    }
}

/// The pool's documents by number and by name.
struct Lookup<'a> {
    docs: &'a [Doc],
    by_number: HashMap<(u32, u16), usize>,
    /// Named kinds only, each name's documents oldest first.
    by_name: HashMap<&'a str, Vec<usize>>,
}

impl<'a> Lookup<'a> {
    fn new(docs: &'a [Doc]) -> Lookup<'a> {
        let by_number = docs
            .iter()
            .enumerate()
            .map(|(d, doc)| ((doc.doc_ref.number, doc.doc_ref.year), d))
            .collect();
        let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
        for (d, doc) in docs.iter().enumerate() {
            if NAMED_KINDS.contains(&doc.doc_ref.kind.as_str()) {
                for name in &doc.names {
                    by_name.entry(name).or_default().push(d);
                }
            }
        }
        for list in by_name.values_mut() {
            list.sort_by(|&a, &b| docs[a].date.cmp(&docs[b].date).then(a.cmp(&b)));
            list.dedup();
        }
        derive_popular_names(docs, &mut by_name);
        Lookup {
            docs,
            by_number,
            by_name,
        }
    }

    /// The document a citation in `citing` names.
    fn law(&self, citing: &Doc, law: &LawRef, the_act: Option<usize>) -> Option<usize> {
        match law {
            LawRef::Numbered { number, year } => self.by_number.get(&(*number, *year)).copied(),
            LawRef::Named {
                number: Some((number, year)),
                ..
            } => self.by_number.get(&(*number, *year)).copied(),
            LawRef::Named { text, number: None } => self.named(citing, text),
            LawRef::Genitive(name) => self.newest(citing, self.by_name.get(name.as_str())?),
            LawRef::TheAct => the_act,
        }
    }

    /// The documents of the longest name that starts `text` (whole words).
    fn named(&self, citing: &Doc, text: &str) -> Option<usize> {
        self.newest(citing, self.named_list(text)?)
    }

    /// The versions of a named act newer than the one [`Lookup::law`]
    /// chooses, oldest first; none for an act cited by number.
    fn newer(&self, citing: &Doc, law: &LawRef) -> &[usize] {
        let list = match law {
            LawRef::Named { text, number: None } => self.named_list(text),
            LawRef::Genitive(name) => self.by_name.get(name.as_str()).map(Vec::as_slice),
            _ => None,
        };
        let Some(list) = list else {
            return &[];
        };
        match list.iter().rposition(|&d| self.docs[d].date <= citing.date) {
            Some(chosen) => &list[chosen + 1..],
            None => &[],
        }
    }

    /// The documents, oldest first, of the longest name that starts `text`.
    fn named_list(&self, text: &str) -> Option<&[usize]> {
        let ends = text
            .char_indices()
            .filter(|&(_, c)| !c.is_alphanumeric() && c != '-')
            .map(|(i, _)| i)
            .chain(std::iter::once(text.len()));
        let mut best = None;
        for end in ends {
            if let Some(list) = self.by_name.get(&text[..end]) {
                best = Some(list.as_slice());
            }
        }
        best
    }

    /// Of `list` (oldest first), the newest issued on or before `citing`,
    /// else the newest.
    fn newest(&self, citing: &Doc, list: &[usize]) -> Option<usize> {
        list.iter()
            .rev()
            .find(|&&d| self.docs[d].date <= citing.date)
            .or(list.last())
            .copied()
    }

    /// What "lovens" means in document `d`: itself in an act, and in an
    /// executive order the act it cites most by name or number.
    fn the_act(&self, d: usize, doc: &Doc) -> Option<usize> {
        if NAMED_KINDS.contains(&doc.doc_ref.kind.as_str()) {
            return Some(d);
        }
        let mut counts: HashMap<usize, usize> = HashMap::new();
        for chain in doc.cites.iter().flat_map(|(_, chains)| chains) {
            if let Some(target) = self.law(doc, &chain.law, None) {
                if target != d {
                    *counts.entry(target).or_default() += 1;
                }
            }
        }
        counts
            .into_iter()
            .max_by_key(|&(target, n)| (n, std::cmp::Reverse(target)))
            .map(|(target, _)| target)
    }
}

#[cfg(test)]
mod tests {
    use super::super::acts::{bare_title, own_names, Act};
    use super::super::refs::cross_references;
    use super::*;

    /// An act's document with two stykker in each of `sections`.
    fn act_doc(title: &str, number: u32, year: u16, date: &str, sections: &[&str]) -> Doc {
        let doc_ref = DocRef::new("LBK", year, number).unwrap();
        let mut stykker = BTreeMap::new();
        for &section in sections {
            let key = SectionKey::parse(section).unwrap();
            let ids = (1..=2)
                .map(|n| (n, format!("{doc_ref}_§{}_stk{n}", key.id_part())))
                .collect();
            stykker.insert(key, ids);
        }
        Doc {
            doc_ref,
            date: date.into(),
            names: own_names(&bare_title(title)),
            stykker,
            first: 0,
            cites: Vec::new(),
        }
    }

    /// Resolves `text`, one stykke of an executive order of 2009, against
    /// `acts`; the stykke's explicit references outside it.
    fn resolved(text: &str, acts: Vec<Doc>) -> Vec<String> {
        let title = "Bekendtgørelse om iværksættelse af fængselsstraf";
        let act = Act {
            short: "BEK-2009-625".into(),
            display: "BEK nr. 625 af 2009".into(),
            abbreviation: None,
            own_names: own_names(&bare_title(title)),
        };
        let (_, foreign) = cross_references(text, &act);
        let mut docs = acts;
        docs.push(Doc {
            doc_ref: DocRef::new("BEK", 2009, 625).unwrap(),
            date: "2009-06-25".into(),
            names: act.own_names.clone(),
            stykker: BTreeMap::new(),
            first: docs.len(),
            cites: vec![(docs.len() + 1, foreign)],
        });
        for (d, doc) in docs.iter_mut().enumerate() {
            doc.first = d;
        }
        let mut articles: Vec<Article> = (0..=docs.len()).map(|_| Article::default()).collect();
        resolve(&mut articles, &docs);
        articles.pop().unwrap().explicit_refs
    }

    #[test]
    fn a_popular_name_no_title_carries_resolves_to_the_one_title_it_fits() {
        // BEK-2009-625 § 19, stk. 1, and LBK-2019-1333's title.
        let acts = || {
            vec![
                act_doc(
                    "Bekendtgørelse af lov om fuldbyrdelse af straf m.v.",
                    1333,
                    2019,
                    "2019-11-29",
                    &["8"],
                ),
                act_doc(
                    "Bekendtgørelse af lov om planter og plantesundhed",
                    5,
                    2019,
                    "2019-01-01",
                    &["29c"],
                ),
            ]
        };
        let text = "Den dømte skal modtages i afsoningsinstitutionen, jf. \
                    straffuldbyrdelseslovens § 8, stk. 2.";
        assert_eq!(resolved(text, acts()), ["LBK-2019-1333_§8_stk2"]);
        // BEK-2016-943 § 12, stk. 1: "planlovens § 29 c" is lov om
        // planlægning, which the pool here lacks; no other act fits.
        let text = "Klage over afgørelser efter planlovens § 29 c kan indbringes.";
        assert!(resolved(text, acts()).is_empty());
    }

    #[test]
    fn a_paragraph_the_version_chosen_lacks_is_taken_from_the_oldest_newer_version() {
        // The reference of BEK-2011-1058 § 12, stk. 6; the version before
        // the citing order has no § 175 a yet, two later ones have.
        let title = "Bekendtgørelse af lov om finansiel virksomhed";
        let acts = vec![
            act_doc(title, 885, 2008, "2008-08-08", &["175"]),
            act_doc(title, 948, 2010, "2010-10-04", &["175", "175a"]),
            act_doc(title, 182, 2014, "2014-03-05", &["175", "175a"]),
        ];
        let text = "Tilsynet kan påbyde efter § 175 a i lov om finansiel virksomhed.";
        assert_eq!(
            resolved(text, acts),
            ["LBK-2010-948_§175a_stk1", "LBK-2010-948_§175a_stk2"]
        );
        // Each § of a chain on its own: § 175 from the version chosen.
        let acts = vec![
            act_doc(title, 885, 2008, "2008-08-08", &["175"]),
            act_doc(title, 948, 2010, "2010-10-04", &["175", "175a"]),
        ];
        let text = "jf. § 175, og § 175 a i lov om finansiel virksomhed.";
        assert_eq!(
            resolved(text, acts),
            [
                "LBK-2008-885_§175_stk1",
                "LBK-2008-885_§175_stk2",
                "LBK-2010-948_§175a_stk1",
                "LBK-2010-948_§175a_stk2"
            ]
        );
        // An act cited by number is that version or nothing.
        let acts = vec![
            act_doc(title, 885, 2008, "2008-08-08", &["175"]),
            act_doc(title, 948, 2010, "2010-10-04", &["175", "175a"]),
        ];
        let text = "§ 175 a i lov om finansiel virksomhed, jf. lovbekendtgørelse nr. 885 af 8. august 2008.";
        assert!(resolved(text, acts).is_empty());
    }

    #[test]
    fn a_zero_width_character_inside_a_name_is_no_part_of_it() {
        // LBK-2020-1287 § 137 d, stk. 1, as the data writes it.
        let acts = vec![act_doc(
            "Bekendtgørelse af lov om social service",
            1287,
            2020,
            "2020-08-28",
            &["83"],
        )];
        let text = "Hjælp efter § 83 i lov om so\u{200c}cial service henhører under kommunen.";
        assert_eq!(
            resolved(text, acts),
            ["LBK-2020-1287_§83_stk1", "LBK-2020-1287_§83_stk2"]
        );
    }
}
