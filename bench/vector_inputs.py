"""What bench/vector_codes.py and vector_codes_two_stage.py read: a pool's f32 vectors from its
embedding cache (`nomos build --embed-cache`; the format is in
index-builder/src/embedder/cache.rs) and the questions embedded with the e5 ONNX model
("query: ", mean pooling over the attention mask, L2), as the app and the CLI embed them."""
import argparse
import json
import struct

import numpy as np

D = 384


def arguments(doc):
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--cache", required=True, help="an embedding cache (NOMOSEMB)")
    ap.add_argument("--queries", required=True, help="BEIR queries.jsonl (field text)")
    ap.add_argument("--model", required=True, help="directory with model.onnx and tokenizer.json")
    ap.add_argument("--out", default="vector_codes.json", help="results (vector_codes.py)")
    return ap.parse_args()


def load_cache(path):
    """(vectors n x 384, texts read): every whole record, in file order."""
    b = open(path, "rb").read()
    assert b[:8] == b"NOMOSEMB", f"{path}: not an embedding cache"
    version, dim, header = struct.unpack_from("<III", b, 8)
    assert version == 1 and dim == D, (version, dim)
    at, chunks = 20 + header, []
    while at + 20 <= len(b):
        n = struct.unpack_from("<I", b, at + 16)[0]
        end = at + 20 + n * D * 4
        if end + 8 > len(b):
            break
        chunks.append(np.frombuffer(b, dtype="<f4", count=n * D, offset=at + 20).reshape(n, D))
        at = end + 8
    return np.concatenate(chunks).astype(np.float32), len(chunks)


def embed_queries(model, path):
    import onnxruntime as ort
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(f"{model}/tokenizer.json")
    tok.no_padding()
    tok.enable_truncation(512)
    sess = ort.InferenceSession(f"{model}/model.onnx")
    out = []
    for line in open(path):
        e = tok.encode("query: " + json.loads(line)["text"])
        ids = np.array([e.ids], dtype=np.int64)
        am = np.array([e.attention_mask], dtype=np.int64)
        h = sess.run(None, {"input_ids": ids, "attention_mask": am})[0][0]
        m = am[0][:, None].astype(np.float32)
        v = (h * m).sum(0) / m.sum()
        out.append(v / np.linalg.norm(v))
    return np.array(out, dtype=np.float32)


def int8(V):
    """Decoded int8 codes as core/src/dense/quantize.rs makes them: scale max|x|/127, round half
    away from zero, clamp to ±127."""
    s = np.abs(V).max(1, keepdims=True) / 127.0
    safe = np.where(s > 0, s, 1)
    return np.clip(np.trunc(V / safe + np.copysign(0.5, V)), -127, 127) * s
