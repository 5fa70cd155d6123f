//! The prompt templates, one set per language, versioned: a run records
//! its set's [`Prompts::version`], and every request carries it, so a
//! changed prompt never replays an old reply. Templates live in
//! `prompts/LANG/vN/*.txt` with `{{name}}` placeholders. They follow the
//! structure of GreekBarRetrieval's appendix G prompts (sparse and dense
//! reformulation, planner system, first and follow-up planner, observer)
//! in our own words, plus one for contextual chunks.

use super::Settings;

/// One language's templates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Prompts {
    /// `LANG/vN`, recorded in run tags and in every request.
    pub version: &'static str,
    /// The system message of the one-shot prompts (reformulation,
    /// observer, contextual chunks).
    pub system: &'static str,
    /// Query to keywords: `{{query}}`.
    pub sparse: &'static str,
    /// Query to a statement of the legal issue: `{{query}}`.
    pub dense: &'static str,
    /// The planner's system message.
    pub planner_system: &'static str,
    /// Round 1: `{{query}}`.
    pub planner_first: &'static str,
    /// Later rounds: `{{query}}`, `{{queries}}`, `{{kept}}`.
    pub planner_next: &'static str,
    /// `{{query}}`, `{{candidates}}`.
    pub observer: &'static str,
    /// Contextual chunks: `{{source}}`, `{{document}}`, `{{chunk}}`.
    pub augment: &'static str,
    /// Asks once more after a reply that was not the JSON asked for.
    pub retry: &'static str,
}

macro_rules! prompt_set {
    ($lang:literal, $v:literal) => {
        Prompts {
            version: concat!($lang, "/", $v),
            system: include_str!(concat!("prompts/", $lang, "/", $v, "/system.txt")),
            sparse: include_str!(concat!("prompts/", $lang, "/", $v, "/sparse.txt")),
            dense: include_str!(concat!("prompts/", $lang, "/", $v, "/dense.txt")),
            planner_system: include_str!(concat!(
                "prompts/",
                $lang,
                "/",
                $v,
                "/planner-system.txt"
            )),
            planner_first: include_str!(concat!("prompts/", $lang, "/", $v, "/planner-first.txt")),
            planner_next: include_str!(concat!("prompts/", $lang, "/", $v, "/planner-next.txt")),
            observer: include_str!(concat!("prompts/", $lang, "/", $v, "/observer.txt")),
            augment: include_str!(concat!("prompts/", $lang, "/", $v, "/augment.txt")),
            retry: include_str!(concat!("prompts/", $lang, "/", $v, "/retry.txt")),
        }
    };
}

/// Greek pools. v2's planner shows one worked exchange in Greek: with
/// none, Qwen2.5-Coder-1.5B transliterated Greek queries into Latin
/// letters.
pub const GREEK: Prompts = prompt_set!("el", "v2");
/// Danish pools.
pub const DANISH: Prompts = prompt_set!("da", "v2");
/// Every other language: English instructions that ask for terms in the
/// query's own language. Still v1, with no worked exchange: with an
/// English one, Qwen2.5-Coder-0.5B wrote English keywords for STARD's
/// Chinese questions, which BM25 cannot match (CI's live check).
pub const OTHER: Prompts = prompt_set!("en", "v1");

/// Every set this build has, the current ones first: a transcript replays
/// under the set it was recorded with.
pub const ALL: [Prompts; 5] = [
    GREEK,
    DANISH,
    OTHER,
    prompt_set!("el", "v1"),
    prompt_set!("da", "v1"),
];

impl Prompts {
    /// The set named `version` (`el/v1`), if this build has it.
    pub fn by_version(version: &str) -> Option<Prompts> {
        ALL.into_iter().find(|p| p.version == version)
    }

    /// The set a run uses: the one its settings were recorded with (a
    /// replay), else the current one for the pool's language. `Err` names
    /// a recorded set this build lacks.
    pub fn for_run(analyzer: &str, settings: &Settings) -> Result<Prompts, String> {
        match &settings.prompts {
            None => Ok(Prompts::for_analyzer(analyzer)),
            Some(version) => Prompts::by_version(version).ok_or_else(|| {
                format!(
                    "the transcript was recorded with prompt set {version}, which this build \
                     does not have ({})",
                    ALL.map(|p| p.version).join(", ")
                )
            }),
        }
    }

    /// The set for a pool analysed by `analyzer` (Greek, Danish, other).
    pub fn for_analyzer(analyzer: &str) -> Prompts {
        if analyzer.contains("greek") || analyzer.starts_with("el") {
            GREEK
        } else if analyzer.starts_with("da") {
            DANISH
        } else {
            OTHER
        }
    }

    /// Every template with its name, for checks.
    pub fn templates(&self) -> [(&'static str, &'static str); 9] {
        [
            ("system", self.system),
            ("sparse", self.sparse),
            ("dense", self.dense),
            ("planner-system", self.planner_system),
            ("planner-first", self.planner_first),
            ("planner-next", self.planner_next),
            ("observer", self.observer),
            ("augment", self.augment),
            ("retry", self.retry),
        ]
    }
}

/// `template` with each `{{name}}` replaced by its value, in one pass (a
/// value containing `{{…}}` is not expanded again) and trimmed.
pub fn render(template: &str, vars: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        match after.find("}}") {
            Some(end) => {
                let name = &after[..end];
                match vars.iter().find(|(n, _)| *n == name) {
                    Some((_, value)) => out.push_str(value),
                    None => out.push_str(&rest[start..start + 2 + end + 2]),
                }
                rest = &after[end + 2..];
            }
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out.trim().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each template uses exactly the placeholders its doc names, so a
    /// typo in a template cannot silently send `{{qeury}}` to a model.
    #[test]
    fn templates_use_exactly_their_placeholders() {
        let expected: [(&str, &[&str]); 9] = [
            ("system", &[]),
            ("sparse", &["query"]),
            ("dense", &["query"]),
            ("planner-system", &[]),
            ("planner-first", &["query"]),
            ("planner-next", &["query", "queries", "kept"]),
            ("observer", &["query", "candidates"]),
            ("augment", &["source", "document", "chunk"]),
            ("retry", &[]),
        ];
        for set in ALL {
            for ((name, text), (expected_name, vars)) in set.templates().iter().zip(expected) {
                assert_eq!(*name, expected_name);
                let mut found: Vec<&str> = text
                    .split("{{")
                    .skip(1)
                    .map(|s| s.split_once("}}").expect("closed placeholder").0)
                    .collect();
                found.sort_unstable();
                found.dedup();
                let mut vars = vars.to_vec();
                vars.sort_unstable();
                assert_eq!(found, vars, "{} {name}", set.version);
            }
        }
    }

    #[test]
    fn renders_once_and_keeps_unknown_placeholders() {
        let text = render("a {{x}} b {{y}} {{x}}", &[("x", "{{y}}")]);
        assert_eq!(text, "a {{y}} b {{y}} {{y}}");
    }

    #[test]
    fn sets_follow_the_pool_language() {
        assert_eq!(Prompts::for_analyzer("gbr-greek").version, "el/v2");
        assert_eq!(Prompts::for_analyzer("da").version, "da/v2");
        assert_eq!(Prompts::for_analyzer("zh").version, "en/v1");
    }

    #[test]
    fn a_replay_uses_the_set_it_was_recorded_with() {
        let live = Settings::default();
        assert_eq!(Prompts::for_run("da", &live).unwrap().version, "da/v2");
        let replay = Settings {
            prompts: Some("el/v1".into()),
            ..Settings::default()
        };
        let old = Prompts::for_run("da", &replay).unwrap();
        assert_eq!(old.version, "el/v1");
        assert!(!old.planner_system.contains("Παράδειγμα"));
        let unknown = Settings {
            prompts: Some("el/v9".into()),
            ..Settings::default()
        };
        assert!(Prompts::for_run("da", &unknown)
            .unwrap_err()
            .contains("el/v9"));
    }

    #[test]
    fn the_greek_and_danish_planners_show_one_worked_exchange() {
        assert_eq!(OTHER.planner_system.matches("{\"query\": \"").count(), 1);
        for set in [GREEK, DANISH] {
            assert_eq!(
                set.planner_system.matches("{\"query\": \"").count(),
                2,
                "{}",
                set.version
            );
        }
    }
}
