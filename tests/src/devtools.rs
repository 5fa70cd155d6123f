//! The DevTools protocol through chromedriver, for what WebDriver cannot
//! do: run a script in every new document before the page's own
//! ([`crate::policy`]), or show the page as printed ([`emulate_media`]).

use anyhow::Result;
use fantoccini::wd::WebDriverCompatibleCommand;
use fantoccini::Client;
use serde_json::{json, Value};

/// Sends the DevTools command `cmd` with `params`; returns its result.
pub async fn devtools(client: &Client, cmd: &'static str, params: Value) -> Result<Value> {
    Ok(client.issue_cmd(Cdp { cmd, params }).await?)
}

/// Lays the page out for `media` (`"print"`), or for the screen again
/// (`""`), as Chromium's print preview does, without opening a dialog.
pub async fn emulate_media(client: &Client, media: &str) -> Result<()> {
    devtools(
        client,
        "Emulation.setEmulatedMedia",
        json!({ "media": media }),
    )
    .await?;
    Ok(())
}

/// A DevTools protocol command, through chromedriver.
#[derive(Debug)]
struct Cdp {
    cmd: &'static str,
    params: Value,
}

impl WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/goog/cdp/execute",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        let body = json!({ "cmd": self.cmd, "params": self.params });
        (http::Method::POST, Some(body.to_string()))
    }
}
