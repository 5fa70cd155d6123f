//! The parser on sentences from `../shared/data/el-syntagma/syntagma.json`.

use super::*;

fn arts(ns: &[&str]) -> Vec<Target> {
    ns.iter().map(|n| Target::Article(n.to_string())).collect()
}

#[test]
fn article_lists_with_letters() {
    // Art. 5Α and 19: attached and spaced capital alpha.
    assert_eq!(
        references("τηρουμένων πάντοτε των εγγυήσεων των άρθρων 9, 9Α και 19."),
        arts(&["9", "9Α", "19"])
    );
    assert_eq!(
        references("κατά παράβαση του άρθρου αυτού και των άρθρων 9 και 9 Α."),
        arts(&["9", "9Α"])
    );
}

#[test]
fn paragraph_numbers_are_not_articles() {
    // Art. 48.
    assert_eq!(
        references(
            "αναστέλλει την ισχύ του συνόλου ή μέρους των διατάξεων των άρθρων 5 παράγραφος 4, 6, 8, \
             9, 11, 12 παράγραφοι 1 έως και 4, 14, 19, 22 παράγραφος 3, 23, 96 παράγραφος 4 και 97. \
             Ο Πρόεδρος της Δημοκρατίας δημοσιεύει την απόφαση της Βουλής."
        ),
        arts(&["5", "6", "8", "9", "11", "12", "14", "19", "22", "23", "96", "97"])
    );
    // Art. 110 and 72.
    assert_eq!(
        references(
            "καθώς και από τις διατάξεις των άρθρων 2 παράγραφος 1, 4 παράγραφοι 1, 4 και 7, 5 \
             παράγραφοι 1 και 3, 13 παράγραφος 1 και 26."
        ),
        arts(&["2", "4", "5", "13", "26"])
    );
    assert_eq!(
        references(
            "για τα θέματα των άρθρων 3, 13, 27, 28 παράγραφοι 2 και 3, 29 παράγραφος 2, 33 παράγραφος \
             3, 48, 51, 54, 86, νομοσχέδια και προτάσεις εκτελεστικών του Συντάγματος νόμων"
        ),
        arts(&["3", "13", "27", "28", "29", "33", "48", "51", "54", "86"])
    );
    // Art. 35 (a list item follows), 16 and 34.
    assert_eq!(
        references(
            "β) την ανάθεση διερευνητικής εντολής σύμφωνα με το άρθρο 37 παράγραφοι 2,3 και 4,"
        ),
        arts(&["37"])
    );
    assert_eq!(
        references("που προβλέπονται στο άρθρο 88 παράγραφος 4 και ύστερα από απόφαση συμβουλίου"),
        arts(&["88"])
    );
    assert_eq!(
        references("εξαίρεση την περίπτωση του άρθρου 32 παρ. 4, καθώς και οι διατάξεις"),
        arts(&["32"])
    );
    // Art. 79: a case letter after the paragraph.
    assert_eq!(
        references(
            "από την κατά το άρθρο 98 παράγραφος 1 περίπτωση ε' έκθεση του Ελεγκτικού Συνεδρίου"
        ),
        arts(&["98"])
    );
}

#[test]
fn relative_and_self_references() {
    // Art. 15, 38 and 54.
    assert_eq!(
        references("Οι διατάξεις του προηγούμενου άρθρου δεν εφαρμόζονται στον κινηματογράφο"),
        [Target::Previous]
    );
    assert_eq!(
        references("κατά την παράγραφο 3 του προηγούμενου άρθρου."),
        [Target::Previous]
    );
    assert!(references("Οι έδρες της παρ. 3 του παρόντος άρθρου καταλαμβάνονται").is_empty());
}

#[test]
fn other_instruments_are_not_resolved() {
    // Art. 111 (a decree, and articles of the 1952 constitution quoted in
    // its title), 117 and 48 ("του Συντάγματος" alone is this one).
    assert!(references(
        "α) το άρθρο 2 του π.δ. 700 της 9/9 Οκτωβρίου 1974 «περί μερικής επαναφοράς εν ισχύι των \
         άρθρων 5, 6, 8, 10, 12, 14, 95 και 97 του Συντάγματος και άρσεως του νόμου»"
    )
    .is_empty());
    assert!(references("Η διάταξη του άρθρου 19 του ν.δ. 3370/1955 περί κυρώσεως").is_empty());
    assert!(references(
        "κατ' εφαρμογήν του άρθρου 104 του Συντάγματος της 1ης Ιανουαρίου 1952, θεωρούνται"
    )
    .is_empty());
    assert_eq!(
        references("ισχύουν αυτοδικαίως οι διατάξεις των άρθρων 61 και 62 του Συντάγματος."),
        arts(&["61", "62"])
    );
}

#[test]
fn fragments_do_not_panic() {
    for text in [
        "άρθρο",
        "άρθρων 5 παράγραφοι",
        "άρθρα 3 έως",
        "«άρθρο 3",
        "άρθρο 3 παράγραφοι 2 και",
    ] {
        let _ = references(text);
    }
    assert_eq!(references("άρθρα 3 έως"), arts(&["3"]));
}
