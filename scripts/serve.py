"""Serves a directory on 127.0.0.1 with the MIME types the app needs.

Python's http.server guesses types from the platform's tables, which not
every Python maps `.wasm` in; browsers refuse to stream-compile WebAssembly
served as anything but application/wasm. Pages are sent cross-origin
isolated (COOP + COEP), as public/sw.js also makes them, so that ONNX
Runtime embeds queries on several threads from the first visit, and with
the build's Content-Security-Policy (DIR/content-security-policy.txt,
written by scripts/csp-hashes.py: the page's own policy plus
frame-ancestors) and `X-Content-Type-Options: nosniff`, as the service
worker sends them.
Usage: serve.py DIR PORT
"""

import functools
import http.server
import sys
from pathlib import Path

POLICY = "content-security-policy.txt"


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
        ".json": "application/json",
        ".blob": "application/octet-stream",
    }

    policy = ""

    def end_headers(self) -> None:
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        self.send_header("Content-Security-Policy", self.policy)
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()


def main() -> None:
    directory, port = sys.argv[1], int(sys.argv[2])
    policy = Path(directory, POLICY)
    if not policy.is_file():
        sys.exit(f"{policy} is missing: build the app with Trunk (scripts/serve.sh --no-serve)")
    Handler.policy = policy.read_text(encoding="utf-8").strip()
    handler = functools.partial(Handler, directory=directory)
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as server:
        print(f"Serving {directory} on http://127.0.0.1:{port}/ (Ctrl-C stops)", flush=True)
        server.serve_forever()


if __name__ == "__main__":
    main()
