"""The pooling comparison table from bench/long_articles.sh's metrics.

For every query set and method (dense, RRF), each pooling's mean nDCG@10,
its difference from `average` (the window average nomos used before), and
the two-sided paired t-test p-value over the set's queries (scipy's
`ttest_rel`), Holm-corrected over the five poolings compared with `average`
in that set and method. Also the blob size and the embedding time of each
pooling per pool.

    .venv-ref/bin/python bench/long_articles.py OUT
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

from scipy.stats import ttest_rel

POOLINGS = ["first", "average", "max", "title+first", "title+average", "title+max"]
BASELINE = "average"
METRIC = "ndcg@10"
SETS = [
    ("el-headings", "Constitution headings → article"),
    ("el-sentences", "Constitution paragraph sentences → article"),
    ("nomothesia-headings", "Greek acts: headings → article"),
    ("nomothesia-sentences", "Greek acts: paragraph sentences → article"),
    ("nomothesia-long-headings", "Greek acts, articles > 250 words: headings"),
    ("nomothesia-long-sentences", "Greek acts, articles > 250 words: sentences"),
    ("stard", "STARD (real queries)"),
    ("da-sentences", "Danish stykke sentences → stykke"),
]


def per_query(path: Path) -> dict[str, float]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return {q: m[METRIC] for q, m in data["per_query"].items()}


def holm(pvalues: list[float]) -> list[float]:
    """Holm's step-down adjustment, monotone and capped at 1."""
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    adjusted = [0.0] * len(pvalues)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(pvalues) - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def mean(xs) -> float:
    xs = list(xs)
    return sum(xs) / len(xs)


def table(out: Path) -> None:
    metrics = out / "metrics"
    for set_name, label in SETS:
        if not (metrics / f"{set_name}.bm25.json").exists():
            continue
        bm25 = per_query(metrics / f"{set_name}.bm25.json")
        print(f"\n**{label}** ({len(bm25)} queries; BM25 {mean(bm25.values()):.4f})\n")
        print("| pooling | dense | Δ | p (Holm) | RRF | Δ | p (Holm) |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        cells: dict[str, list[str]] = defaultdict(list)
        for method in ("dense", "rrf"):
            runs = {}
            for p in POOLINGS:
                path = metrics / f"{set_name}.{p}.{method}.json"
                if path.exists():
                    runs[p] = per_query(path)
            if BASELINE not in runs:
                continue
            base = runs[BASELINE]
            qids = sorted(base)
            others = [p for p in POOLINGS if p in runs and p != BASELINE]
            raw = []
            for p in others:
                a = [runs[p][q] for q in qids]
                b = [base[q] for q in qids]
                raw.append(1.0 if a == b else float(ttest_rel(a, b).pvalue))
            adjusted = dict(zip(others, holm(raw)))
            for p in POOLINGS:
                if p not in runs:
                    cells[p] += ["", "", ""]
                    continue
                m = mean(runs[p].values())
                if p == BASELINE:
                    cells[p] += [f"{m:.4f}", "", ""]
                else:
                    delta = m - mean(base.values())
                    cells[p] += [f"{m:.4f}", f"{delta:+.4f}", f"{adjusted[p]:.3g}"]
        for p in POOLINGS:
            if any(cells[p]):
                print(f"| `{p}` | " + " | ".join(cells[p]) + " |")
    times = out / "build-times.tsv"
    if times.exists():
        print("\n| pool | pooling | build with embedding (s) | blob bytes |")
        print("|---|---|---:|---:|")
        for line in times.read_text().splitlines():
            pool, pooling, seconds, size = line.split("\t")
            print(f"| {pool} | `{pooling}` | {seconds} | {int(size):,} |")


if __name__ == "__main__":
    table(Path(sys.argv[1]))
