//! libFuzzer target: see [`nomos_fuzz::fragments`] for what it checks.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| nomos_fuzz::fragments(data));
