#!/usr/bin/env bash
# Fuzzes every untrusted input for a fixed time in all, shared equally
# by the targets (fuzz/: blobs and their sibling files, a fragmented
# pool's files, links, TREC runs and qrels, method specs, transcripts and
# LLM replies, imported judgments and runs, the site's manifests),
# starting from the committed seeds (fuzz/seeds/<target>/). Prints the
# executions per target; fails if any input crashes, times out or runs out
# of memory, and saves it under fuzz/regressions/<target>/, which
# `cargo test -p nomos-fuzz` replays from then on (commit it with the fix).
#
#   scripts/fuzz.sh            # 240 s in all, 24 s for each of the 10 targets
#   FUZZ_TOTAL_SECONDS=600 scripts/fuzz.sh blob_open   # 600 s on one target
#   FUZZ_SECONDS=60 scripts/fuzz.sh                     # 60 s per target
#   FUZZ_JOBS=1 scripts/fuzz.sh  # one target at a time (default: one per core)
#
# Idempotent: installs cargo-fuzz and the nightly toolchain only if missing.
set -euo pipefail
cd "$(dirname "$0")/.."

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(blob_open url_state trec method_spec fragments siblings
  transcript llm_reply imports manifests)
# The total CI spent on four targets of 60 s before there were ten.
total="${FUZZ_TOTAL_SECONDS:-240}"
seconds="${FUZZ_SECONDS:-$((total / ${#targets[@]}))}"

rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
# Unoptimised: cargo-fuzz only drives cargo, and a fresh CI machine builds it.
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked --debug

# Release build (cargo-fuzz's default) with debug assertions, so that an
# arithmetic overflow is a crash too; AddressSanitizer (the default) checks
# the memory that rkyv's validated archives are read from.
fuzz=(cargo +nightly fuzz run --features fuzz --debug-assertions)
start=$(date +%s)
cargo +nightly fuzz build --features fuzz --debug-assertions 2>&1 | tail -n 1
echo "built in $(($(date +%s) - start)) s"

# libFuzzer adds what it finds to the first corpus folder: a scratch one,
# so the committed seeds stay as they are.
scratch="${CARGO_TARGET_DIR:-target}/fuzz-corpus"
# One target per core at a time: each libFuzzer process is single-threaded.
jobs="${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}"
fuzz_one() {
  local target="$1" status=0
  mkdir -p "$scratch/$target" "fuzz/regressions/$target"
  "${fuzz[@]}" "$target" "$scratch/$target" "fuzz/seeds/$target" -- \
    -max_total_time="$seconds" -timeout=30 -print_final_stats=1 \
    -artifact_prefix="fuzz/regressions/$target/" >"$scratch/$target.log" 2>&1 || status=$?
  echo "$status" >"$scratch/$target.status"
}
for target in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do sleep 1; done
  rm -f "$scratch/$target.status"
  fuzz_one "$target" &
done
wait
failed=()
total=0
for target in "${targets[@]}"; do
  log="$scratch/$target.log"
  outcome="in $seconds s"
  if [ "$(cat "$scratch/$target.status" 2>/dev/null)" != 0 ]; then
    failed+=("$target")
    outcome="before it FAILED"
    grep -m 1 -A 3 -E 'panicked|ERROR: libFuzzer|ERROR: AddressSanitizer' "$log" || tail -n 40 "$log"
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  total=$((total + ${runs:-0}))
  printf '%-12s %12s executions %s\n' "$target" "${runs:-?}" "$outcome"
done
printf '%-12s %12s executions\n' total "$total"
if [ ${#failed[@]} -gt 0 ]; then
  echo "error: fuzzing failed for ${failed[*]}; the inputs are in fuzz/regressions/" >&2
  exit 1
fi
