//! The semantic model's part of a dense evaluation: waiting for the
//! model, then embedding every benchmark query once per pool.

use std::sync::Arc;

use leptos::prelude::*;
use nomos_core::pool::Benchmark;

use crate::evaluate::job::{Pacer, Stop};
use crate::format::thousands;
use crate::latest::Ticket;
use crate::semantic::ModelError;

use super::EvalStore;

impl EvalStore {
    /// Waits for the semantic model (its download shows under Search's
    /// box, and as this job's progress).
    pub(super) async fn wait_for_model(&self, ticket: Ticket) -> Result<(), Stop> {
        self.job.update(|j| {
            if let Some(j) = j {
                j.waits_for_model = true;
            }
        });
        let ready = self.semantic.ready().await;
        if !ticket.is_current() {
            return Err(Stop::Cancelled);
        }
        ready.map(drop).map_err(|e| {
            Stop::Failed(match e {
                ModelError::NoVectors | ModelError::NotServed(_) => e.to_string(),
                e => format!("the semantic model failed: {e}"),
            })
        })
    }

    /// Embeds every benchmark query (as a query, with the pool's model, in
    /// its worker) and keeps the vectors for the pool. Tens of milliseconds
    /// each in a browser on 2 cores, so STARD's 1,543 take minutes:
    /// progress is shown and Cancel works between queries.
    pub(super) async fn embed_queries(
        &self,
        ticket: Ticket,
        bench: &Benchmark,
        pacer: &mut Pacer<'_>,
    ) -> Result<Arc<Vec<Vec<f32>>>, Stop> {
        let label = "Embedding the queries with the semantic model";
        let n = bench.queries.len();
        let mut vectors = Vec::with_capacity(n);
        for (i, q) in bench.queries.iter().enumerate() {
            // Tokenising and pooling run on this thread: the pacer still
            // gives the page its turns.
            if pacer.due() {
                pacer.turn().await?;
            }
            let detail = format!("{} of {} queries", thousands(i), thousands(n));
            self.step(ticket, label, i, n, Some(detail));
            let vector = self
                .semantic
                .embed_query(q.text.clone())
                .await
                .map_err(|e| Stop::Failed(format!("query {}: {e}", q.id)))?;
            vectors.push(vector);
        }
        let vectors = Arc::new(vectors);
        self.embeddings.set_value(Some(vectors.clone()));
        Ok(vectors)
    }
}
