//! Choosing a pool and following its loading.

pub mod pool_picker;
