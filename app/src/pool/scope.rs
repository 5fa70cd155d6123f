//! The lifetime of one loaded pool's reactive state.
//!
//! A pool's session (or fragmented store) makes its signals inside a
//! reactive [`Owner`] of its own, which the pools store holds while the
//! pool is shown and then lets go of (`Pools::release_scope`): when the
//! last holder lets go, the owner disposes the signals, and with them the
//! engine, the fetched fragments and the results they hold. Before this,
//! signals made by a load (an async task, outside any owner) lived as long
//! as the page, and every pool ever opened stayed in memory.
//!
//! A task of the pool's (a fetch, an evaluation) reads its signals after
//! each await, so it holds the owner until it ends ([`PoolScope::spawn`]):
//! a pool replaced meanwhile is freed once its cancelled tasks return,
//! never under a task's feet.

use std::future::Future;

use leptos::prelude::*;
use leptos::task::spawn_local;

/// A handle on the owner a store was made in. `Copy`.
#[derive(Clone, Copy)]
pub struct PoolScope(StoredValue<Option<WeakOwner>>);

impl PoolScope {
    /// `owner`'s: the pools store makes one per pool and hands it to the
    /// stores it makes in that owner.
    pub fn of(owner: &Owner) -> Self {
        PoolScope(StoredValue::new(Some(owner.downgrade())))
    }

    /// Runs `task`, keeping the pool's state until it ends; not at all once
    /// that state is gone (its pool was replaced).
    pub fn spawn(self, task: impl Future<Output = ()> + 'static) {
        let held = match self.0.try_get_value() {
            None => return,
            Some(None) => None,
            Some(Some(weak)) => match weak.upgrade() {
                Some(owner) => Some(owner),
                None => return,
            },
        };
        spawn_local(async move {
            task.await;
            drop(held);
        });
    }
}
