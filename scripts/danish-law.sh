#!/usr/bin/env bash
# Builds all of Danish law (every Retsinformation document with provisions,
# from Ansvar-Systems/Danish-law-mcp) as one fragmented pool, straight into
# a meta file and content-addressed fragments for any static host
# (`nomos build --format da-law --fragments`; docs/danish-law.md).
#
#   scripts/danish-law.sh SRC [--out DIR] [--vectors MINUTES]
#
# SRC is a checkout of the repository (git clone --depth 1
# https://github.com/Ansvar-Systems/Danish-law-mcp) or its git directory;
# its data/seed/ is read (from a git directory, extracted to a temporary
# directory first, 1.4 GB). DIR defaults to the demo's
# public/indexes/da-law/, and the demo's manifest is then written again to
# list it. The time, memory and disk it takes on 2 cores are in
# docs/danish-law.md. A progress bar with the time left shows each step.
#
# --vectors MINUTES also embeds the consolidated acts (LBK), the acts other
# documents cite most first, for at most MINUTES (Ctrl-C stops it too), and
# cuts their vectors into inverted lists for dense and hybrid search; the
# rest rank by BM25 alone. The vectors are kept in
# .embed-cache/da-law-lbk.emb, so the same command again goes on where the
# last stopped (docs/danish-law.md, "Vectors for the consolidated acts").
# Needs models/e5-small (scripts/build-demo.sh --embed makes it).
# NOMOS names a CLI built already; otherwise the release build is used.
set -euo pipefail
cd "$(dirname "$0")/.."

usage="usage: scripts/danish-law.sh SRC [--out DIR] [--vectors MINUTES]"
src=""
out=""
vectors=()
model=models/e5-small
while [ $# -gt 0 ]; do
  case "$1" in
    --out) [ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }; out="$2"; shift 2 ;;
    --out=*) out="${1#--out=}"; shift ;;
    --vectors) [ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
      [ -f "$model/manifest.json" ] || {
        echo "danish-law.sh: --vectors needs $model: run scripts/build-demo.sh --embed da-law-sample" >&2
        exit 2
      }
      mkdir -p .embed-cache
      vectors=(--embed "$model" --embed-only LBK --embed-minutes "$2"
        --embed-cache .embed-cache/da-law-lbk.emb)
      shift 2 ;;
    -*) echo "$usage" >&2; exit 2 ;;
    *) [ -z "$src" ] || { echo "$usage" >&2; exit 2; }; src="$1"; shift ;;
  esac
done
[ -n "$src" ] || { echo "$usage" >&2; exit 2; }
default_out=public/indexes/da-law
out="${out:-$default_out}"

# The seed folder: a checkout's, or extracted from a git directory.
if [ -d "$src/data/seed" ]; then
  seed="$src/data/seed"
elif git --git-dir="$src" rev-parse --verify --quiet HEAD:data/seed >/dev/null 2>&1; then
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  echo "extracting data/seed from $src ($(git --git-dir="$src" rev-parse --short HEAD))"
  git --git-dir="$src" archive --prefix=data/seed/ HEAD:data/seed | tar -x -C "$tmp"
  seed="$tmp/data/seed"
else
  echo "danish-law.sh: $src has no data/seed/: give a checkout of" >&2
  echo "  https://github.com/Ansvar-Systems/Danish-law-mcp or its git directory" >&2
  exit 2
fi

if [ -n "${NOMOS:-}" ]; then
  nomos="$NOMOS"
  [ -x "$nomos" ] || { echo "danish-law.sh: NOMOS=$nomos is not an executable" >&2; exit 2; }
else
  cargo build --release --locked -p nomos-index-builder
  nomos="${CARGO_TARGET_DIR:-target}/release/nomos"
fi

# Built beside the old pool and swapped in whole, so a failed build leaves
# the last good one in place.
rm -rf "$out.new"
mkdir -p "$(dirname "$out")"
"$nomos" build --format da-law "$seed" --fragments "$out.new" \
  --title "Danish law in force (Retsinformation)" "${vectors[@]}"
rm -rf "$out"
mv "$out.new" "$out"
echo "$out: $(du -sh "$out" | cut -f1) in $(find "$out" -type f | wc -l) files"
if [ "$out" = "$default_out" ]; then
  "$nomos" manifest "$(dirname "$out")"
fi
