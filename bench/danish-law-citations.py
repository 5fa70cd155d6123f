#!/usr/bin/env python3
"""Draws references that name another act from the `da-law` pool, with what
the builder resolved each to, for checking by reading (docs/danish-law.md,
"Citations across documents").

    nomos chunks --format da-law SEED_DIR -o chunks.jsonl
    bench/danish-law-citations.py chunks.jsonl SEED_DIR N SEED > sample.tsv

A reference is found by its own pattern here, not by the builder's parser,
so references the builder missed are drawn too: "§ N … i <act>", "§ N …,
jf. lov(bekendtgørelse) nr. N af … YYYY", "<x>lovens § N". Each row: the
citing stykke, the reference as written, the documents its stykke's
explicit references reach outside its own document (with their titles and
dates), the §§ they reach in its own document (a reference may name the
citing act itself: "selskabsskattelovens § 32" in selskabsskatteloven), and
two empty columns for the verdict (correct, wrong, unresolved) and a note.
"""

import json
import os
import random
import re
import sys

REF = re.compile(
    r"§§? ?\d+(?: ?[a-z](?![a-zæøå]))?(?:[^§.;]{0,80}?)"
    r"(?:,? i (?:lov|[a-zæøå-]+loven|barnets lov|bekendtgørelse)[^,.;]{0,80}"
    r"|, jf\. (?:lov|lovbekendtgørelse|bekendtgørelse) nr\. \d+ af [^,;]{0,25}\d{4})"
    r"|[a-zæøå-]+lovens §§? ?\d+(?: ?[a-z](?![a-zæøå]))?"
)


def titles(seed):
    out = {}
    for name in os.listdir(seed):
        m = re.fullmatch(r"(\d+)_(\d+)\.json", name)
        if not m:
            continue
        with open(os.path.join(seed, name), encoding="utf-8") as f:
            doc = json.load(f)
        if doc.get("provisions"):
            kind = doc["short_name"].split()[0].split("#")[0]
            out[f"{kind}-{m[1]}-{m[2]}"] = (doc["title"][:90], doc["issued_date"])
    return out


def main(chunks, seed, n, rng_seed):
    found = []
    with open(chunks, encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            own = row["chunk_id"].split("_")[0]
            for m in REF.finditer(row["chunk"]):
                found.append((row["chunk_id"], m.group(0), own, row["explicit_context_chunks"]))
    random.Random(rng_seed).shuffle(found)
    names = titles(seed)
    print("stykke\treference\tresolved outside its document\tits own §§ resolved\tverdict\tnote")
    for chunk_id, ref, own, explicit in found[:n]:
        outside = sorted({e for e in explicit if e.split("_")[0] != own})
        docs = sorted({e.split("_")[0] for e in outside})
        shown = "; ".join(
            f"{d} ({names.get(d, ('?', '?'))[0]}, {names.get(d, ('?', '?'))[1]}): "
            + " ".join(e.split("_", 1)[1] for e in outside if e.startswith(d + "_"))
            for d in docs
        )
        own_sections = sorted(
            {e.split("_")[1] for e in explicit if e.split("_")[0] == own and "_§" in e},
            key=lambda s: (len(s), s),
        )
        print(f"{chunk_id}\t{' '.join(ref.split())}\t{shown}\t{' '.join(own_sections)}\t\t")
    print(f"# {len(found)} references found; {min(n, len(found))} drawn with seed {rng_seed}", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
