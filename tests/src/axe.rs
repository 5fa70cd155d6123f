//! axe-core's accessibility check of the page as it is shown: npm
//! `axe-core` (pinned in `package-lock.json`, installed by
//! `scripts/setup.sh`), injected from `node_modules` into the page under
//! test, never fetched from elsewhere.

use std::fmt;

use anyhow::{ensure, Context, Result};
use fantoccini::Client;
use serde_json::Value;

use crate::paths::repo_root;

/// One rule the page breaks, where.
#[derive(Debug, Clone, PartialEq)]
pub struct Violation {
    pub rule: String,
    /// axe's `minor`, `moderate`, `serious` or `critical`.
    pub impact: String,
    pub help: String,
    /// CSS selectors of the offending elements.
    pub targets: Vec<String>,
}

impl Violation {
    /// Serious or critical: what the tests allow none of.
    pub fn is_serious(&self) -> bool {
        matches!(self.impact.as_str(), "serious" | "critical")
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}): {} at {}",
            self.rule,
            self.impact,
            self.help,
            self.targets.join(", ")
        )
    }
}

/// Runs every axe rule on the page as shown and returns what it finds.
/// Injects axe first when the page lacks it (a navigation drops it).
pub async fn check(client: &Client) -> Result<Vec<Violation>> {
    let loaded = client
        .execute("return typeof window.axe === 'object';", vec![])
        .await?;
    if loaded != Value::Bool(true) {
        let path = repo_root().join("node_modules/axe-core/axe.min.js");
        let source = std::fs::read_to_string(&path).with_context(|| {
            format!(
                "reading {}: run scripts/setup.sh (npm ci installs axe-core)",
                path.display()
            )
        })?;
        client.execute(&source, vec![]).await?;
    }
    let found = client
        .execute_async(
            "const done = arguments[arguments.length - 1];
            axe.run(document, { resultTypes: ['violations'] })
                .then((r) => done(r.violations.map((v) => ({
                    rule: v.id, impact: v.impact ?? '', help: v.help,
                    targets: v.nodes.map((n) => n.target.join(' ')),
                }))))
                .catch((e) => done({ error: String(e) }));",
            vec![],
        )
        .await?;
    ensure!(found["error"].is_null(), "axe failed: {}", found["error"]);
    let text = |v: &Value, k: &str| v[k].as_str().unwrap_or_default().to_owned();
    Ok(found
        .as_array()
        .context("axe's violations")?
        .iter()
        .map(|v| Violation {
            rule: text(v, "rule"),
            impact: text(v, "impact"),
            help: text(v, "help"),
            targets: v["targets"]
                .as_array()
                .map(|t| {
                    t.iter()
                        .filter_map(|s| s.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default(),
        })
        .collect())
}
