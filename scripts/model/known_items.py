"""Known-item query sets made from the demo pools themselves, for
`nomos eval --queries … --qrels …` (BEIR queries.jsonl and qrels TSV).
These are not real users' queries: each query is made from one document,
which is its only relevant document.

    nomos model prepare --out models/e5-small --texts-out /tmp/pool-texts.jsonl
    python3 scripts/model/known_items.py --texts /tmp/pool-texts.jsonl --out /tmp/known-items

Sets (fixed seed 13):
- `el-headings`: every Greek Constitution article's heading (the part of its
  title after "Σύνταγμα της Ελλάδος - ", which is not in the indexed text)
  -> that article (124 queries);
- `el-sentences`: the first sentence (>= 5 words, numbering removed) of 300
  sampled paragraphs -> their article, as scripts/model/measure.py;
- `da-sentences`: the first sentence (>= 3 words, § number removed, at most
  30 words) of 500 sampled Danish stykker -> that stykke.

The sentence sets quote the document, so they favour lexical matching; the
heading set paraphrases it.
"""

from __future__ import annotations

import argparse
import json
import random
import re
from pathlib import Path

from measure import danish_first_sentence, first_sentence, load_pools

SYNTAGMA = Path("data/el-syntagma/syntagma.json")
TITLE = re.compile(r"^Άρθρο (\S+) - Σύνταγμα της Ελλάδος - (.+)$")


def el_headings(docs: dict) -> list[tuple[str, str]]:
    items = []
    for entry in json.loads(SYNTAGMA.read_text(encoding="utf-8")):
        m = TITLE.match(entry["title"].strip())
        if m and f"Syntagma::{m[1]}" in docs:
            items.append((m[2].strip(), f"Syntagma::{m[1]}"))
    return items


def el_sentences(docs: dict, n: int, rng: random.Random) -> list[tuple[str, str]]:
    items = []
    for doc_id, text in sorted(docs.items()):
        for para in text.split("\n"):
            s = first_sentence(para)
            if len(s.split()) >= 5:
                items.append((s, doc_id))
    return rng.sample(items, min(n, len(items)))


def da_sentences(docs: dict, n: int, rng: random.Random) -> list[tuple[str, str]]:
    items = []
    for doc_id in rng.sample(sorted(docs), len(docs)):
        s = danish_first_sentence(docs[doc_id])
        if s is not None:
            items.append((s, doc_id))
        if len(items) == n:
            break
    return items


def write(out: Path, name: str, items: list[tuple[str, str]]) -> None:
    with (out / f"{name}.queries.jsonl").open("w", encoding="utf-8") as q, (out / f"{name}.qrels.tsv").open(
        "w", encoding="utf-8"
    ) as r:
        r.write("query-id\tcorpus-id\tscore\n")
        for i, (text, doc) in enumerate(items):
            q.write(json.dumps({"_id": f"{name}-{i}", "text": text}, ensure_ascii=False) + "\n")
            r.write(f"{name}-{i}\t{doc}\t1\n")
    print(f"{name}: {len(items)} queries")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--texts", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=13)
    args = ap.parse_args()
    pools = load_pools(args.texts)
    args.out.mkdir(parents=True, exist_ok=True)
    el, da = pools["el-syntagma"]["docs"], pools["da-acts"]["docs"]
    write(args.out, "el-headings", el_headings(el))
    write(args.out, "el-sentences", el_sentences(el, 300, random.Random(args.seed)))
    write(args.out, "da-sentences", da_sentences(da, 500, random.Random(args.seed)))


if __name__ == "__main__":
    main()
