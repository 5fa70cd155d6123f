//! The parser on sentences taken from the acts in `../shared/data/da-statutes/`.

use super::*;
use crate::sources::da_acts::acts::identify;

fn almen() -> Act {
    identify("Bekendtgørelse af lov om almene boliger m.v.").unwrap()
}

fn key(s: &str) -> SectionKey {
    SectionKey::parse(s).unwrap()
}

fn whole(from: &str, to: &str) -> Target {
    Target::Sections {
        from: key(from),
        to: key(to),
    }
}

fn stk(section: Option<&str>, from: u32, to: u32) -> Target {
    Target::Stykker {
        section: section.map(key),
        from,
        to,
    }
}

#[test]
fn same_law_references_in_almenboligloven() {
    let act = almen();
    // § 91, stk. 5: the other act named is the older consolidation of this
    // act itself, which CRAwLeR resolves.
    assert_eq!(
        references(
            "Landsbyggefonden kan af de midler, der er overført til landsdispositionsfonden, \
             jf. § 89, inden for en investeringsramme på 6.464 mio. kr. i 2021 give tilsagn. \
             For tilsagn efter 1. pkt. finder betingelserne i § 91, stk. 2-11, i lov om almene \
             boliger m.v., jf. lovbekendtgørelse nr. 1203 af 3. august 2020, anvendelse.",
            &act
        ),
        [whole("89", "89"), stk(Some("91"), 2, 11)]
    );
    // § 91, stk. 12 and § 96 b.
    assert_eq!(
        references(
            "Lån nævnt i stk. 1, 2 og 4 må ikke være behæftet med bindingsklausuler.",
            &act
        ),
        [stk(None, 1, 1), stk(None, 2, 2), stk(None, 4, 4)]
    );
    assert_eq!(
        references("hvor ganske særlige forhold gør sig gældende, jf. § 96 a, stk. 1, foretager omprioritering", &act),
        [stk(Some("96a"), 1, 1)]
    );
    // § 89, stk. 3 and 4: letters continuing a number, ranges, a "§" after "og".
    assert_eq!(
        references(
            "Beløb, der efter §§ 80 b, d og e indbetales til Landsbyggefonden, overføres.",
            &act
        ),
        [
            whole("80b", "80b"),
            whole("80d", "80d"),
            whole("80e", "80e")
        ]
    );
    assert_eq!(
        references(
            "der ikke anvendes i henhold til §§ 88, 90-94, 96 d og § 98 a, stk. 5, samt til dækning",
            &act
        ),
        [
            whole("88", "88"),
            whole("90", "94"),
            whole("96d", "96d"),
            stk(Some("98a"), 5, 5)
        ]
    );
    // § 91, stk. 9: qualifiers skipped, a bare stk. continuing § 129.
    assert_eq!(
        references(
            "§ 129, stk. 1, 4.-7. pkt., og stk. 2, § 130, stk. 1 og 2, og § 134 finder tilsvarende anvendelse.",
            &act
        ),
        [
            stk(Some("129"), 1, 1),
            stk(Some("129"), 2, 2),
            stk(Some("130"), 1, 1),
            stk(Some("130"), 2, 2),
            whole("134", "134")
        ]
    );
    // § 179, stk. 10: a capitalised "Stk." reference, and § 179, stk. 1.
    assert_eq!(
        references(
            "Stk. 3, stk. 4 og stk. 8, 1.-3. pkt., finder tilsvarende anvendelse.",
            &act
        ),
        [stk(None, 3, 3), stk(None, 4, 4), stk(None, 8, 8)]
    );
    assert_eq!(
        references("Ved konvertering optages lån, jf. § 118, stk. 4, 3. pkt., med eller uden rentetilpasning", &act),
        [stk(Some("118"), 4, 4)]
    );
    // § 91, stk. 8: "i det omfang" is not a law.
    assert_eq!(
        references("med boligorganisationens midler i henhold til § 87, i det omfang det er økonomisk muligt", &act),
        [whole("87", "87")]
    );
}

#[test]
fn other_laws_are_not_resolved() {
    let act = almen();
    // almenboligloven § 28 and § 91, stk. 15.
    assert!(references(
        "Arbejder omfattet af § 39, stk. 6, i lov om leje af almene boliger kan dog foretages",
        &act
    )
    .is_empty());
    assert!(references(
        "til friplejeboliger etableret efter § 10, stk. 1, jf. lovbekendtgørelse nr. 897 af 17. august \
         2011, § 11, stk. 2, nr. 3, eller § 11 a, stk. 1, i lov om friplejeboliger.",
        &act
    )
    .is_empty());
    // barnets lov: "§ 5 i lov om" ("i" is not a § letter here).
    let barn = identify("Bekendtgørelse af barnets lov").unwrap();
    assert!(references("i denne lov eller efter § 5 i lov om socialtilsyn.", &barn).is_empty());
    // retsplejeloven: a genitive chain.
    let rpl = identify("Bekendtgørelse af lov om rettens pleje").unwrap();
    assert!(references(
        "I sager om overtrædelse af straffelovens § 210, § 216, § 222, stk. 1",
        &rpl
    )
    .is_empty());
    // databeskyttelsesloven: an article's stykke, and "lovens §" (which we
    // leave unresolved even though here it means this act).
    let dbl = identify(
        "Bekendtgørelse af lov om supplerende bestemmelser til forordning om beskyttelse af fysiske \
         personer i forbindelse med behandling af personoplysninger og om fri udveksling af sådanne \
         oplysninger (databeskyttelsesloven)",
    )
    .unwrap();
    assert!(references(
        "de tilfælde, der er nævnt i databeskyttelsesforordningens artikel 2, stk. 2, litra b-d, og lovens § 3.",
        &dbl
    )
    .is_empty());
}

#[test]
fn own_genitives_letters_and_resets() {
    // årsregnskabsloven § 164 (abridged): "denne lovs" is this act.
    let aarl = identify("Bekendtgørelse af årsregnskabsloven").unwrap();
    assert_eq!(
        references(
            "de beføjelser, der fremgår af denne lovs §§ 160 og 161, § 162, stk. 1",
            &aarl
        ),
        [
            whole("160", "160"),
            whole("161", "161"),
            stk(Some("162"), 1, 1)
        ]
    );
    // ophavsretsloven: "§ 75 i" is a § letter before a comma.
    let oph = identify("Bekendtgørelse af lov om ophavsret").unwrap();
    assert_eq!(
        references(
            "For værker og lydoptagelser omfattet af § 75 i, stk. 1, gælder",
            &oph
        ),
        [stk(Some("75i"), 1, 1)]
    );
    // forvaltningsloven § 15 c: a range to a lettered §.
    let fvl = identify("Bekendtgørelse af forvaltningsloven").unwrap();
    assert_eq!(
        references(
            "Hvis de hensyn, der er nævnt i §§ 15-15 b, kun gør sig gældende",
            &fvl
        ),
        [whole("15", "15b")]
    );
    // "jf." after a stykke stays in that §; "jf. dog" (or "jf." after a
    // whole §) returns to the citing § (straffeloven § 50, årsregnskabsloven,
    // retsplejeloven).
    let strl = identify("Bekendtgørelse af straffeloven").unwrap();
    assert_eq!(
        references(
            "2) er idømt et opholdsforbud efter § 79 c, stk. 1, jf. stk. 2, eller",
            &strl
        ),
        [stk(Some("79c"), 1, 1), stk(Some("79c"), 2, 2)]
    );
    assert_eq!(
        references(
            "Mikrovirksomheder kan anvende undtagelserne i § 22 b, jf. dog stk. 3",
            &aarl
        ),
        [whole("22b", "22b"), stk(None, 3, 3)]
    );
    let rpl = identify("Bekendtgørelse af lov om rettens pleje").unwrap();
    assert_eq!(
        references(
            "en lovovertrædelse omfattet af straffelovens § 81 a, jf. dog stk. 2",
            &rpl
        ),
        [stk(None, 2, 2)]
    );
}

#[test]
fn fragments_do_not_panic() {
    let act = almen();
    for text in [
        "§",
        "§§",
        "stk.",
        "Stk. 2,",
        "§ 5 -",
        "§§ 5,",
        "§ 5, 1.",
        "jf. § 99999999999999999999",
        "§ 3 a-",
    ] {
        let _ = references(text, &act);
    }
    assert_eq!(references("§ 5 -", &act), [whole("5", "5")]);
    assert!(references("§ 99999999999999999999", &act).is_empty());
}

#[test]
fn chains_in_other_acts_keep_how_the_act_is_named() {
    let bek = identify("Bekendtgørelse af lov om almene boliger m.v.").unwrap();
    let foreign = |text: &str| cross_references(text, &bek).1;
    // BEK 2025:864 § 2 (abridged): a stykke of lov om social service.
    assert_eq!(
        foreign("takster efter § 174, stk. 3, i lov om social service og § 195, stk. 4, nr. 1, i barnets lov anvendes"),
        [
            Foreign {
                law: LawRef::Named {
                    text: "lov om social service og § 195, stk. 4, nr. 1, i barnets lov anvendes".into(),
                    number: None
                },
                targets: vec![stk(Some("174"), 3, 3)]
            },
            Foreign {
                law: LawRef::Named {
                    text: "barnets lov anvendes".into(),
                    number: None
                },
                targets: vec![stk(Some("195"), 4, 4)]
            }
        ]
    );
    // The number after the name.
    assert_eq!(
        foreign("efter § 5 i lov om social service, jf. lovbekendtgørelse nr. 1129 af 22. september 2025, kan")[0].law,
        LawRef::Named {
            text: "lov om social service, jf. lovbekendtgørelse nr. 1129 af 22. september 2025, kan".into(),
            number: Some((1129, 2025))
        }
    );
    // By number alone, by genitive, "lovens", and in medfør af.
    assert_eq!(
        foreign("efter § 10, stk. 1, jf. lovbekendtgørelse nr. 897 af 17. august 2011, og")[0].law,
        LawRef::Numbered {
            number: 897,
            year: 2011
        }
    );
    assert_eq!(
        foreign("omfattet af straffelovens § 74 a")[0],
        Foreign {
            law: LawRef::Genitive("straffeloven".into()),
            targets: vec![whole("74a", "74a")]
        }
    );
    // LOV 2014:1520 § 143, stk. 1, and BEK 2011:62 § 42, stk. 5.
    assert_eq!(
        foreign("ved § 6 i lov nr. 1631 af 26. december 2013, § 5 i lov nr. 80 af")[0].law,
        LawRef::Numbered {
            number: 1631,
            year: 2013
        }
    );
    assert_eq!(
        foreign("efter § 11 i bekendtgørelse nr. 438 af 3. juni 2008, skal")[0].law,
        LawRef::Numbered {
            number: 438,
            year: 2008
        }
    );
    assert_eq!(foreign("efter lovens § 12 kan")[0].law, LawRef::TheAct);
    assert_eq!(
        foreign("fastsat i medfør af § 12 i lov om social service")[0].targets,
        [whole("12", "12")]
    );
    // An article's stykke and the own act are not another act's.
    assert!(foreign("artikel 6, stk. 1, i forordningen").is_empty());
    assert!(foreign("efter § 91, stk. 2, i lov om almene boliger").is_empty());
}

#[test]
fn a_genitive_keeps_its_chain_up_to_the_jf_of_another_act() {
    // BEK 2014:794 § 13 and BEK 2025:1353 § 28, stk. 10 (abridged).
    let bek = identify("Bekendtgørelse af lov om almene boliger m.v.").unwrap();
    let foreign = cross_references(
        "efter regionslovens § 12, jf. § 15, stk. 5, i lov om kommunernes styrelse, udpeges",
        &bek,
    )
    .1;
    assert_eq!(
        foreign,
        [
            Foreign {
                law: LawRef::Genitive("regionsloven".into()),
                targets: vec![whole("12", "12")]
            },
            Foreign {
                law: LawRef::Named {
                    text: "lov om kommunernes styrelse, udpeges".into(),
                    number: None
                },
                targets: vec![stk(Some("15"), 5, 5)]
            }
        ]
    );
    let foreign = cross_references(
        "efter overgangslovens §§ 39, 86 og 115, jf. § 66 b, stk. 3, i lov om kommunernes styrelse at",
        &bek,
    )
    .1;
    assert_eq!(foreign[0].law, LawRef::Genitive("overgangsloven".into()));
    assert_eq!(
        foreign[0].targets,
        [whole("39", "39"), whole("86", "86"), whole("115", "115")]
    );
    assert_eq!(foreign[1].targets, [stk(Some("66b"), 3, 3)]);
}
