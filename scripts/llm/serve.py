"""Serves a GGUF model (scripts/llm/model.py finds or installs it) with
llama.cpp's OpenAI-compatible server (the PyPI package xllamacpp) on
loopback, until killed. Run by scripts/llm-server.sh.

CORS: llama.cpp's server answers preflights for any origin, so the
browser app on another loopback port may call it.
"""

import argparse
import signal
import sys
import time

import xllamacpp


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", required=True, help="the GGUF file")
    parser.add_argument("--alias", required=True, help="the model name it answers to")
    parser.add_argument("--port", type=int, default=8089)
    parser.add_argument("--ctx", type=int, default=8192)
    parser.add_argument("--parallel", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()

    params = xllamacpp.CommonParams()
    params.model.path = args.model
    # A set of names: a bare string would become the set of its letters.
    params.model_alias = {args.alias}
    params.hostnames = ["127.0.0.1"]
    params.port = args.port
    params.n_ctx = args.ctx * args.parallel
    params.n_parallel = args.parallel
    params.cpuparams.n_threads = args.threads
    params.cpuparams_batch.n_threads = args.threads
    server = xllamacpp.Server(params)
    print(f"llm-server: {args.alias} at {server.listening_address}/v1", flush=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()
