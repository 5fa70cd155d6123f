#!/usr/bin/env python3
"""Regenerates this CRAwLeR-DK-format sample (PROVENANCE.md says what is ours).

    python3 data/crawler-dk-sample/make.py [NOMOS]   # NOMOS: the CLI, default `nomos` on PATH

1. chunks.jsonl: `nomos chunks` over the Danish acts in data/da-statutes/,
   forvaltningsloven and offentlighedsloven only (stykke chunks, CRAwLeR ids,
   implicit and explicit context as the dataset card defines them).
2. augmented_chunks.jsonl: a context WE wrote as a fixed template (not an
   LLM's): the law and § the chunk is in, the opening of its § when the
   chunk is a later stykke, and the openings of the §§ it cites; then a
   blank line and the chunk, as `nomos augment` writes rows.
3. contextual_queries.jsonl: the queries WE wrote in queries.tsv, with their
   gold chunk's text and its explicit context as `utilized_context_chunk_ids`.

Deterministic: the same sources give the same bytes.
"""

import json
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ACTS = HERE.parent / "da-statutes"
LAWS = {"forvaltningsloven": "Forvaltningsloven", "offentlighedsloven": "Offentlighedsloven"}
OPENING_CHARS = 160
NOTE = "written by the Nomos authors, not by an LLM (see PROVENANCE.md)"


def opening(text):
    """The chunk's first OPENING_CHARS characters, cut at a word."""
    if len(text) <= OPENING_CHARS:
        return text
    return text[:OPENING_CHARS].rsplit(" ", 1)[0] + " …"


def section_of(chunk_id):
    """`forvaltningsloven_§14a_stk2` -> (`forvaltningsloven_§14a`, `14 a`, 2)."""
    m = re.fullmatch(r"(.+_§(\d+)([a-z]?))_stk(\d+)", chunk_id)
    if not m:
        return None
    number = m.group(2) + (" " + m.group(3) if m.group(3) else "")
    return m.group(1), number, int(m.group(4))


def context(row, by_id):
    law = LAWS[row["chunk_id"].split("_")[0]]
    parsed = section_of(row["chunk_id"])
    if parsed is None:
        return f"Fra {law}: tekst uden for en paragraf (titel eller ophævede bestemmelser)."
    section, number, stk = parsed
    parts = [f"Fra {law}, § {number}, stk. {stk}."]
    if stk > 1 and f"{section}_stk1" in by_id:
        parts.append(f"Paragraffen begynder: {opening(by_id[f'{section}_stk1']['chunk'])}")
    cited = []
    for ref in row["explicit_context_chunks"]:
        target = section_of(ref)
        if target and target[0] not in cited:
            cited.append(target[0])
    for target in cited:
        first = by_id.get(f"{target}_stk1")
        if first:
            parts.append(f"Den henviser til: {opening(first['chunk'])}")
    return " ".join(parts)


def main():
    nomos = sys.argv[1] if len(sys.argv) > 1 else "nomos"
    chunks_path = HERE / "chunks.jsonl"
    cmd = [nomos, "chunks", "--format", "da-acts", str(ACTS), "-o", str(chunks_path)]
    for law in LAWS:
        cmd += ["--law", law]
    subprocess.run(cmd, check=True)
    rows = [json.loads(line) for line in chunks_path.read_text(encoding="utf-8").splitlines()]
    by_id = {r["chunk_id"]: r for r in rows}

    with open(HERE / "augmented_chunks.jsonl", "w", encoding="utf-8") as f:
        # The dataset's file is sorted by chunk_id (string sort).
        for r in sorted(rows, key=lambda r: r["chunk_id"]):
            text = context(r, by_id) + "\n\n" + r["chunk"]
            f.write(json.dumps({"chunk_id": r["chunk_id"], "chunk": text, "note": NOTE},
                               ensure_ascii=False) + "\n")

    lines = (HERE / "queries.tsv").read_text(encoding="utf-8").splitlines()
    with open(HERE / "contextual_queries.jsonl", "w", encoding="utf-8") as f:
        for n, line in enumerate(lines[1:], start=2):
            gold, query = line.split("\t")
            if gold not in by_id:
                sys.exit(f"queries.tsv:{n}: gold chunk {gold} is not in chunks.jsonl")
            row = by_id[gold]
            f.write(json.dumps({
                "chunk_id": gold,
                "query": query,
                "chunk": row["chunk"],
                "utilized_context_chunk_ids": row["explicit_context_chunks"],
                "note": NOTE,
            }, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
