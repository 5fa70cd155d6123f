//! The page's Content-Security-Policy as the tests hold it: every page a
//! test opens records the policy's violations from its first script on
//! (a script Chromium runs in each new document, before the page's own,
//! through [`crate::devtools`]), kept in `sessionStorage` so that they
//! outlive reloads, and [`crate::app::App::close`] fails the test on any
//! it was not told to expect. The shipped policy must refuse nothing the
//! app does.

use anyhow::{bail, Result};
use fantoccini::Client;
use serde_json::{json, Value};

use crate::devtools::devtools;

/// Where the recorder keeps what it saw.
const KEY: &str = "nomos-e2e-csp-violations";

/// Records every `securitypolicyviolation` of every document the
/// session opens from now on.
pub async fn record_violations(client: &Client) -> Result<()> {
    let source = format!(
        "addEventListener('securitypolicyviolation', (e) => {{
            try {{
                const seen = JSON.parse(sessionStorage.getItem('{KEY}') || '[]');
                seen.push({{ blocked: e.blockedURI, directive: e.effectiveDirective,
                             source: e.sourceFile, line: e.lineNumber, page: location.href }});
                sessionStorage.setItem('{KEY}', JSON.stringify(seen));
            }} catch (_) {{}}
        }}, true);"
    );
    devtools(
        client,
        "Page.addScriptToEvaluateOnNewDocument",
        json!({ "source": source }),
    )
    .await?;
    Ok(())
}

/// Fails with the violations the current page's origin recorded, except
/// refusals of an origin in `expected` (a test that shows how the app
/// reports a refused LLM endpoint). A page that cannot be read (an error
/// page) has nothing to say.
pub async fn check_violations(client: &Client, expected: &[String]) -> Result<()> {
    let script = format!(
        "try {{ return JSON.parse(sessionStorage.getItem('{KEY}') || '[]'); }}
         catch (_) {{ return null; }}"
    );
    let Ok(Value::Array(seen)) = client.execute(&script, vec![]).await else {
        return Ok(());
    };
    let unexpected: Vec<&Value> = seen
        .iter()
        .filter(|v| {
            let blocked = v["blocked"].as_str().unwrap_or_default();
            !expected
                .iter()
                .any(|origin| blocked.starts_with(origin.as_str()))
        })
        .collect();
    if !unexpected.is_empty() {
        bail!(
            "the page's Content-Security-Policy refused {} thing(s): {}",
            unexpected.len(),
            Value::from(unexpected.into_iter().cloned().collect::<Vec<_>>())
        );
    }
    Ok(())
}
