//! libFuzzer target: see [`nomos_fuzz::transcript`] for what it checks.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| nomos_fuzz::transcript(data));
