//! libFuzzer target: see [`nomos_fuzz::siblings`] for what it checks.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| nomos_fuzz::siblings(data));
