#!/usr/bin/env bash
# The LLM methods against a real model (scripts/llm-server.sh's
# Qwen2.5-Coder-0.5B-Instruct on loopback): reform-sparse on the first STARD
# query and react-bm25 with 2 rounds over 5 candidates (200 characters each)
# on the first 2, each recorded to a transcript. ReAct's observer must have
# been asked and its reply parsed on at least one query
# (scripts/llm/observer-reached.py); each replay (no LLM) must give the same
# run file byte for byte, and a replay asked for a query it never recorded
# must fail with exit 2. Checks the format and the loop, not quality; few
# queries and short candidates keep CI's time down (the model writes about
# 15 tokens a second; a keyword list may run to the token limit). Run by
# scripts/test.sh; writes into target/llm-check/.
set -euo pipefail
cd "$(dirname "$0")/../.."

nomos="${NOMOS:-${CARGO_TARGET_DIR:-target}/release/nomos}"
url="${NOMOS_LLM_URL:-http://127.0.0.1:8089/v1}"
out="${CARGO_TARGET_DIR:-target}/llm-check"
mkdir -p "$out"
common=(--index public/indexes/stard.blob --llm-max-tokens 256)

for run in 1/reform-sparse 2/react-bm25:rounds=2,candidates=5,chars=200; do
  queries="${run%%/*}"
  method="${run#*/}"
  name="${method%%:*}"
  printf 'llm-check: %s, %s queries, live\n' "$method" "$queries"
  "$nomos" eval "${common[@]}" --first "$queries" --method "$method" \
    --llm-url "$url" --llm-model qwen2.5-coder-0.5b-instruct \
    --transcript "$out/$name.transcript.jsonl" \
    --run "$out/$name.run" --metrics "$out/$name.metrics.json" >"$out/$name.report.txt"
  cat "$out/$name.report.txt"
  if [ "$name" = react-bm25 ]; then
    python3 scripts/llm/observer-reached.py "$out/$name.metrics.json" "$out/$name.transcript.jsonl"
  fi
  printf 'llm-check: %s, replayed\n' "$method"
  "$nomos" eval "${common[@]}" --first "$queries" --method "$method" \
    --replay "$out/$name.transcript.jsonl" \
    --run "$out/$name.replay.run" --metrics "$out/$name.replay.metrics.json" >/dev/null
  cmp "$out/$name.run" "$out/$name.replay.run" \
    || { echo "llm-check: the replay of $method differs from the live run" >&2; exit 1; }
  set +e
  "$nomos" eval "${common[@]}" --first $((queries + 1)) --method "$method" \
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
