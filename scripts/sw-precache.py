"""Writes this build's precache list and version into the service worker.

Run by Trunk as a post-build hook (see Trunk.toml), in the staging
directory Trunk is about to make dist/ (TRUNK_STAGING_DIR). Trunk names the
JS, wasm and CSS by content hash, so the list is only known after a build.
The app's files are precached; the blobs (indexes/*.blob) and their text
and vectors files (indexes/*.text, *.vectors: fetched when needed), the
fragmented pools (indexes/DIR/meta and DIR/*.frag: fetched by queries), the models
(models/: the semantic model, the in-page LLM), ONNX Runtime (ort/) and
wllama (wllama/) are not: the service worker keeps each on first use (see
public/sw.js). Nor are LLM transcripts (transcripts/*.jsonl, possibly
large): the app keeps those it loads in IndexedDB; their list,
transcripts/index.json, is precached (not the notes beside them, *.md).
The worker also gets the
Content-Security-Policy it sends (csp-hashes.py's
content-security-policy.txt, written just before). The version is a
hash of every precached file and of the worker itself, so any change makes
browsers install the new worker, which then deletes the old caches.
"""

import hashlib
import json
import os
import sys
from pathlib import Path

WORKER = "sw.js"
POLICY = "content-security-policy.txt"
# Directories the worker keeps on first use instead (large, and only for
# the dense methods or the in-page LLM).
ON_FIRST_USE = {"models", "ort", "wllama"}
# What public/sw.js declares before the hook fills it in.
PLACEHOLDER = 'const BUILD = { version: "unbuilt", files: [], csp: "" };'


def is_fragment_meta(parts: tuple) -> bool:
    """A fragmented pool's meta file (indexes/DIR/meta): revalidated by
    the worker on every load, never precached."""
    return len(parts) == 3 and parts[0] == "indexes" and parts[2] == "meta"


def main() -> None:
    stage = Path(os.environ.get("TRUNK_STAGING_DIR") or sys.argv[1])
    worker = stage / WORKER
    source = worker.read_text(encoding="utf-8")
    if PLACEHOLDER not in source:
        sys.exit(f"{worker}: no build placeholder ({PLACEHOLDER})")

    files = sorted(
        p.relative_to(stage).as_posix()
        for p in stage.rglob("*")
        if p.is_file()
        and p.name not in {WORKER, POLICY}
        and p.suffix not in {".blob", ".text", ".vectors", ".jsonl", ".frag", ".md"}
        and not is_fragment_meta(p.relative_to(stage).parts)
        and p.relative_to(stage).parts[0] not in ON_FIRST_USE
    )
    digest = hashlib.sha256(source.encode())
    for name in files:
        digest.update(name.encode() + b"\0")
        digest.update((stage / name).read_bytes())
    policy = (stage / POLICY).read_text(encoding="utf-8").strip()
    build = {"version": digest.hexdigest()[:16], "files": files, "csp": policy}

    line = f"const BUILD = {json.dumps(build)};"
    worker.write_text(source.replace(PLACEHOLDER, line), encoding="utf-8")
    print(f"sw-precache: {len(files)} files, version {build['version']}")


if __name__ == "__main__":
    main()
