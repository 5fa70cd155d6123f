//! libFuzzer target: see [`nomos_fuzz::method_spec`] for what it checks.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| nomos_fuzz::method_spec(data));
