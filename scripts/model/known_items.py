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

The el-nomothesia sets are read from `data/el-nomothesia` directly (the
articles as `nomos build --format el-nomothesia` makes them), so they need
no texts export; without `--texts` only they are written:

    python3 scripts/model/known_items.py --out /tmp/known-items

- `nomothesia-headings`: every article heading that is unique in the pool
  (case-folded, whitespace normalised; headings such as "Έναρξη ισχύος"
  recur across acts and would be ambiguous) -> that article. Fields that
  are not headings are left out: a directive citation in brackets
  ("(άρθρο 4 της Οδηγίας 2006/126/ΕΚ)", pd-51-2012 and pd-74-2008) or a
  quoted paragraph ('"1. Εξαιρούνται …', pd-237-1986);
- `nomothesia-sentences`: the first sentence (>= 5 words, numbering removed)
  of 300 sampled paragraphs -> their article; sentences found in more than
  one article are left out, as ambiguous;
- `nomothesia-long-headings`, `nomothesia-long-sentences`: the queries of
  those two whose article has more than 250 words.

The Greek codes' sets are made from the export's `el-codes` pool (its
titles are the codes' enacted headings), as the el-nomothesia ones:

- `codes-headings`: every article heading unique in the pool -> that
  article;
- `codes-sentences`: the first sentence (>= 5 words, numbering removed) of
  300 sampled paragraphs (the text's lines) -> their article, sentences
  found in more than one article left out.

The sentence sets quote the document, so they favour lexical matching; the
heading set paraphrases it.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
from pathlib import Path

from pool_texts import danish_first_sentence, first_sentence, load_pools

SYNTAGMA = Path("data/el-syntagma/syntagma.json")
NOMOTHESIA = Path("data/el-nomothesia")
# Articles longer than this many words are "long".
LONG_WORDS = 250
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


def nomothesia_articles(root: Path = NOMOTHESIA) -> dict[str, dict]:
    """The pool's articles as the el-nomothesia reader builds them, in its
    order: id `{nomothetima_id}::{arthro}` -> {"title", "paragraphs",
    "text"}. Consecutive paragraphs of one act and article number form an
    article; a paragraph reads "N. text", or the text alone when un-numbered."""
    articles: dict[str, dict] = {}
    for path in sorted(root.rglob("articles.jsonl"), key=lambda p: p.relative_to(root).parts):
        current = None
        with path.open(encoding="utf-8") as f:
            for line_no, line in enumerate(f, 1):
                if not line.strip():
                    continue
                r = json.loads(line)
                doc_id = f"{r['nomothetima_id'].strip()}::{r['arthro'].strip()}"
                if doc_id != current:
                    if doc_id in articles:
                        raise SystemExit(f"{path}:{line_no}: article {doc_id} is not contiguous")
                    articles[doc_id] = {"title": r["titlos_arthrou"].strip(), "paragraphs": []}
                    current = doc_id
                number, text = r["paragrafos"].strip(), r["keimeno"].strip()
                if number:
                    articles[doc_id]["paragraphs"].append(f"{number}. {text}")
                elif text:
                    articles[doc_id]["paragraphs"].append(text)
    for a in articles.values():
        a["text"] = "\n".join(a["paragraphs"])
    return articles


def normalise(text: str) -> str:
    return " ".join(text.casefold().split())


def unique_headings(articles: dict, name: str) -> list[tuple[str, str]]:
    by_heading: dict[str, list[str]] = {}
    not_headings = [d for d, a in articles.items() if a["title"][:1] in ('(', '"', '«')]
    print(f"{name}: {len(not_headings)} articles dropped, their title field a citation or a quote")
    for doc_id, a in articles.items():
        if a["title"] and doc_id not in not_headings:
            by_heading.setdefault(normalise(a["title"]), []).append(doc_id)
    items = [(articles[ids[0]]["title"], ids[0]) for ids in by_heading.values() if len(ids) == 1]
    shared = [ids for ids in by_heading.values() if len(ids) > 1]
    print(
        f"{name}: {sum(map(len, shared))} articles dropped, their heading shared "
        f"({len(shared)} headings, e.g. {', '.join(repr(articles[ids[0]]['title']) for ids in shared[:3])})"
    )
    return items


def unique_sentences(articles: dict, n: int, rng: random.Random, name: str) -> list[tuple[str, str]]:
    found: dict[str, set[str]] = {}
    items = []
    for doc_id, a in articles.items():
        for para in a["paragraphs"]:
            s = first_sentence(para)
            if len(s.split()) >= 5:
                items.append((s, doc_id))
                found.setdefault(normalise(s), set()).add(doc_id)
    unique = [(s, d) for s, d in items if len(found[normalise(s)]) == 1]
    print(f"{name}: {len(items) - len(unique)} of {len(items)} candidate sentences dropped, found in more than one article")
    return rng.sample(unique, min(n, len(unique)))


def long_only(articles: dict, items: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(q, d) for q, d in items if len(articles[d]["text"].split()) > LONG_WORDS]


def write_nomothesia(out: Path, seed: int) -> None:
    articles = nomothesia_articles()
    words = sorted(len(a["text"].split()) for a in articles.values())
    print(
        f"el-nomothesia: {len(articles)} articles, median {statistics.median(words):g} words, "
        f"{sum(w > LONG_WORDS for w in words)} over {LONG_WORDS} words"
    )
    headings = unique_headings(articles, "nomothesia-headings")
    sentences = unique_sentences(articles, 300, random.Random(seed), "nomothesia-sentences")
    write(out, "nomothesia-headings", headings)
    write(out, "nomothesia-sentences", sentences)
    write(out, "nomothesia-long-headings", long_only(articles, headings))
    write(out, "nomothesia-long-sentences", long_only(articles, sentences))


def export_articles(pool: dict) -> dict[str, dict]:
    """A pool of the texts export as `nomothesia_articles` gives the Greek
    acts: id -> {"title", "paragraphs" (the text's lines), "text"}."""
    return {
        doc_id: {"title": pool["titles"].get(doc_id, "").strip(), "paragraphs": text.split("\n"), "text": text}
        for doc_id, text in pool["docs"].items()
    }


def write_codes(out: Path, pool: dict, seed: int) -> None:
    articles = export_articles(pool)
    write(out, "codes-headings", unique_headings(articles, "codes-headings"))
    write(out, "codes-sentences", unique_sentences(articles, 300, random.Random(seed), "codes-sentences"))


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
    ap.add_argument("--texts", type=Path, help="the pools' texts export; without it only the el-nomothesia sets")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--codes-pool", default="el-codes", help="the Greek codes' pool in the export (its blob's name)")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    if args.texts is not None:
        pools = load_pools(args.texts)
        missing = [p for p in ("el-syntagma", "da-acts") if p not in pools]
        if missing:
            print(f"{args.texts}: no {', '.join(missing)} documents: their sets are not written")
        if "el-syntagma" in pools:
            el = pools["el-syntagma"]["docs"]
            write(args.out, "el-headings", el_headings(el))
            write(args.out, "el-sentences", el_sentences(el, 300, random.Random(args.seed)))
        if "da-acts" in pools:
            da = pools["da-acts"]["docs"]
            write(args.out, "da-sentences", da_sentences(da, 500, random.Random(args.seed)))
        if args.codes_pool in pools:
            write_codes(args.out, pools[args.codes_pool], args.seed)
    write_nomothesia(args.out, args.seed)


if __name__ == "__main__":
    main()
