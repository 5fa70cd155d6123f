//! Opening a run file made elsewhere as A or B: checked against the
//! benchmark, evaluated at once, and kept for the pool.

use std::sync::Arc;

use leptos::prelude::*;

use crate::eval_config::{RunFile, Slot};
use crate::evaluate::imported::{self, RunImportError, Summary};
use crate::evaluate::measures;
use crate::transcript_files::short_hash;
use crate::web::now;

use super::EvalStore;

impl EvalStore {
    /// Checks a run file (`name`, `bytes`) against the benchmark and
    /// shows it as `slot`, keeping it for the pool; `expected` is the
    /// SHA-256 a link names. The report says what it holds, or why it was
    /// refused.
    pub fn open_run(
        &self,
        slot: Slot,
        name: &str,
        bytes: &[u8],
        expected: Option<&str>,
    ) -> Option<RunFile> {
        let outcome = self.import_run(slot, name, bytes, expected);
        let file = outcome.as_ref().ok().map(|s| s.file.clone());
        self.run_report.set(Some(outcome));
        file
    }

    fn import_run(
        &self,
        slot: Slot,
        name: &str,
        bytes: &[u8],
        expected: Option<&str>,
    ) -> Result<Summary, RunImportError> {
        let bench = self
            .engine
            .with_value(|e| e.benchmark())
            .map_err(RunImportError::Benchmark)?;
        let checked = imported::check(bytes, name, &bench).map_err(RunImportError::Refused)?;
        let file = &checked.summary.file;
        if let Some(wanted) = expected.filter(|w| *w != file.sha256) {
            return Err(RunImportError::NotLinked {
                name: file.name.clone(),
                found: file.short().to_owned(),
                linked: short_hash(wanted).to_owned(),
            });
        }
        let started = now();
        let mut outcome = checked
            .outcome(&bench, &measures::reported())
            .map_err(RunImportError::Evaluation)?;
        outcome.eval_millis = now() - started;
        if self.bench.with_untracked(Option::is_none) {
            self.bench.set(Some(bench));
        }
        let text = String::from_utf8_lossy(bytes).into_owned();
        let summary = checked.summary;
        self.runs.keep(
            summary.file.sha256.clone(),
            summary.file.name.clone(),
            summary.lines,
            text,
        );
        self.outcome(slot).set(Some(Arc::new(outcome)));
        Ok(summary)
    }

    /// Shows the kept run file `sha256` as `slot`. `false` when this
    /// browser does not keep it.
    pub async fn restore_run(self, slot: Slot, sha256: &str) -> bool {
        match self.runs.get(sha256).await {
            Some((name, text)) => {
                self.open_run(slot, &name, text.as_bytes(), Some(sha256));
                true
            }
            None => false,
        }
    }
}
