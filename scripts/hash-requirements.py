#!/usr/bin/env python3
"""Adds pip's `--hash=sha256:...` to every pinned line of requirements files.

    python3 scripts/hash-requirements.py scripts/model/requirements.txt ...

For each `name==version` line, the SHA-256 of every file PyPI holds for that
release (all wheels and the sdist, so any platform pip picks is covered) is
read from PyPI's simple JSON API and written after it; existing hashes are
replaced. Run it after changing a pin: `pip install --require-hashes` then
refuses any file that is not one of these.
"""

import json
import re
import sys
import urllib.request

INDEX = "https://pypi.org/simple"
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")


def release_hashes(name, version):
    req = urllib.request.Request(
        f"{INDEX}/{name}/", headers={"Accept": "application/vnd.pypi.simple.v1+json"}
    )
    with urllib.request.urlopen(req, timeout=60) as resp:
        files = json.load(resp)["files"]
    want = (normalize(name), version)
    hashes = sorted(
        f["hashes"]["sha256"] for f in files if not f.get("yanked") and release_of(f["filename"]) == want
    )
    if not hashes:
        sys.exit(f"no files for {name}=={version} on PyPI")
    return hashes


def normalize(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def release_of(filename):
    """(normalized name, version) of a wheel or sdist file name."""
    if filename.endswith(".whl"):
        name, version = filename.split("-")[:2]
    else:
        stem = re.sub(r"\.(tar\.gz|zip)$", "", filename)
        name, _, version = stem.rpartition("-")
    return normalize(name), version


def rewrite(path):
    out = []
    lines = open(path, encoding="utf-8").read().splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        # Drop a previous run's continuation lines.
        while line.rstrip().endswith("\\") and i + 1 < len(lines):
            i += 1
            line = line.rstrip()[:-1].rstrip() + " " + lines[i].strip()
        i += 1
        m = PIN.match(line.strip())
        if not m:
            out.append(line)
            continue
        name, version = m.groups()
        hashes = release_hashes(name, version)
        out.append(f"{name}=={version} \\")
        out.extend(f"    --hash=sha256:{h}" + (" \\" if k + 1 < len(hashes) else "") for k, h in enumerate(hashes))
        print(f"{path}: {name}=={version}: {len(hashes)} files", file=sys.stderr)
    open(path, "w", encoding="utf-8").write("\n".join(out) + "\n")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for p in sys.argv[1:]:
        rewrite(p)
