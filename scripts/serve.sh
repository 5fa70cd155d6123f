#!/usr/bin/env bash
# Builds everything and serves the app: installs the web toolchain if
# missing (scripts/setup.sh), builds the demo index blobs and serves the
# models (scripts/build-demo.sh --embed all --in-page-llm), builds the app
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
export PATH="$PWD/node_modules/.bin:$PATH"
export NOMOS_CONNECT_SRC="${NOMOS_CONNECT_SRC:-}"
cargo fetch --locked
trunk build --release --offline

if [ "$serve" = 1 ]; then
  exec python3 scripts/serve.py dist "$port"
fi
