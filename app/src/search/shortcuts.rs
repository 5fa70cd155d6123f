//! The page's keyboard shortcuts: what each key does, where, and the list
//! the help overlay shows. The page-wide keys ([`Shortcut`]) never fire
//! while the user types in a field or holds Ctrl, Alt or Meta (the
//! browser's keys); the keys of the search box, the results and the
//! dialogs belong to those controls, and [`KEYS`] lists them all.

/// A page-wide key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shortcut {
    /// `/`: to the search box (from any view).
    FocusSearch,
    /// `?`: the list of keys.
    Help,
    /// `]`: the open article's next cross-reference.
    NextRef,
    /// `[`: the open article's previous cross-reference.
    PrevRef,
}

impl Shortcut {
    /// The shortcut a key press (`KeyboardEvent.key`) makes, if any.
    /// `typing`: focus is in a field that takes text; `modified`: Ctrl,
    /// Alt or Meta is held. Shift is not a modifier here: `?` needs it on
    /// most layouts.
    pub fn of(key: &str, modified: bool, typing: bool) -> Option<Shortcut> {
        if modified || typing {
            return None;
        }
        match key {
            "/" => Some(Shortcut::FocusSearch),
            "?" => Some(Shortcut::Help),
            "]" => Some(Shortcut::NextRef),
            "[" => Some(Shortcut::PrevRef),
            _ => None,
        }
    }
}

/// The position focus moves to among `len` items when stepping forward or
/// back from `current` (none: focus is elsewhere, so forward starts at the
/// first and back at the last). It stops at the ends rather than wrapping,
/// so a screen reader user knows when the list is done.
pub fn step(current: Option<usize>, len: usize, forward: bool) -> Option<usize> {
    let last = len.checked_sub(1)?;
    Some(match (current, forward) {
        (None, true) => 0,
        (None, false) => last,
        (Some(i), true) => (i + 1).min(last),
        (Some(i), false) => i.saturating_sub(1).min(last),
    })
}

/// One line of the help overlay: keys (each shown as a key cap) and what
/// they do.
pub struct KeyHelp {
    pub keys: &'static [&'static str],
    pub does: &'static str,
}

/// Where keys work, and what each does there.
pub const KEYS: &[(&str, &[KeyHelp])] = &[
    (
        "Anywhere",
        &[
            KeyHelp {
                keys: &["/"],
                does: "Go to the search box",
            },
            KeyHelp {
                keys: &["?"],
                does: "Show these keys",
            },
        ],
    ),
    (
        "In the search box",
        &[
            KeyHelp {
                keys: &["↓"],
                does: "Move to the first result",
            },
            KeyHelp {
                keys: &["Enter"],
                does: "Run an LLM method (other methods rank as you type)",
            },
            KeyHelp {
                keys: &["Esc"],
                does: "Clear the query",
            },
        ],
    ),
    (
        "On a result",
        &[
            KeyHelp {
                keys: &["↑", "↓"],
                does: "Previous or next result (↑ on the first: the search box)",
            },
            KeyHelp {
                keys: &["Enter"],
                does: "Open the article",
            },
            KeyHelp {
                keys: &["Esc"],
                does: "Back to the search box",
            },
            KeyHelp {
                keys: &["R", "N", "X"],
                does: "Mark relevant, not relevant, or clear the mark",
            },
        ],
    ),
    (
        "In an open article",
        &[
            KeyHelp {
                keys: &["[", "]"],
                does: "Previous or next cross-reference (Enter follows it)",
            },
            KeyHelp {
                keys: &["Esc"],
                does: "Close the article and return to its result",
            },
        ],
    ),
    (
        "In a dialog",
        &[KeyHelp {
            keys: &["Esc"],
            does: "Close it and return where you were",
        }],
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_keys_do_not_fire_while_typing_or_with_modifiers() {
        assert_eq!(Shortcut::of("/", false, false), Some(Shortcut::FocusSearch));
        assert_eq!(Shortcut::of("?", false, false), Some(Shortcut::Help));
        assert_eq!(Shortcut::of("]", false, false), Some(Shortcut::NextRef));
        assert_eq!(Shortcut::of("[", false, false), Some(Shortcut::PrevRef));
        for key in ["/", "?", "[", "]"] {
            assert_eq!(Shortcut::of(key, false, true), None, "{key} while typing");
            assert_eq!(Shortcut::of(key, true, false), None, "{key} with Ctrl");
        }
        for key in ["a", "Enter", "Escape", "ArrowDown", "r", " "] {
            assert_eq!(Shortcut::of(key, false, false), None, "{key}");
        }
    }

    #[test]
    fn stepping_starts_at_an_end_and_stops_at_the_other() {
        assert_eq!(step(None, 3, true), Some(0));
        assert_eq!(step(None, 3, false), Some(2));
        assert_eq!(step(Some(0), 3, true), Some(1));
        assert_eq!(step(Some(2), 3, true), Some(2));
        assert_eq!(step(Some(1), 3, false), Some(0));
        assert_eq!(step(Some(0), 3, false), Some(0));
        assert_eq!(step(None, 0, true), None);
        assert_eq!(step(Some(0), 0, false), None);
        // A list that shrank under the focus.
        assert_eq!(step(Some(5), 3, false), Some(2));
    }

    #[test]
    fn the_help_lists_every_page_key() {
        let listed: Vec<&str> = KEYS
            .iter()
            .flat_map(|(_, lines)| lines.iter())
            .flat_map(|line| line.keys.iter().copied())
            .collect();
        for key in ["/", "?", "[", "]"] {
            assert!(Shortcut::of(key, false, false).is_some());
            assert!(listed.contains(&key), "{key} is not in the help");
        }
    }
}
