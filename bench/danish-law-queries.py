#!/usr/bin/env python3
"""Queries drawn from real stykker of Danish law, for measuring what a
query over the whole fragmented pool fetches (`nomos plan`;
docs/benchmarks/danish-law.md, "Bytes a query fetches").

    bench/danish-law-queries.py SEED_DIR N SEED > queries.txt

SEED_DIR is Danish-law-mcp's data/seed/. Draws N documents with
provisions (seeded), one provision of each and, in its text, a run of 2–5
consecutive words (as a user recalls a phrase) with at least two words of
five letters or more (so not `træder i`). Prints one query a line.
"""

import json
import random
import re
import sys
from pathlib import Path

WORD = re.compile(r"[a-zæøå]+", re.IGNORECASE)


def main() -> None:
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    seed_dir, n, seed = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    files = sorted(seed_dir.glob("*.json"))
    rng.shuffle(files)
    printed = 0
    for path in files:
        if printed == n:
            break
        doc = json.loads(path.read_text(encoding="utf-8"))
        provisions = [p for p in doc.get("provisions") or [] if p.get("content")]
        if not provisions:
            continue
        words = WORD.findall(rng.choice(provisions)["content"])
        if len(words) < 6:
            continue
        length = rng.randint(2, 5)
        start = rng.randrange(len(words) - length)
        run = words[start : start + length]
        if sum(len(w) >= 5 for w in run) < 2:
            continue
        print(" ".join(w.lower() for w in run))
        printed += 1
    if printed < n:
        sys.exit(f"only {printed} of {n} queries drawn")


if __name__ == "__main__":
    main()
