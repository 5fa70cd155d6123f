#!/usr/bin/env bash
# Builds the `nomos` CLI and the demo index blobs from the committed source
# text in data/ into public/indexes/, with the manifest the app reads.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release --locked -p nomos-index-builder
# Where cargo put it: CI and developers may set CARGO_TARGET_DIR.
nomos="${CARGO_TARGET_DIR:-target}/release/nomos"
out=public/indexes
mkdir -p "$out"

"$nomos" build --format da-acts data/da-statutes -o "$out/da-acts.blob"
"$nomos" build --format el-syntagma data/el-syntagma -o "$out/el-syntagma.blob"
"$nomos" build --format stard data/stard -o "$out/stard.blob"
"$nomos" manifest "$out"
