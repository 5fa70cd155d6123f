#!/usr/bin/env python3
"""Chooses the CI sample of Danish law (data/da-law-sample/) from the seed of
Ansvar-Systems/Danish-law-mcp: a few consolidated acts of the social area,
the executive orders that cite them, and the acts that amend them, so the
sample's documents cite each other.

    scripts/da-law-sample.py SEED_DIR OUT_DIR

SEED_DIR is the repository's data/seed/. Each chosen file is written as read,
less `provision_versions` (a copy of `provisions` the reader never reads; it
doubles the bytes). Deterministic: the same seed gives the same files.
"""

import json
import os
import sys

# The consolidated acts (LBK) the sample is built around: file, and the
# names by which other documents cite them.
ANCHORS = {
    "2025_1129.json": ["lov om social service"],
    "2025_282.json": ["barnets lov"],
    "2025_354.json": ["lov om retssikkerhed og administration på det sociale område"],
    "2024_1006.json": ["lov om voksenansvar for anbragte børn og unge"],
}
# Executive orders (BEK) and amending acts (LOV) issued from these dates on.
SINCE = {"BEK": "2023-01-01", "LOV": "2018-01-01"}
MAX_BEK = 100
MAX_LOV = 45
# Larger files are left out, to keep the sample a few MB.
MAX_BYTES = 60_000


def kind(doc):
    return doc["short_name"].split()[0].split("#")[0]


def text(doc):
    return " ".join(p["content"] for p in doc["provisions"]).lower()


def size(doc):
    return len(json.dumps(strip(doc), ensure_ascii=False).encode())


def strip(doc):
    return {k: v for k, v in doc.items() if k != "provision_versions"}


def main(seed, out):
    names = [n for ns in ANCHORS.values() for n in ns]
    newest_bek = {}  # title -> (date, file, mentions): the newest of each title
    lovs = []
    for name in sorted(os.listdir(seed)):
        if not name.endswith(".json") or name in ANCHORS:
            continue
        with open(os.path.join(seed, name), encoding="utf-8") as f:
            doc = json.load(f)
        if not doc.get("provisions") or kind(doc) not in SINCE:
            continue
        if doc["issued_date"] < SINCE[kind(doc)] or size(doc) > MAX_BYTES:
            continue
        title = " ".join(doc["title"].split()).lower()
        if kind(doc) == "BEK":
            mentions = sum(text(doc).count(f"i {n}") for n in names)
            if mentions and (title not in newest_bek or newest_bek[title][0] < doc["issued_date"]):
                newest_bek[title] = (doc["issued_date"], name, mentions)
        elif kind(doc) == "LOV" and "ændring af" in title and any(n in title for n in names):
            lovs.append((doc["issued_date"], name))
    beks = sorted(newest_bek.values(), key=lambda b: (-b[2], b[1]))[:MAX_BEK]
    lovs = sorted(lovs, reverse=True)[:MAX_LOV]
    chosen = sorted(list(ANCHORS) + [b[1] for b in beks] + [l[1] for l in lovs])
    os.makedirs(out, exist_ok=True)
    for name in chosen:
        with open(os.path.join(seed, name), encoding="utf-8") as f:
            doc = json.load(f)
        with open(os.path.join(out, name), "w", encoding="utf-8") as f:
            json.dump(strip(doc), f, ensure_ascii=False, indent=1)
            f.write("\n")
    print(f"{len(ANCHORS)} LBK, {len(beks)} BEK, {len(lovs)} LOV: {len(chosen)} files in {out}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
