//! Sharing an evaluation's LLM transcript: kept with the exchanges of the
//! LLM results shown beside it, so one link reproduces both.

use leptos::prelude::*;

use crate::eval_config::Slot;
use crate::format::plural;
use crate::llm::Run;

use super::EvalStore;

impl EvalStore {
    /// Keeps the job's transcript, with the exchanges of LLM results
    /// shown beside it (the slot the job did not rank), so that one link
    /// reproduces both.
    pub(super) async fn share(&self, run: &Run, slots: &[Slot], n: usize, pool: &str) {
        let other_llm = [Slot::Current, Slot::Compared]
            .iter()
            .filter(|s| !slots.contains(s))
            .any(|s| {
                self.outcome(*s)
                    .with_untracked(|o| o.as_ref().is_some_and(|o| o.llm.is_some()))
            });
        let earlier = match self.transcript.get_untracked().filter(|_| other_llm) {
            Some(link) => self.llm.transcripts.get(&link).await.ok(),
            None => None,
        };
        let name = format!(
            "{pool} · evaluation · first {} · {}",
            plural(n, "query", "queries"),
            run.settings.model
        );
        let link = self.llm.share(run, name, earlier.as_deref());
        self.transcript.set(Some(link));
    }
}
