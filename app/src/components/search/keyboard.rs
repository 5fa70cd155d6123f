//! The page-wide keys `/` (to the search box, from any view) and `?`
//! (the list of keys, a modal dialog: focus moves into it, Esc closes it
//! and focus returns where it was), and the header's button that opens
//! the same list. The open article's `[` and `]` are the article pane's.

use leptos::prelude::*;

use crate::components::ids::{SEARCH_BOX_ID, SHORTCUTS_ID};
use crate::search::shortcuts::{Shortcut, KEYS};
use crate::state::{use_app_state, View};
use crate::web::{dialog_open, focus_id, show_dialog, typing_in};

/// The dialog listing every key, and the listener for `/` and `?`.
#[component]
pub fn KeyboardHelp() -> impl IntoView {
    let state = use_app_state();
    let listener = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.default_prevented() || dialog_open() {
            return;
        }
        let modified = ev.ctrl_key() || ev.alt_key() || ev.meta_key();
        match Shortcut::of(&ev.key(), modified, typing_in(&ev)) {
            Some(Shortcut::FocusSearch) => {
                ev.prevent_default();
                if state.view.get_untracked() == View::Search {
                    focus_id(SEARCH_BOX_ID);
                } else {
                    state.view.set(View::Search);
                    request_animation_frame(|| focus_id(SEARCH_BOX_ID));
                }
            }
            Some(Shortcut::Help) => {
                ev.prevent_default();
                show_dialog(SHORTCUTS_ID);
            }
            _ => {}
        }
    });
    on_cleanup(move || listener.remove());

    let groups = KEYS
        .iter()
        .map(|(place, lines)| {
            let lines = lines
                .iter()
                .map(|line| {
                    let caps = line
                        .keys
                        .iter()
                        .map(|k| view! { <kbd>{*k}</kbd> })
                        .collect_view();
                    view! {
                        <div class="key-line">
                            <dt>{caps}</dt>
                            <dd>{line.does}</dd>
                        </div>
                    }
                })
                .collect_view();
            view! {
                <h3>{*place}</h3>
                <dl class="key-list">{lines}</dl>
            }
        })
        .collect_view();

    view! {
        <dialog id=SHORTCUTS_ID class="shortcuts" aria-labelledby="shortcuts-title">
            <div class="dialog-head">
                <h2 id="shortcuts-title">"Keyboard shortcuts"</h2>
                <form method="dialog">
                    <button type="submit" class="button close" aria-label="Close">"✕"</button>
                </form>
            </div>
            <p class="muted">
                "Page keys do nothing while you type in a field; Esc or ✕ closes this list."
            </p>
            {groups}
        </dialog>
    }
}

/// The header's button for the list of keys.
#[component]
pub fn KeyboardButton() -> impl IntoView {
    view! {
        <button
            type="button"
            class="button"
            aria-haspopup="dialog"
            aria-keyshortcuts="?"
            title="Keyboard shortcuts (?)"
            on:click=move |_| show_dialog(SHORTCUTS_ID)
        >
            "Shortcuts"
        </button>
    }
}
