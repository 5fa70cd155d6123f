"""Serves a directory on 127.0.0.1 with the MIME types the app needs.

Python's http.server guesses types from the platform's tables, which not
every Python maps `.wasm` in; browsers refuse to stream-compile WebAssembly
served as anything but application/wasm. Pages are sent cross-origin
isolated (COOP + COEP), as public/sw.js also makes them, so that ONNX
Runtime embeds queries on several threads from the first visit.
Usage: serve.py DIR PORT
"""

import functools
import http.server
import sys


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
        ".json": "application/json",
        ".blob": "application/octet-stream",
    }

    def end_headers(self) -> None:
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()


def main() -> None:
    directory, port = sys.argv[1], int(sys.argv[2])
    handler = functools.partial(Handler, directory=directory)
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as server:
        print(f"Serving {directory} on http://127.0.0.1:{port}/ (Ctrl-C stops)", flush=True)
        server.serve_forever()


if __name__ == "__main__":
    main()
