#!/usr/bin/env bash
# Long-article pooling: every pool embedded with every pooling, every
# known-item set (and STARD's real queries) ranked with dense and RRF, and
# the table of docs/benchmarks/long-articles.md ("Long articles") printed with paired t-tests
# against today's window average, Holm-corrected.
#
#   bench/long_articles.sh OUT [POOL...]      (default: every pool)
#   POOLINGS="first title+first" bench/long_articles.sh OUT da-acts
#
# Needs, from the repository root: target/release/nomos and models/e5-small
# (scripts/build-demo.sh makes both), .venv-ref with scipy
# (scripts/fixtures/make-fixtures.sh), and the known-item sets in OUT/sets:
#   nomos model prepare --out models/e5-small --texts-out OUT/pool-texts.jsonl
#   python3 scripts/model/known_items.py --texts OUT/pool-texts.jsonl --out OUT/sets
# Blobs and metrics already in OUT are kept, so an interrupted run resumes.
# Embedding time per pool and pooling is logged to OUT/build-times.tsv.
set -euo pipefail
cd "$(dirname "$0")/.."

out="${1:?usage: bench/long_articles.sh OUT [POOL...]}"
shift
pools=("$@")
[ ${#pools[@]} -gt 0 ] || pools=(el-syntagma el-nomothesia stard da-acts)
nomos="${CARGO_TARGET_DIR:-target}/release/nomos"
model=models/e5-small
read -r -a poolings <<<"${POOLINGS:-first average max title+first title+average title+max}"
mkdir -p "$out/blobs" "$out/metrics"

src() {
  case "$1" in
    da-acts) echo data/da-statutes ;;
    el-syntagma) echo data/el-syntagma ;;
    el-nomothesia) echo data/el-nomothesia ;;
    stard) echo data/stard ;;
  esac
}

# The query sets ranked on each pool (`pool` = the blob's own queries).
sets() {
  case "$1" in
    da-acts) echo da-sentences ;;
    el-syntagma) echo el-headings el-sentences ;;
    el-nomothesia) echo nomothesia-headings nomothesia-sentences \
      nomothesia-long-headings nomothesia-long-sentences ;;
    stard) echo pool ;;
  esac
}

evaluate() {
  local blob="$1" set="$2" method="$3" metrics="$4"
  [ -f "$metrics" ] && return 0
  local queries=()
  if [ "$set" != pool ]; then
    queries=(--queries "$out/sets/$set.queries.jsonl" --qrels "$out/sets/$set.qrels.tsv")
  fi
  "$nomos" eval --index "$blob" --model "$model" --method "$method" "${queries[@]}" \
    --run "$out/run.tmp" --metrics "$metrics" >/dev/null
}

for pool in "${pools[@]}"; do
  for pooling in "${poolings[@]}"; do
    blob="$out/blobs/$pool.$pooling.blob"
    if [ ! -f "$blob" ]; then
      echo "$pool: embedding with pooling $pooling" >&2
      started=$(date +%s)
      "$nomos" build --format "$pool" "$(src "$pool")" -o "$blob" --embed "$model" \
        --pooling "$pooling" 2>&1 | grep -E '^(embedded|wrote)' >&2
      printf '%s\t%s\t%s\t%s\n' "$pool" "$pooling" "$(($(date +%s) - started))" \
        "$(stat -c %s "$blob")" >>"$out/build-times.tsv"
    fi
    for set in $(sets "$pool"); do
      name="$set"
      [ "$set" = pool ] && name="$pool"
      evaluate "$blob" "$set" bm25 "$out/metrics/$name.bm25.json"
      for method in dense rrf; do
        evaluate "$blob" "$set" "$method" "$out/metrics/$name.$pooling.$method.json"
      done
    done
  done
done
rm -f "$out/run.tmp"
.venv-ref/bin/python bench/long_articles.py "$out"
