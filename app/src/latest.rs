//! Staleness, handled once: async work (a pool load, an evaluation, a
//! query's embedding) takes a [`Ticket`] when it starts, and before it
//! publishes anything asks whether a later start or a cancel superseded
//! it. Pools, evaluation jobs and the search pipeline all use this, so
//! there is one rule for "is this answer still wanted".

use leptos::prelude::*;

/// A series of tasks of which only the latest counts.
#[derive(Clone, Copy)]
pub struct Latest(StoredValue<u64>);

/// One task's place in its series.
#[derive(Clone, Copy)]
pub struct Ticket {
    series: Latest,
    id: u64,
}

impl Latest {
    /// A series with no task yet.
    pub fn new() -> Self {
        Latest(StoredValue::new(0))
    }

    /// Starts a task, superseding every earlier one.
    pub fn begin(&self) -> Ticket {
        self.0.update_value(|id| *id += 1);
        Ticket {
            series: *self,
            id: self.0.get_value(),
        }
    }

    /// Supersedes every task without starting one.
    pub fn cancel(&self) {
        self.0.update_value(|id| *id += 1);
    }
}

impl Ticket {
    /// Whether no later task started and nothing cancelled this one (nor
    /// disposed the series, with the pool it belonged to).
    pub fn is_current(&self) -> bool {
        self.series.0.try_get_value() == Some(self.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_later_start_or_a_cancel_supersedes() {
        let owner = Owner::new();
        owner.with(|| {
            let series = Latest::new();
            let first = series.begin();
            assert!(first.is_current());
            let second = series.begin();
            assert!(!first.is_current());
            assert!(second.is_current());
            series.cancel();
            assert!(!second.is_current());
        });
    }
}
