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
//! that number and year, or, when the pool lacks that version, the named
//! act as if cited by name alone. An executive order is named by its title
//! too ("§ 2 i bekendtgørelse om plantesortsnavne"). A popular name that no
//! document carries is taken from the titles and texts that give it in
//! brackets after the act's title, else derived from the titles where
//! exactly one fits ([`popular`]). Names compare with a coordinating hyphen
//! dropped ("klage- og erstatningsadgang" is "klage og erstatningsadgang").

use std::collections::{BTreeMap, HashMap};

use super::chunker::SectionKey;
use super::popular;
use super::refs::{Foreign, LawRef, Target, NAME_TEXT};
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
    /// Its title, lowercase: an amending act's names the popular names of
    /// the acts it amends ("lov om ændring af lov om indkomstbeskatning af
    /// aktieselskaber m.v. (selskabsskatteloven)").
    pub title: String,
    /// Its stykke ids per § and stykke number.
    pub stykker: BTreeMap<SectionKey, BTreeMap<u32, String>>,
    /// The index of its first article (its title chunk) in the pool.
    pub first: usize,
    /// Its articles' citations of other acts: (index in the pool, chains).
    pub cites: Vec<(usize, Vec<Foreign>)>,
}

impl Doc {
    /// Whether it is an amending act: the source holds the clauses it puts
    /// into other acts, numbered as there, not its own §§, so "§ 6 i lov nr.
    /// 1631 af 26. december 2013" has nothing to resolve to.
    fn amends(&self) -> bool {
        self.title.starts_with("lov om ændring")
    }
}

/// Adds every resolved citation to the citing article's explicit
/// references, and each cited act's executive orders to its title chunk's.
pub fn resolve(articles: &mut [Article], docs: &[Doc]) {
    let lookup = Lookup::new(docs, articles);
    let mut issued_under: Vec<Vec<usize>> = vec![Vec::new(); docs.len()];
    for (d, doc) in docs.iter().enumerate() {
        let the_act = lookup.the_act(d, doc);
        for (article, chains) in &doc.cites {
            let mut ids = Vec::new();
            for chain in chains {
                let Some(target) = lookup.law(doc, &chain.law, the_act) else {
                    continue;
                };
                // "lovens § 12" in an act is its own § 12, which its own
                // references hold, or, in an amending act, the amended act's
                // (unknown here); a citation naming the act itself ("§ 83 i
                // lov om so\u{200c}cial service" in that act) is resolved.
                if target == d && chain.law == LawRef::TheAct || docs[target].amends() {
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
fn derive_popular_names(docs: &[Doc], by_name: &mut HashMap<String, Vec<usize>>) {
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
        .filter(|name| name.ends_with("loven") && !by_name.contains_key(*name))
        .collect();
    unknown.sort_unstable();
    unknown.dedup();
    let mut titles: Vec<&str> = by_name
        .keys()
        .map(String::as_str)
        .filter(|name| name.starts_with("lov om "))
        .collect();
    titles.sort_unstable();
    let found: Vec<(String, Vec<usize>)> = unknown
        .into_iter()
        .filter_map(|name| {
            let title = popular::title_of(name, &titles)?;
            Some((name.to_owned(), by_name[title].clone()))
        })
        .collect();
    by_name.extend(found);
}

/// Adds the popular names that titles and texts (lowercase) give in
/// brackets after an act's title ("… lov om indkomstbeskatning af
/// aktieselskaber m.v. (selskabsskatteloven), lov om …", "lov om
/// planlægning (planloven)"), where no document carries the name itself:
/// each with the documents of the title most often given with it, when
/// that title is an act's name in the pool and no other ties with it.
fn popular_names_in_texts(
    written: impl Iterator<Item = String>,
    by_name: &mut HashMap<String, Vec<usize>>,
) {
    let mut votes: HashMap<String, HashMap<String, usize>> = HashMap::new();
    for text in written {
        for (popular, title) in bracketed_names(&text) {
            if !by_name.contains_key(popular) && by_name.contains_key(&title) {
                let titles = votes.entry(popular.to_owned()).or_default();
                *titles.entry(title).or_default() += 1;
            }
        }
    }
    let mut found = Vec::new();
    for (popular, titles) in votes {
        let most = titles.values().copied().max().unwrap_or(0);
        let mut top = titles.into_iter().filter(|&(_, n)| n == most);
        if let (Some((title, _)), None) = (top.next(), top.next()) {
            found.push((popular, by_name[&title].clone()));
        }
    }
    by_name.extend(found);
}

/// The popular names in brackets in a lowercase title or text, each with
/// the act's title just before it (the last "lov om …" of the
/// [`NAME_TEXT`] bytes there, as [`name_key`] writes it, without "m.v."):
/// `("selskabsskatteloven", "lov om indkomstbeskatning af
/// aktieselskaber")`.
fn bracketed_names(title: &str) -> Vec<(&str, String)> {
    let mut out = Vec::new();
    for (open, _) in title.match_indices('(') {
        let inner = &title[open + 1..];
        let Some(close) = inner.find(')') else {
            continue;
        };
        let popular = &inner[..close];
        if !popular.ends_with("loven") || !popular.chars().all(char::is_alphabetic) {
            continue;
        }
        // Some titles hold a backslash and an "n" where a line broke.
        let mut from = open.saturating_sub(NAME_TEXT);
        while !title.is_char_boundary(from) {
            from += 1;
        }
        let before = title[from..open].trim_end();
        let before = before.strip_suffix("\\n").unwrap_or(before).trim_end();
        let Some(start) = before.rfind("lov om ") else {
            continue;
        };
        let act = &before[start..];
        let act = act.strip_suffix(" m.v.").unwrap_or(act);
        out.push((popular, name_key(act)));
    }
    out
}

/// A name as names compare: a coordinating hyphen dropped ("klage- og
/// erstatningsadgang", "klage og erstatningsadgang"), "bekendtgørelsen om"
/// as "bekendtgørelse om".
fn name_key(name: &str) -> String {
    let name = name.replace("- og ", " og ").replace("- eller ", " eller ");
    match name.strip_prefix("bekendtgørelsen ") {
        Some(rest) => format!("bekendtgørelse {rest}"),
        None => name,
    }
}

/// The pool's documents by number and by name.
struct Lookup<'a> {
    docs: &'a [Doc],
    by_number: HashMap<(u32, u16), usize>,
    /// Each name's documents oldest first, names as [`name_key`] writes
    /// them.
    by_name: HashMap<String, Vec<usize>>,
}

impl<'a> Lookup<'a> {
    fn new(docs: &'a [Doc], articles: &[Article]) -> Lookup<'a> {
        let by_number = docs
            .iter()
            .enumerate()
            .map(|(d, doc)| ((doc.doc_ref.number, doc.doc_ref.year), d))
            .collect();
        let mut by_name: HashMap<String, Vec<usize>> = HashMap::new();
        for (d, doc) in docs.iter().enumerate() {
            // An executive order by its title only: one titled "bekendtgørelse
            // af lov om …" is no version of that act.
            let named = NAMED_KINDS.contains(&doc.doc_ref.kind.as_str());
            for name in &doc.names {
                if named || name.starts_with("bekendtgørelse ") {
                    by_name.entry(name_key(name)).or_default().push(d);
                }
            }
        }
        for list in by_name.values_mut() {
            list.sort_by(|&a, &b| docs[a].date.cmp(&docs[b].date).then(a.cmp(&b)));
            list.dedup();
        }
        let texts = articles
            .iter()
            .map(|a| a.text.as_str())
            .filter(|t| t.contains("loven)") || t.contains("Loven)"))
            .map(str::to_lowercase);
        let written = docs.iter().map(|d| d.title.clone()).chain(texts);
        popular_names_in_texts(written, &mut by_name);
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
            LawRef::Named { text, number } => match number.and_then(|n| self.by_number.get(&n)) {
                Some(&d) => Some(d),
                None => self.named(citing, text),
            },
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
            LawRef::Named { text, number }
                if !number.is_some_and(|n| self.by_number.contains_key(&n)) =>
            {
                self.named_list(text)
            }
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
        let text = &name_key(text);
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
                let named = NAMED_KINDS.contains(&self.docs[target].doc_ref.kind.as_str());
                if target != d && named {
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
        kind_doc("LBK", title, number, year, date, sections)
    }

    /// A document of `kind` with two stykker in each of `sections`.
    fn kind_doc(
        kind: &str,
        title: &str,
        number: u32,
        year: u16,
        date: &str,
        sections: &[&str],
    ) -> Doc {
        let doc_ref = DocRef::new(kind, year, number).unwrap();
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
            title: title.to_lowercase(),
            stykker,
            first: 0,
            cites: Vec::new(),
        }
    }

    /// The citing act `short`, shown as `display`, of title `title`.
    fn act_named(short: &str, display: &str, title: &str) -> Act {
        Act {
            short: short.into(),
            display: display.into(),
            abbreviation: None,
            own_names: own_names(&bare_title(title)),
        }
    }

    /// Resolves `text`, one stykke of an executive order of 2009, against
    /// `acts`; the stykke's explicit references outside it.
    fn resolved(text: &str, acts: Vec<Doc>) -> Vec<String> {
        resolved_beside(text, acts, "")
    }

    /// As [`resolved`], with `beside` the text of another stykke of the pool.
    fn resolved_beside(text: &str, acts: Vec<Doc>, beside: &str) -> Vec<String> {
        let title = "Bekendtgørelse om iværksættelse af fængselsstraf";
        let act = act_named("BEK-2009-625", "BEK nr. 625 af 2009", title);
        let (_, foreign) = cross_references(text, &act);
        let mut docs = acts;
        docs.push(Doc {
            doc_ref: DocRef::new("BEK", 2009, 625).unwrap(),
            date: "2009-06-25".into(),
            names: act.own_names.clone(),
            title: title.to_lowercase(),
            stykker: BTreeMap::new(),
            first: docs.len(),
            cites: vec![(docs.len() + 1, foreign)],
        });
        for (d, doc) in docs.iter_mut().enumerate() {
            doc.first = d;
        }
        let mut articles: Vec<Article> = (0..=docs.len()).map(|_| Article::default()).collect();
        articles[0].text = beside.into();
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
        // With the act in the pool, a text that gives the name in brackets
        // after its title makes it the act's.
        let with_it = || {
            let mut acts = acts();
            acts.push(act_doc(
                "Bekendtgørelse af lov om planlægning",
                572,
                2024,
                "2024-05-29",
                &["29c"],
            ));
            acts
        };
        assert!(resolved(text, with_it()).is_empty());
        let beside = "Tilladelse efter lov om planlægning (planloven) kræves.";
        assert_eq!(
            resolved_beside(text, with_it(), beside),
            ["LBK-2024-572_§29c_stk1", "LBK-2024-572_§29c_stk2"]
        );
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
    fn an_executive_order_is_cited_by_its_title() {
        // BEK-2015-1549 § 41, stk. 5, and BEK-2024-1606 § 64, stk. 2.
        let orders = || {
            vec![kind_doc(
                "BEK",
                "Bekendtgørelse om plantesortsnavne",
                942,
                2015,
                "2015-08-11",
                &["2"],
            )]
        };
        let both = ["BEK-2015-942_§2_stk1", "BEK-2015-942_§2_stk2"];
        let text =
            "Forslag til betegnelse godkendes efter § 2 i bekendtgørelse om plantesortsnavne.";
        assert_eq!(resolved(text, orders()), both);
        let text = "Forslaget godkendes efter § 2 i bekendtgørelsen om plantesortsnavne.";
        assert_eq!(resolved(text, orders()), both);
        // An order titled as an act is no version of it.
        let acts = vec![kind_doc(
            "BEK",
            "Bekendtgørelse af lov om skove",
            1,
            2000,
            "2000-01-01",
            &["17"],
        )];
        assert!(resolved("Efter § 17 i lov om skove.", acts).is_empty());
    }

    #[test]
    fn the_act_in_an_executive_order_is_the_act_it_cites_most() {
        // BEK-2011-1409 § 6, stk. 1: "jf. § 74 i loven".
        let acts = vec![act_doc(
            "Bekendtgørelse af lov om arbejdsløshedsforsikring m.v.",
            642,
            2009,
            "2009-06-22",
            &["3", "74"],
        )];
        let text = "Efter § 3 i lov om arbejdsløshedsforsikring kan fristen tidligst løbe fra \
                    efterlønsalderen, jf. § 74 i loven.";
        assert_eq!(
            resolved(text, acts),
            [
                "LBK-2009-642_§3_stk1",
                "LBK-2009-642_§3_stk2",
                "LBK-2009-642_§74_stk1",
                "LBK-2009-642_§74_stk2"
            ]
        );
    }

    #[test]
    fn an_act_cited_by_a_number_the_pool_lacks_is_found_by_its_name() {
        // LOV-2016-1661 § 1: the consolidation of 2004 is not in the pool,
        // that of 2022 is.
        let acts = vec![act_doc(
            "Bekendtgørelse af lov om dansk indfødsret",
            1656,
            2022,
            "2022-12-23",
            &["8"],
        )];
        let text = "Indfødsretten kan fortabes i henhold til § 8 i lov om dansk indfødsret, jf. \
                    lovbekendtgørelse nr. 422 af 7. juni 2004.";
        assert_eq!(
            resolved(text, acts),
            ["LBK-2022-1656_§8_stk1", "LBK-2022-1656_§8_stk2"]
        );
    }

    #[test]
    fn an_amending_act_cited_by_number_resolves_to_nothing() {
        // BEK 2011:62 § 42, stk. 5: an executive order by number.
        let orders = vec![kind_doc(
            "BEK",
            "Bekendtgørelse om eftersyn af kedel- og varmeanlæg i bygninger",
            438,
            2008,
            "2008-06-03",
            &["11"],
        )];
        let text =
            "Anlæg efter § 11 i bekendtgørelse nr. 438 af 3. juni 2008, skal ikke energisynes.";
        assert_eq!(
            resolved(text, orders),
            ["BEK-2008-438_§11_stk1", "BEK-2008-438_§11_stk2"]
        );
        // LOV 2014:1520 § 143: the amending act's § 6 is not in the
        // source; its "§ 6" there is a clause of another act.
        let amending = vec![kind_doc(
            "LOV",
            "Lov om ændring af lov om vandforsyning m.v. og lov om råstoffer",
            1631,
            2013,
            "2013-12-26",
            &["6"],
        )];
        let text = "I lov om råstoffer, som ændret ved § 6 i lov nr. 1631 af 26. december 2013, \
                    foretages følgende ændringer.";
        assert!(resolved(text, amending).is_empty());
    }

    #[test]
    fn names_compare_without_a_coordinating_hyphen() {
        // BEK-2015-547 § 12, stk. 1, and LBK-2024-962's title.
        let acts = vec![act_doc(
            "Bekendtgørelse af lov om klage- og erstatningsadgang inden for sundhedsvæsenet",
            962,
            2024,
            "2024-08-16",
            &["5a"],
        )];
        let text = "Afgørelsen kan indbringes for Patientombuddet, jf. § 5 a i lov om klage og \
                    erstatningsadgang inden for sundhedsvæsenet.";
        assert_eq!(
            resolved(text, acts),
            ["LBK-2024-962_§5a_stk1", "LBK-2024-962_§5a_stk2"]
        );
    }

    #[test]
    fn a_popular_name_an_amending_act_gives_in_brackets_names_that_act() {
        // LBK-2025-279 § 32, stk. 4, "selskabsskattelovens § 32"; the act's
        // own title has no popular name, an amending act's has.
        let acts = vec![
            act_doc(
                "Bekendtgørelse af lov om indkomstbeskatning af aktieselskaber m.v.",
                680,
                2015,
                "2015-05-20",
                &["32"],
            ),
            kind_doc(
                "LOV",
                "Lov om ændring af lov om indkomstbeskatning af aktieselskaber m.v. \
                 (selskabsskatteloven), lov om beskatning af fortjeneste ved afståelse af aktier \
                 m.v. og forskellige andre love",
                1,
                2016,
                "2016-01-01",
                &[],
            ),
        ];
        let text = "Indkomsten medregnes efter reglerne i selskabsskattelovens § 32.";
        assert_eq!(
            resolved(text, acts),
            ["LBK-2015-680_§32_stk1", "LBK-2015-680_§32_stk2"]
        );
        assert_eq!(
            bracketed_names("lov om x m.v.\\n(xloven), lov om y (yloven) (ændring)"),
            [
                ("xloven", "lov om x".to_owned()),
                ("yloven", "lov om y".to_owned())
            ]
        );
    }

    #[test]
    fn a_citation_naming_the_citing_act_resolves_in_it_and_lovens_does_not() {
        // LBK-2020-1287 § 137 d, stk. 1, names itself with a U+200C inside.
        let title = "Bekendtgørelse af lov om social service";
        let act = act_named("LBK-2020-1287", "Serviceloven", title);
        let cited = |text: &str| {
            let (_, foreign) = cross_references(text, &act);
            let mut doc = act_doc(title, 1287, 2020, "2020-08-28", &["83"]);
            doc.cites = vec![(1, foreign)];
            let mut articles = vec![Article::default(), Article::default()];
            resolve(&mut articles, &[doc]);
            articles.pop().unwrap().explicit_refs
        };
        assert_eq!(
            cited("Hjælp efter § 83 i lov om so\u{200c}cial service henhører under kommunen."),
            ["LBK-2020-1287_§83_stk1", "LBK-2020-1287_§83_stk2"]
        );
        // "lovens" is left to the act's own references: in an amending act
        // it is the act amended.
        assert!(cited("Hjælp efter lovens § 83 ydes af kommunen.").is_empty());
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
