//! The k1 × b sweep job: one measure evaluated for every cell of a
//! grid, with BM25 alone.

use leptos::prelude::*;
use nomos_core::blob::Field;
use nomos_core::methods::Method;
use nomos_core::search::Bm25Params;

use crate::eval_config::Config;
use crate::evaluate::job::{self, Pacer, Ranker};
use crate::evaluate::measures;
use crate::evaluate::sweep::{self, Grid};
use crate::format::plural;
use crate::web::now;

use super::{EvalStore, SweepResult};

impl EvalStore {
    /// Evaluates `measure` for every cell of `grid`, with the variant and
    /// epsilon of `base` (BM25 alone, on `field`).
    pub fn sweep(self, grid: Grid, base: Bm25Params, field: Field, measure: String) {
        let Some(measure_spec) = measure.parse().ok() else {
            return;
        };
        let Some((ticket, bench)) = self.start() else {
            return;
        };
        let engine = self.engine.get_value();
        let n = bench.queries.len();
        let cells = grid.cells();
        self.scope.spawn(async move {
            let keep_going = move || ticket.is_current();
            let mut pacer = Pacer::new(&keep_going);
            let started = now();
            self.sweep.set(Some(SweepResult {
                grid: grid.clone(),
                base,
                measure: measure.clone(),
                values: vec![None; cells],
                millis: 0.0,
                finished: false,
            }));
            self.message.set(format!(
                "Sweeping {} for {}…",
                plural(cells, "setting", "settings"),
                measures::label(&measure)
            ));
            let mut announced = 0;
            for cell in 0..cells {
                let (k1, b) = grid.cell(cell);
                let params = Bm25Params { k1, b, ..base };
                let label = format!("Setting {} of {cells}: k1 = {k1}, b = {b}", cell + 1);
                let mut progress = |done| self.progress(ticket, &label, cell * n + done, cells * n);
                let ranker = Ranker {
                    config: Config {
                        method: Method::Bm25,
                        params,
                        field,
                    },
                    pool: engine.pool_of(field),
                    embeddings: None,
                };
                let outcome = job::run(
                    &bench,
                    n,
                    &ranker,
                    &[measure_spec],
                    false,
                    &mut pacer,
                    &mut progress,
                )
                .await;
                let value = match outcome {
                    Ok(o) => o.eval.means[0],
                    Err(stop) => return self.stopped(ticket, stop),
                };
                self.sweep.update(|s| {
                    if let Some(s) = s {
                        s.values[cell] = Some(value);
                        s.millis = now() - started;
                    }
                });
                // Announce each quarter, not each cell.
                let quarter = (cell + 1) * 4 / cells;
                if quarter > announced && cell + 1 < cells {
                    announced = quarter;
                    self.message.set(format!("Sweep {}% done.", quarter * 25));
                }
            }
            let best = self.sweep.with_untracked(|s| {
                s.as_ref().and_then(|s| {
                    let cell = sweep::best(&s.values)?;
                    let (k1, b) = s.grid.cell(cell);
                    Some(format!(
                        " Best: k1 = {k1}, b = {b} with {:.4}.",
                        s.values[cell].unwrap_or_default()
                    ))
                })
            });
            self.sweep.update(|s| {
                if let Some(s) = s {
                    s.finished = true;
                }
            });
            self.finish(
                ticket,
                format!(
                    "Sweep done in {:.1} s.{}",
                    (now() - started) / 1000.0,
                    best.unwrap_or_default()
                ),
            );
        });
    }
}
