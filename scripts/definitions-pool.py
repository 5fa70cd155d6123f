#!/usr/bin/env python3
"""Writes the measurement pool of cross-reference-aware retrieval (issue #37,
docs/benchmarks/cross-references.md): every document of Danish law that has
provisions and defines at least one term, from the seed of
Ansvar-Systems/Danish-law-mcp; with SINCE (a year), only those issued in it
or later.

    scripts/definitions-pool.py SRC OUT_DIR [SINCE]

SRC is a checkout of the repository, its data/seed/ folder, or its git
directory (read with `git cat-file`, nothing extracted). Each chosen file is
written as read, less `provision_versions` (a copy of `provisions` the reader
never reads). Deterministic: the same seed gives the same files.
"""

import json
import os
import subprocess
import sys


def from_folder(seed):
    for name in sorted(os.listdir(seed)):
        if name.endswith(".json"):
            with open(os.path.join(seed, name), "rb") as f:
                yield name, f.read()


def from_git(git_dir):
    git = ["git", "--git-dir", git_dir]
    listing = subprocess.run(
        git + ["ls-tree", "HEAD:data/seed"], check=True, capture_output=True, text=True
    ).stdout
    entries = []
    for line in listing.splitlines():
        meta, name = line.split("\t", 1)
        _, kind, sha = meta.split()
        if kind == "blob" and name.endswith(".json"):
            entries.append((name, sha))
    entries.sort()
    batch = subprocess.Popen(
        git + ["cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    for name, sha in entries:
        batch.stdin.write(sha.encode() + b"\n")
        batch.stdin.flush()
        header = batch.stdout.readline().split()
        data = batch.stdout.read(int(header[2]))
        batch.stdout.read(1)
        yield name, data
    batch.stdin.close()
    batch.wait()


def files(src):
    if os.path.isdir(os.path.join(src, "data", "seed")):
        return from_folder(os.path.join(src, "data", "seed"))
    probe = subprocess.run(
        ["git", "--git-dir", src, "rev-parse", "--verify", "--quiet", "HEAD:data/seed"],
        capture_output=True,
    )
    if probe.returncode == 0:
        return from_git(src)
    if os.path.isdir(src):
        return from_folder(src)
    sys.exit(f"{src}: neither a checkout, a seed folder nor a git directory")


def main(src, out, since):
    os.makedirs(out, exist_ok=True)
    read = kept = definitions = 0
    for name, data in files(src):
        read += 1
        try:
            doc = json.loads(data)
        except json.JSONDecodeError as e:
            sys.exit(f"{name}:{e.lineno}: malformed JSON: {e.msg}")
        if not isinstance(doc, dict) or not doc.get("provisions") or not doc.get("definitions"):
            continue
        if str(doc.get("issued_date", ""))[:4] < since:
            continue
        doc.pop("provision_versions", None)
        with open(os.path.join(out, name), "w", encoding="utf-8") as f:
            json.dump(doc, f, ensure_ascii=False)
        kept += 1
        definitions += len(doc["definitions"])
    print(f"{out}: {kept} of {read} files define terms ({definitions} definitions)")


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) == 4 else "")
