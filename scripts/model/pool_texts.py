"""The pools' texts export (`nomos model prepare --texts-out`) and the
first-sentence rules the known-item queries are made with. Standard library
only, so that scripts needing no model can import it."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path


def load_pools(path: Path) -> dict:
    pools: dict = defaultdict(lambda: {"docs": {}, "titles": {}, "queries": {}, "qrels": defaultdict(dict)})
    with path.open(encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            p = pools[r["pool"]]
            if r["kind"] == "doc":
                p["docs"][r["id"]] = r["text"]
                p["titles"][r["id"]] = r.get("title", "")
            elif r["kind"] == "query":
                p["queries"][r["id"]] = r["text"]
            else:
                p["qrels"][r["query"]][r["doc"]] = r["relevance"]
    return pools


def first_sentence(paragraph: str) -> str:
    body = re.sub(r"^\s*\d+\.\s*", "", paragraph)
    return re.split(r"(?<=[.;·])\s", body, maxsplit=1)[0].strip()


def danish_first_sentence(text: str) -> str | None:
    """A stykke's first sentence without the § heading (at most 30 words),
    or None below 3 words."""
    s = re.sub(r"^§\s*\d+\s*\w?\.\s*", "", text.strip())
    s = re.split(r"(?<=[.:;])\s", s, maxsplit=1)[0]
    words = s.split()
    return " ".join(words[:30]) if len(words) >= 3 else None
