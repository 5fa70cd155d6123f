#!/usr/bin/env bash
# Builds everything and serves the app: installs the web toolchain if
# missing (scripts/setup.sh), builds the demo index blobs and serves the
# models (scripts/build-demo.sh --embed all --in-page-llm), all of Danish
# law where its source is present (scripts/danish-law.sh), builds the app
# with Trunk into dist/, and serves dist/ on http://127.0.0.1:8080/.
#
#   scripts/serve.sh [--port N]      (or PORT=N scripts/serve.sh)
#   scripts/serve.sh --no-serve      build only
#   scripts/serve.sh --connect-src https://llm.example.org
#       also lets the page reach that LLM endpoint (off loopback): the
#       origin goes into the Content-Security-Policy (NOMOS_CONNECT_SRC,
#       read by scripts/csp-hashes.py at build time; repeatable)
set -euo pipefail
cd "$(dirname "$0")/.."

port="${PORT:-8080}"
serve=1
while [ $# -gt 0 ]; do
  case "$1" in
    --port) port="$2"; shift 2 ;;
    --port=*) port="${1#--port=}"; shift ;;
    --no-serve) serve=0; shift ;;
    --connect-src) NOMOS_CONNECT_SRC="${NOMOS_CONNECT_SRC:-} $2"; shift 2 ;;
    *) echo "usage: scripts/serve.sh [--port N] [--no-serve] [--connect-src ORIGIN]" >&2; exit 2 ;;
  esac
done

scripts/setup.sh
# Vectors in every pool (made once; kept while up to date): dense and hybrid search.
scripts/build-demo.sh --embed all --in-page-llm
# All of Danish law (docs/danish-law.md), when its source is here: a checkout
# or git directory of Ansvar-Systems/Danish-law-mcp at $DANISH_LAW_SRC, else
# at ../Danish-law-mcp beside this checkout. Built into
# public/indexes/da-law/ (docs/danish-law.md says how long) when missing or older than nomos
# (after updating the source, remove that directory to rebuild).
danish_src="${DANISH_LAW_SRC:-../Danish-law-mcp}"
danish_meta=public/indexes/da-law/meta
if [ -e "$danish_src" ]; then
  if [ ! -f "$danish_meta" ] || [ "${CARGO_TARGET_DIR:-target}/release/nomos" -nt "$danish_meta" ]; then
    scripts/danish-law.sh "$danish_src"
  fi
else
  echo "serve.sh: all of Danish law is not served: no source at $danish_src. To add it" >&2
  echo "  (docs/danish-law.md): git clone --depth 1 https://github.com/Ansvar-Systems/Danish-law-mcp ../Danish-law-mcp" >&2
  echo "  (or set DANISH_LAW_SRC to a checkout or git directory of it), and run scripts/serve.sh again." >&2
fi
export PATH="$PWD/node_modules/.bin:$PATH"
export NOMOS_CONNECT_SRC="${NOMOS_CONNECT_SRC:-}"
cargo fetch --locked
trunk build --release --offline

if [ "$serve" = 1 ]; then
  exec python3 scripts/serve.py dist "$port"
fi
