//! Legal areas of GBR articles and queries, in one vocabulary: the area tags
//! of GBR query ids (`astiko_…`, `dimosio_…`), so a filter on an area matches
//! both the queries of that exam and the sources it draws on.

/// The five GBR area tags and the English names the paper uses for them.
const AREAS: [(&str, &str); 5] = [
    ("astiko", "Civil"),
    ("dimosio", "Public"),
    ("emporiko", "Commercial"),
    ("kodikas", "Lawyers' Code"),
    ("poiniko", "Criminal"),
];

/// Article-id prefix → the areas whose exams use that source, as listed in
/// Table 7 of the GBR paper (Beta et al., "GreekBarRetrieval: A Benchmark for
/// Greek Statutory Retrieval", arXiv 2608.18752), transcribed in
/// `../shared/reference/gbr/prefixes.tsv`; a test keeps the two equal. Areas
/// are in the paper's order.
const PREFIX_AREAS: [(&str, &[&str]); 23] = [
    ("AK", &["Civil", "Public", "Commercial", "Lawyers' Code"]),
    ("EisNAK", &["Public"]),
    ("KD", &["Lawyers' Code"]),
    ("KDD", &["Public"]),
    ("KDD/sias", &["Public"]),
    ("KDDL", &["Lawyers' Code"]),
    ("KPD", &["Lawyers' Code", "Criminal"]),
    ("KPolD", &["Civil", "Commercial", "Lawyers' Code"]),
    ("PK", &["Lawyers' Code", "Criminal"]),
    ("Syntagma", &["Civil", "Public", "Criminal"]),
    ("N_702_1977", &["Public"]),
    ("N_1406_1983", &["Public"]),
    ("N_3155_1955", &["Public"]),
    ("PD_18_1989", &["Public"]),
    ("PD_258_2005", &["Public"]),
    ("N_146_1914", &["Commercial"]),
    ("N_3190_1955", &["Commercial"]),
    ("N_4072_2012", &["Commercial"]),
    ("N_4541_2018", &["Commercial"]),
    ("N_4738_2020", &["Commercial"]),
    ("N_5325_1932", &["Commercial"]),
    ("N_5960_1933", &["Commercial"]),
    ("ND_17_07_N_13_08_1923", &["Commercial"]),
];

/// Separator between tags when a source serves several areas.
const AREA_SEPARATOR: char = ',';

/// The areas of an article prefix as tags joined by [`AREA_SEPARATOR`]
/// (`Syntagma` → `astiko,dimosio,poiniko`); `None` for prefixes the paper
/// does not list.
pub fn article_area(prefix: &str) -> Option<String> {
    let (_, names) = PREFIX_AREAS.iter().find(|(p, _)| *p == prefix)?;
    let tags: Vec<&str> = names.iter().filter_map(|name| tag_of(name)).collect();
    Some(tags.join(&AREA_SEPARATOR.to_string()))
}

/// The area tag a query id starts with (`astiko_A_2023_q1` → `astiko`), if
/// it is one of the five.
pub fn query_area(query_id: &str) -> Option<String> {
    let (head, _) = query_id.split_once('_')?;
    AREAS
        .iter()
        .any(|(tag, _)| *tag == head)
        .then(|| head.to_string())
}

fn tag_of(english: &str) -> Option<&'static str> {
    AREAS
        .iter()
        .find(|(_, name)| *name == english)
        .map(|(tag, _)| *tag)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table above must stay a faithful copy of the shared transcription.
    #[test]
    fn prefix_table_matches_the_shared_transcription() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../shared/reference/gbr/prefixes.tsv"
        );
        let tsv = std::fs::read_to_string(path).expect("../shared must sit beside the checkout");
        let mut lines = tsv.lines();
        assert_eq!(
            lines.next(),
            Some("prefix\tsource_description\tlegal_areas")
        );
        let shared: Vec<(String, Vec<String>)> = lines
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                let cols: Vec<&str> = l.split('\t').collect();
                let areas = cols[2].split(';').map(|a| a.trim().to_string()).collect();
                (cols[0].to_string(), areas)
            })
            .collect();
        let ours: Vec<(String, Vec<String>)> = PREFIX_AREAS
            .iter()
            .map(|(p, a)| (p.to_string(), a.iter().map(|s| s.to_string()).collect()))
            .collect();
        assert_eq!(ours, shared);
    }

    #[test]
    fn every_listed_area_has_a_tag() {
        for (prefix, names) in PREFIX_AREAS {
            for name in names {
                assert!(tag_of(name).is_some(), "{prefix}: {name}");
            }
        }
    }

    #[test]
    fn areas_of_prefixes_and_query_ids() {
        assert_eq!(
            article_area("Syntagma").as_deref(),
            Some("astiko,dimosio,poiniko")
        );
        assert_eq!(article_area("KDD/sias").as_deref(), Some("dimosio"));
        assert_eq!(article_area("Unknown"), None);
        assert_eq!(query_area("kodikas_A_2023_q12").as_deref(), Some("kodikas"));
        assert_eq!(query_area("civil_A_2023_q1"), None);
        assert_eq!(query_area("astiko"), None);
    }
}
