"""Fixture for the native embedder (`nomos`'s ONNX Runtime through `ort`):
the vectors Python's onnxruntime gives for a few pool texts with the
shipped model.

    .venv-model/bin/python scripts/model/gen_embed_fixture.py

(run from the repo root after `nomos model prepare --out models/e5-small`).

Texts: a Greek Constitution article (passage) and a known-item style query,
the longest Greek article (several 510-token windows), a STARD query and one
of its gold articles, a Danish stykke and a Danish query, and an empty
query. Each is embedded alone, as `nomos build --embed` does, by
measure.py's Embedder: the `tokenizers` package over the shipped
tokenizer.json, prefix + stripped text, `<s> … </s>` windows, mean pooling
weighted by window, L2 normalisation.

Writes index-builder/tests/fixtures/embed_native.json: the model's manifest
SHA-256 (the vectors hold for that model only) and per text its role, the
text and the vector.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from tokenizers import Tokenizer

from measure import Embedder

MODEL = Path("models/e5-small")
DATA = Path("data")
OUT = Path("index-builder/tests/fixtures/embed_native.json")


def cases() -> list[tuple[str, str]]:
    greek = {a["title"]: "\n".join(a["content"]) for a in json.loads((DATA / "el-syntagma/syntagma.json").read_text())}
    article = next(text for title, text in greek.items() if title.startswith("Άρθρο 14 "))
    longest = max(greek.values(), key=len)
    stard = json.loads((DATA / "stard/queries.json").read_text())
    query = stard[0]
    gold = next(iter(query["相关法规"].values()))
    danish = json.loads((DATA / "da-statutes/2014_433.json").read_text())
    stykke = danish["provisions"][0]["content"].split(" Stk. 2.")[0]
    return [
        ("passage", article),
        ("query", "ελευθερία του τύπου και λογοκρισία"),
        ("passage", longest),
        ("query", query["问题"]),
        ("passage", gold),
        ("passage", stykke),
        ("query", "hvem gælder forvaltningsloven for"),
        ("query", ""),
    ]


def main() -> None:
    manifest = (MODEL / "manifest.json").read_bytes()
    tokenizer = Tokenizer.from_file(str(MODEL / "tokenizer.json"))
    embedder = Embedder((MODEL / "model.onnx").read_bytes(), tokenizer, threads=1)
    texts = []
    for role, text in cases():
        windows = len(embedder.rows(role, text))
        vector = embedder.embed_batch(role, [text])[0]
        texts.append({"role": role, "text": text, "windows": windows, "vector": [float(x) for x in vector]})
    fixture = {"manifest_sha256": hashlib.sha256(manifest).hexdigest(), "texts": texts}
    OUT.write_text(json.dumps(fixture, ensure_ascii=False, indent=1) + "\n")
    print(f"wrote {OUT}: {len(texts)} texts, windows {[t['windows'] for t in texts]}")


if __name__ == "__main__":
    main()
