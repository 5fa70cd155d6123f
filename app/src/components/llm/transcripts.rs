//! The transcripts part of the LLM settings: the ones this browser keeps
//! (recorded here, opened, fetched), each with Replay, Download and
//! Forget; those the site ships; and loading one from a file or from a
//! URL on this site. Replaying one makes every LLM run answer from it,
//! with nothing sent.

use leptos::prelude::*;
use leptos::task::spawn_local;
use web_sys::HtmlInputElement;

use crate::components::ids::LLM_SETTINGS_ID;
use crate::format::{plural, size};
use crate::llm::{use_llm, Llm};
use crate::state::use_app_state;
use crate::transcript_files::{short_hash, LlmSource, Origin, TranscriptLink, TranscriptMeta};
use crate::url_state::LinkState;
use crate::web::{close_dialog, download};

#[component]
pub fn TranscriptsPanel() -> impl IntoView {
    let llm = use_llm();
    let transcripts = llm.transcripts;
    let url = RwSignal::new(String::new());
    let on_file = move |ev: leptos::ev::Event| {
        let input: HtmlInputElement = event_target(&ev);
        if let Some(file) = input.files().and_then(|f| f.get(0)) {
            transcripts.load_file(file);
        }
        input.set_value("");
    };
    let kept = move || {
        let list = transcripts.list.get();
        if list.is_empty() {
            return view! {
                <p class="muted">"None yet: every LLM run in this page records one."</p>
            }
            .into_any();
        }
        view! {
            <ul class="transcript-list" data-testid="transcripts">
                {list.into_iter().map(|m| view! { <Kept llm=llm meta=m /> }).collect_view()}
            </ul>
        }
        .into_any()
    };
    let shipped = move || {
        let index = transcripts.site.get()?;
        Some(match index {
            Err(e) => {
                view! { <p class="muted">{format!("The site's list could not be read: {e}")}</p> }
                    .into_any()
            }
            Ok(index) if index.transcripts.is_empty() => ().into_any(),
            Ok(index) => view! {
                <h4>"Shipped with this site"</h4>
                <ul class="transcript-list">
                    {index
                        .transcripts
                        .into_iter()
                        .map(|e| {
                            let link = TranscriptLink {
                                sha256: e.sha256.to_ascii_lowercase(),
                                path: Some(e.path()),
                            };
                            view! {
                                <li>
                                    <span class="transcript-name">{e.name.clone()}</span>
                                    <span class="muted">
                                        {format!(
                                            "{} · {} · made with {} · SHA-256 {}…",
                                            e.pool,
                                            e.method,
                                            e.model,
                                            short_hash(&link.sha256)
                                        )}
                                    </span>
                                    <ReplayButton llm=llm link=link />
                                    {LinkState::shipped_run(&e).map(|run| view! {
                                        <a
                                            class="button"
                                            data-testid="open-shipped-run"
                                            href=format!("#{}", run.encode())
                                            on:click=move |_| close_dialog(LLM_SETTINGS_ID)
                                        >
                                            {format!(
                                                "Open its evaluation ({})",
                                                plural(e.queries.unwrap_or_default(), "query", "queries")
                                            )}
                                        </a>
                                    })}
                                    {e.searches.iter().filter_map(|q| {
                                        let run = LinkState::shipped_search(&e, q)?;
                                        Some(view! {
                                            <a
                                                class="button"
                                                data-testid="open-shipped-search"
                                                href=format!("#{}", run.encode())
                                                on:click=move |_| close_dialog(LLM_SETTINGS_ID)
                                            >
                                                {format!("Search \u{201c}{q}\u{201d}")}
                                            </a>
                                        })
                                    }).collect_view()}
                                </li>
                            }
                        })
                        .collect_view()}
                </ul>
            }
            .into_any(),
        })
    };
    view! {
        <fieldset class="llm-transcripts">
            <legend>"Transcripts"</legend>
            {move || {
                transcripts.memory_only.get().map(|why| view! {
                    <p class="note">
                        {format!(
                            "Transcripts are kept in memory for this visit only ({why}); download \
                             the ones you want to keep."
                        )}
                    </p>
                })
            }}
            {kept}
            {shipped}
            <h4>"Load one"</h4>
            <div class="transcript-load">
                <label class="button file-button">
                    "Open transcript…"
                    <input type="file" accept=".jsonl,application/jsonl,text/plain" on:change=on_file />
                </label>
                <label for="transcript-url" class="visually-hidden">"A transcript's URL on this site"</label>
                <input
                    id="transcript-url"
                    type="text"
                    spellcheck="false"
                    placeholder="or its URL on this site, e.g. transcripts/stard-react.jsonl"
                    prop:value=move || url.get()
                    on:input=move |ev| url.set(event_target_value(&ev))
                />
                <button
                    type="button"
                    class="button"
                    prop:disabled=move || url.with(|u| u.trim().is_empty())
                    on:click=move |_| transcripts.load_url(url.get_untracked())
                >
                    "Load"
                </button>
            </div>
            {move || {
                transcripts.message.get().map(|m| match m {
                    Ok(text) => view! { <p class="test-ok" role="status">{text}</p> }.into_any(),
                    Err(e) => view! { <p class="error" role="alert">{e.to_string()}</p> }.into_any(),
                })
            }}
        </fieldset>
    }
}

/// One kept transcript: what it is, and what can be done with it.
#[component]
fn Kept(llm: Llm, meta: TranscriptMeta) -> impl IntoView {
    let origin = match meta.origin {
        Origin::Recorded => "recorded here",
        Origin::File => "opened from a file",
        Origin::Site => "from this site",
    };
    let link = TranscriptLink {
        sha256: meta.sha256.clone(),
        path: meta.path.clone(),
    };
    let sha = meta.sha256.clone();
    let forget = {
        let sha = sha.clone();
        move |_| llm.transcripts.forget(sha.clone())
    };
    view! {
        <li data-sha256=meta.sha256.clone()>
            <span class="transcript-name">{meta.name.clone()}</span>
            <span class="muted">
                {format!(
                    "{} with {} · {} · {} · SHA-256 {}…",
                    plural(meta.exchanges, "exchange", "exchanges"),
                    if meta.model.is_empty() { "?" } else { &meta.model },
                    origin,
                    size(meta.bytes),
                    meta.short()
                )}
            </span>
            <ReplayButton llm=llm link=link />
            <DownloadButton llm=llm sha256=sha label="Download" />
            <button type="button" class="button" on:click=forget>"Forget"</button>
        </li>
    }
}

/// Replays `link` from now on; says so when it already is.
#[component]
fn ReplayButton(llm: Llm, link: TranscriptLink) -> impl IntoView {
    let state = use_app_state();
    let sha = link.sha256.clone();
    let in_use =
        Signal::derive(move || matches!(state.llm.get(), LlmSource::Replay(l) if l.sha256 == sha));
    view! {
        <button
            type="button"
            class="button"
            prop:disabled=in_use
            on:click=move |_| llm.use_source(LlmSource::Replay(link.clone()))
        >
            {move || if in_use.get() { "Replaying" } else { "Replay" }}
        </button>
    }
}

/// Downloads a kept transcript as `<sha12>.transcript.jsonl`.
#[component]
pub fn DownloadButton(llm: Llm, sha256: String, label: &'static str) -> impl IntoView {
    let failed = RwSignal::new(None::<String>);
    let save = move |_| {
        let sha = sha256.clone();
        spawn_local(async move {
            let outcome = match llm.transcripts.text(&sha).await {
                Ok(text) => download(
                    &format!("{}.transcript.jsonl", short_hash(&sha)),
                    "application/jsonl",
                    &text,
                )
                .map_err(|e| e.to_string()),
                Err(e) => Err(e.to_string()),
            };
            failed.set(outcome.err());
        });
    };
    view! {
        <button type="button" class="button" data-testid="download-transcript" on:click=save>
            {label}
        </button>
        {move || failed.get().map(|e| view! { <span class="error" role="alert">{e}</span> })}
    }
}
