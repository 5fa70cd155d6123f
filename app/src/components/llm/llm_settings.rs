//! The LLM settings, a dialog any view opens (the header's LLM button,
//! the method pickers' hint): the endpoint (address, model, key, sampling
//! settings) with a Test connection that reports the model's answer or
//! exactly what failed, what the endpoint and this page must allow (CORS
//! and the Content-Security-Policy, in plain words), and the transcripts
//! ([`crate::components::llm::transcripts`]).

use leptos::prelude::*;

use crate::components::ids::LLM_SETTINGS_ID;
use crate::components::llm::transcripts::TranscriptsPanel;
use crate::format::megabytes;
use crate::llm::endpoint::{EndpointConfig, LimitField, MAX_CONCURRENCY};
use crate::llm::{
    use_llm, InPage, InPageStatus, Llm, Offer, ServedModel, TestStatus, SERVED_MODELS,
};
use crate::state::use_app_state;
use crate::transcript_files::LlmSource;
use crate::web::{page_origin, show_dialog};

#[component]
pub fn LlmSettings() -> impl IntoView {
    let llm = use_llm();
    // Opened on request; Esc and the Close button close it natively.
    Effect::new(move |_| {
        if llm.open.get() {
            show_dialog(LLM_SETTINGS_ID);
            llm.open.set(false);
        }
    });
    view! {
        <dialog id=LLM_SETTINGS_ID class="llm-settings" aria-labelledby="llm-settings-title">
            <div class="dialog-head">
                <h2 id="llm-settings-title">"LLM settings"</h2>
                <form method="dialog">
                    <button type="submit" class="button close" aria-label="Close">"✕"</button>
                </form>
            </div>
            <p class="muted">
                "The LLM methods ask an OpenAI-compatible chat endpoint, or replay a transcript of \
                 an earlier run with nothing sent anywhere. Every run is recorded as a transcript \
                 you can download and share."
            </p>
            <Source />
            <Asks />
            <InPageForm />
            <EndpointForm />
            <Sampling />
            <Reaching />
            <TranscriptsPanel />
        </dialog>
    }
}

/// Where runs get their replies now.
#[component]
fn Source() -> impl IntoView {
    let state = use_app_state();
    let llm = use_llm();
    move || {
        let text = match state.llm.get() {
            LlmSource::Endpoint if llm.config.with(|c| c.in_page) => {
                match llm.in_page.status.get() {
                    InPageStatus::Ready { name, .. } => {
                        format!("Runs ask {name}, loaded in this page (nothing is sent anywhere).")
                    }
                    _ => "Runs ask the in-page model, once it is loaded.".to_owned(),
                }
            }
            LlmSource::Endpoint => match llm.config.with(|c| c.endpoint()) {
                Ok(e) => format!(
                    "Runs ask {} at {}.",
                    e.settings.model,
                    e.url.trim_end_matches("/chat/completions")
                ),
                Err(_) => "Runs ask the endpoint below, once it is set up.".to_owned(),
            },
            LlmSource::Replay(link) => format!(
                "Runs replay the transcript {}… (nothing is sent to any endpoint).",
                &link.sha256[..12]
            ),
        };
        let replaying = matches!(state.llm.get(), LlmSource::Replay(_));
        view! {
            <p class="llm-source" data-testid="llm-source">
                <strong>{text}</strong>
                {replaying.then(|| view! { " " <StopReplaying /> })}
            </p>
        }
    }
}

/// Leaves a replayed transcript for the live model (the endpoint, or the
/// in-page model).
#[component]
pub fn StopReplaying() -> impl IntoView {
    let llm = use_llm();
    let label = move || match llm.config.with(|c| c.in_page) {
        true => "Ask the in-page model instead",
        false => "Ask the endpoint instead",
    };
    view! {
        <button type="button" class="button" on:click=move |_| llm.use_source(LlmSource::Endpoint)>
            {label}
        </button>
    }
}

/// Which live model runs ask: an endpoint, or a model in the page.
#[component]
fn Asks() -> impl IntoView {
    let llm = use_llm();
    let set = move |in_page: bool| {
        let mut c = llm.config.get_untracked();
        c.in_page = in_page;
        llm.set_config(c);
    };
    view! {
        <fieldset class="llm-asks" role="radiogroup">
            <legend>"Runs ask"</legend>
            <label class="check">
                <input
                    type="radio"
                    name="llm-asks"
                    id="llm-asks-endpoint"
                    prop:checked=move || llm.config.with(|c| !c.in_page)
                    on:change=move |_| set(false)
                />
                "an OpenAI-compatible endpoint"
            </label>
            <label class="check">
                <input
                    type="radio"
                    name="llm-asks"
                    id="llm-asks-in-page"
                    prop:checked=move || llm.config.with(|c| c.in_page)
                    on:change=move |_| set(true)
                />
                "a model running in this page, with no server"
            </label>
        </fieldset>
    }
}

/// The in-page model: load the site's, or pick a GGUF; progress, and
/// plain words on what so small a model can show.
#[component]
fn InPageForm() -> impl IntoView {
    let llm = use_llm();
    let in_page = llm.in_page;
    let loading = move || matches!(in_page.status.get(), InPageStatus::Loading { .. });
    let status = move || {
        match in_page.status.get() {
        InPageStatus::Unloaded => view! {
            <p class="muted" data-testid="in-page-status">"Not loaded: nothing is fetched until you ask."</p>
        }
        .into_any(),
        InPageStatus::Loading { received, total } => {
            let percent = (received * 100).checked_div(total).unwrap_or(0);
            view! {
                <p role="status" data-testid="in-page-status">
                    {format!("Loading: {} of {}", megabytes(received), megabytes(total))}
                    <progress max="100" value=percent.to_string()></progress>
                </p>
            }
            .into_any()
        }
        InPageStatus::Ready { name, licence } => view! {
            <p class="test-ok" role="status" data-testid="in-page-status">
                {format!(
                    "{name} is loaded{}; it answers one request at a time, and works offline.",
                    licence.map(|l| format!(" ({l})")).unwrap_or_default()
                )}
            </p>
        }
        .into_any(),
        InPageStatus::Failed(why) => view! {
            <p class="error" role="alert" data-testid="in-page-status">{why}</p>
        }
        .into_any(),
    }
    };
    view! {
        <Show when=move || llm.config.with(|c| c.in_page)>
            // Read once the in-page model is chosen: a first visit fetches
            // nothing of the LLM.
            {in_page.read_offers()}
            <fieldset class="llm-in-page">
                <legend>"In-page model"</legend>
                <p class="param-note">
                    "A model runs here with llama.cpp compiled to WebAssembly, downloaded only \
                     when you ask (its size is on its button) and kept for offline use. Both \
                     the site serves are Apache-2.0 and far smaller than the papers' models \
                     behind an endpoint, so they show the methods working, not the papers' \
                     results. On a laptop they write a few tokens a second: keep Evaluate to a \
                     few queries."
                </p>
                <ul class="param-note in-page-models">
                    {SERVED_MODELS
                        .iter()
                        .map(|m| view! { <li>{format!("{}: {}.", m.name, m.can)}</li> })
                        .collect_view()}
                </ul>
                <div class="llm-test">
                    {SERVED_MODELS
                        .iter()
                        .enumerate()
                        .map(|(i, served)| served_button(in_page, i, served, loading))
                        .collect_view()}
                    <label class="button file-button">
                        "Pick a GGUF file…"
                        <input
                            type="file"
                            accept=".gguf"
                            data-testid="in-page-file"
                            prop:disabled=loading
                            on:change=move |ev| {
                                let input: web_sys::HtmlInputElement = event_target(&ev);
                                if let Some(file) = input.files().and_then(|f| f.get(0)) {
                                    in_page.load_file(file);
                                }
                                input.set_value("");
                            }
                        />
                    </label>
                </div>
                {status}
            </fieldset>
        </Show>
    }
}

/// The button that loads served model `i`, its size on it once its
/// manifest is read; disabled while that is read, when the site does not
/// serve the model (with why), and while a model loads. SmolLM2's keeps the
/// test id `in-page-load`; the others are `in-page-load-1`, ….
fn served_button(
    in_page: InPage,
    i: usize,
    served: &'static ServedModel,
    loading: impl Fn() -> bool + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let offer = move || {
        in_page
            .offers
            .with(|o| o.get(i).cloned().unwrap_or(Offer::Reading))
    };
    let test_id = match i {
        0 => "in-page-load".to_owned(),
        _ => format!("in-page-load-{i}"),
    };
    view! {
        <button
            type="button"
            class="button primary"
            data-testid=test_id
            title=move || match offer() {
                Offer::Unavailable(why) => format!("Not available here: {why}"),
                _ => String::new(),
            }
            prop:disabled=move || loading() || !matches!(offer(), Offer::Size(_))
            on:click=move |_| in_page.load_served(served)
        >
            {move || match offer() {
                Offer::Size(bytes) => format!("Load {} ({})", served.name, megabytes(bytes)),
                Offer::Reading => format!("Load {}", served.name),
                Offer::Unavailable(_) => format!("{} (not served here)", served.name),
            }}
        </button>
    }
}

/// Changes the kept settings with `change`.
fn update(llm: Llm, change: &dyn Fn(&mut EndpointConfig)) {
    let mut c = llm.config.get_untracked();
    change(&mut c);
    llm.set_config(c);
}

/// A labelled text field of the settings, kept on change.
fn text_field(
    llm: Llm,
    id: &'static str,
    label: &'static str,
    placeholder: &'static str,
    get: fn(&EndpointConfig) -> String,
    put: fn(&mut EndpointConfig, String),
) -> impl IntoView {
    view! {
        <label for=id>{label}</label>
        <input
            id=id
            type="text"
            spellcheck="false"
            autocomplete="off"
            placeholder=placeholder
            prop:value=move || llm.config.with(get)
            on:change=move |ev| {
                let v = event_target_value(&ev);
                update(llm, &|c| put(c, v.clone()));
            }
        />
    }
}

/// A labelled number field of the settings, kept on change (and clamped).
fn number_field(
    llm: Llm,
    id: &'static str,
    label: &'static str,
    step: &'static str,
    get: fn(&EndpointConfig) -> String,
    put: fn(&mut EndpointConfig, &str),
) -> impl IntoView {
    view! {
        <label for=id>{label}</label>
        <input
            id=id
            type="number"
            inputmode="decimal"
            min="0"
            step=step
            prop:value=move || llm.config.with(get)
            on:change=move |ev| {
                let v = event_target_value(&ev);
                update(llm, &|c| put(c, v.trim()));
            }
        />
    }
}

/// What every request carries, to the endpoint or the in-page model.
#[component]
fn Sampling() -> impl IntoView {
    let llm = use_llm();
    let number = move |id, label, step, get, put| number_field(llm, id, label, step, get, put);
    view! {
        <fieldset class="llm-endpoint">
            <legend>"Every request"</legend>
            <div class="fields">
                {number(
                    "llm-temperature",
                    "Temperature",
                    "0.1",
                    |c| c.temperature.to_string(),
                    |c, v| {
                        if let Ok(t) = v.parse() {
                            c.temperature = t;
                        }
                    },
                )}
                {number(
                    "llm-seed",
                    "Seed",
                    "1",
                    |c| c.seed.map(|s| s.to_string()).unwrap_or_default(),
                    |c, v| c.seed = v.parse().ok(),
                )}
                {number(
                    "llm-max-tokens",
                    "Max tokens",
                    "1",
                    |c| c.max_tokens.to_string(),
                    |c, v| {
                        if let Ok(n) = v.parse() {
                            c.max_tokens = n;
                        }
                    },
                )}
            </div>
            <p class="param-note">
                "An empty seed sends none. Temperature 0 with a seed asks for the same reply to \
                 the same request, which is what lets a transcript stand for a run."
            </p>
        </fieldset>
    }
}

/// The endpoint's fields; each change is kept at once.
#[component]
fn EndpointForm() -> impl IntoView {
    let llm = use_llm();
    let config = llm.config;
    let text =
        move |id, label, placeholder, get, put| text_field(llm, id, label, placeholder, get, put);
    let number = move |id, label, step, get, put| number_field(llm, id, label, step, get, put);
    let problem = move || config.with(|c| c.endpoint().err().map(|e| e.to_string()));
    view! {
        <Show when=move || config.with(|c| !c.in_page)>
        <fieldset class="llm-endpoint">
            <legend>"Endpoint"</legend>
            <div class="fields">
                {text(
                    "llm-base-url",
                    "Base URL",
                    "http://127.0.0.1:8080/v1",
                    |c| c.base_url.clone(),
                    |c, v| c.base_url = v,
                )}
                {text(
                    "llm-model",
                    "Model",
                    "e.g. smollm2-135m-instruct, llama3.1:8b, gpt-4o-mini",
                    |c| c.model.clone(),
                    |c, v| c.model = v,
                )}
                <label for="llm-key">"API key"</label>
                <span class="key">
                    <input
                        id="llm-key"
                        type="password"
                        autocomplete="off"
                        placeholder="none"
                        prop:value=move || llm.key.with(|k| k.shown(&llm.config.get()).to_owned())
                        on:change=move |ev| llm.set_key(event_target_value(&ev))
                    />
                    <label class="check">
                        <input
                            type="checkbox"
                            id="llm-remember"
                            prop:checked=move || llm.remember.get()
                            on:change=move |ev| llm.set_remember(event_target_checked(&ev))
                        />
                        "Remember on this device"
                    </label>
                </span>
                <label for="llm-limit-field">"Token limit field"</label>
                <select
                    id="llm-limit-field"
                    prop:value=move || config.with(|c| c.limit_field.name())
                    on:change=move |ev| {
                        if let Some(f) = LimitField::from_name(&event_target_value(&ev)) {
                            update(llm, &|c| c.limit_field = f);
                        }
                    }
                >
                    <option value="max_tokens">"max_tokens (llama.cpp, Ollama, vLLM)"</option>
                    <option value="max_completion_tokens">
                        "max_completion_tokens (OpenAI's newer models)"
                    </option>
                </select>
                {number(
                    "llm-timeout",
                    "Timeout (s)",
                    "1",
                    |c| c.timeout_secs.to_string(),
                    |c, v| {
                        if let Ok(n) = v.parse() {
                            c.timeout_secs = n;
                        }
                    },
                )}
                {number(
                    "llm-context",
                    "Context window (tokens)",
                    "1",
                    |c| c.context.to_string(),
                    |c, v| {
                        if let Ok(n) = v.parse() {
                            c.context = n;
                        }
                    },
                )}
                {number(
                    "llm-concurrency",
                    "Queries at once",
                    "1",
                    |c| c.concurrency.to_string(),
                    |c, v| {
                        if let Ok(n) = v.parse() {
                            c.concurrency = n;
                        }
                    },
                )}
            </div>
            <p class="param-note">
                {format!(
                    "Evaluations ask about up to {MAX_CONCURRENCY} queries \
                     at once; a server with one slot answers them in turn. The key is held in \
                     memory, kept on this device only if you tick the box, sent only to this \
                     endpoint, and never put in links, transcripts or exports."
                )}
            </p>
            {move || llm.save_error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            <TestConnection llm=llm problem=Signal::derive(problem) />
        </fieldset>
        </Show>
    }
}

/// "Test connection" and what came of it.
#[component]
fn TestConnection(llm: Llm, problem: Signal<Option<String>>) -> impl IntoView {
    let status = move || match llm.test.get() {
        TestStatus::Idle => problem
            .get()
            .map(|p| view! { <p class="muted">{p}</p> }.into_any()),
        TestStatus::Testing => Some(
            view! { <p class="muted" role="status">"Asking the model for a short JSON reply…"</p> }
                .into_any(),
        ),
        TestStatus::Answered(text) => Some(
            view! { <p class="test-ok" role="status" data-testid="llm-test">{text}</p> }.into_any(),
        ),
        TestStatus::Failed(text) => Some(
            view! { <p class="error" role="alert" data-testid="llm-test">{text}</p> }.into_any(),
        ),
    };
    view! {
        <div class="llm-test">
            <button
                type="button"
                class="button primary"
                prop:disabled=move || llm.test.get() == TestStatus::Testing
                on:click=move |_| llm.test_connection()
            >
                "Test connection"
            </button>
            {status}
        </div>
    }
}

/// What the endpoint and this page must allow, in plain words.
#[component]
fn Reaching() -> impl IntoView {
    let origin = page_origin();
    view! {
        <details class="llm-reach">
            <summary>"Why the page may not reach an endpoint"</summary>
            <p>
                "Your browser sends the requests from this page, whose origin is "
                <code>{origin.clone()}</code>
                ". Two things must allow that:"
            </p>
            <ul>
                <li>
                    <strong>"The endpoint (CORS). "</strong>
                    "It must answer the browser's preflight for this origin. llama.cpp's \
                     llama-server allows any origin by default (its --api-key still applies). \
                     Ollama allows only origins listed in OLLAMA_ORIGINS: start it with "
                    <code>{format!("OLLAMA_ORIGINS={origin}")}</code>
                    ". Other servers have a similar setting."
                </li>
                <li>
                    <strong>"This page (Content-Security-Policy). "</strong>
                    "It connects only to itself and to loopback addresses ("
                    <code>"http://127.0.0.1:*"</code>", "<code>"http://localhost:*"</code>
                    "). To use an endpoint elsewhere, the site's host adds it to the policy's \
                     connect-src (docs/llm.md in the project says how); until then the test names the policy as \
                     the reason."
                </li>
            </ul>
        </details>
    }
}
