#!/usr/bin/env bash
# The LLM methods against a real model (scripts/llm-server.sh's
# SmolLM2-135M-Instruct on loopback): reform-sparse and react-bm25 with 2
# rounds over the first 3 STARD queries and 10 truncated candidates, each
# recorded to a transcript; each replay (no LLM) must give the same run file
# byte for byte, and a replay asked for a query it never recorded must fail
# with exit 2. Checks the format and the loop, not quality. Run by
# scripts/test.sh; writes into target/llm-check/.
set -euo pipefail
cd "$(dirname "$0")/../.."

nomos="${NOMOS:-${CARGO_TARGET_DIR:-target}/release/nomos}"
url="${NOMOS_LLM_URL:-http://127.0.0.1:8089/v1}"
out="${CARGO_TARGET_DIR:-target}/llm-check"
mkdir -p "$out"
common=(--index public/indexes/stard.blob --llm-max-tokens 256)

for method in reform-sparse react-bm25:rounds=2,candidates=10,chars=300; do
  name="${method%%:*}"
  printf 'llm-check: %s, 3 queries, live\n' "$method"
  "$nomos" eval "${common[@]}" --first 3 --method "$method" \
    --llm-url "$url" --llm-model smollm2-135m-instruct \
    --transcript "$out/$name.transcript.jsonl" \
    --run "$out/$name.run" --metrics "$out/$name.metrics.json" >"$out/$name.report.txt"
  cat "$out/$name.report.txt"
  printf 'llm-check: %s, replayed\n' "$method"
  "$nomos" eval "${common[@]}" --first 3 --method "$method" \
    --replay "$out/$name.transcript.jsonl" \
    --run "$out/$name.replay.run" --metrics "$out/$name.replay.metrics.json" >/dev/null
  cmp "$out/$name.run" "$out/$name.replay.run" \
    || { echo "llm-check: the replay of $method differs from the live run" >&2; exit 1; }
  set +e
  "$nomos" eval "${common[@]}" --first 4 --method "$method" \
    --replay "$out/$name.transcript.jsonl" \
    --run "$out/$name.extra.run" --metrics "$out/$name.extra.metrics.json" >/dev/null 2>"$out/$name.extra.err"
  status=$?
  set -e
  if [ "$status" -ne 2 ] || ! grep -q "is not in" "$out/$name.extra.err"; then
    echo "llm-check: a replay of an unrecorded query must fail with exit 2 (got $status):" >&2
    cat "$out/$name.extra.err" >&2
    exit 1
  fi
done
echo "llm-check: live runs and their replays agree byte for byte"
