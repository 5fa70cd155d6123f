"""BM25 query throughput: nomos (native Rust) side by side with rank_bm25 and bm25s.

Corpus: the 7 CRAwLeR-DK acts plus retsplejeloven (2025_1298) from
../shared/data/da-statutes/, one document per stykke (about 8.5k). Queries:
first sentences of randomly chosen stykker (fixed seed), at most 30 words.

Documents and queries are tokenised ONCE with our Danish analyzer (the release
`nomos analyze --analyzer da`), so all three systems rank identical tokens.
Then, in this one run:
- rank_bm25 0.2.2 `BM25Okapi.get_scores` + `np.argsort(-s, kind="stable")[:100]`
  (on a subset of the queries: it scores every document in Python);
- bm25s 0.3.8 `BM25(method="lucene")` `retrieve(..., k=100)`, numpy backend,
  one thread (numba is not in the pinned environment; if it is importable, a
  second bm25s row with the numba backend is added for information);
- nomos okapi and lucene top-100 via `cargo bench -p nomos-core --bench bm25`,
  which reads the token file and prints one JSON line.
It prints a table of queries per second with ratios (ours / reference), index
build times, and checks that our top-10 ids equal the references' on a sample.

Run from anywhere, with the reference venv (scripts/fixtures/make-fixtures.sh
creates .venv-ref):  .venv-ref/bin/python bench/bm25_vs_reference.py
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from importlib.metadata import version
from pathlib import Path

# One thread everywhere: the comparison is single-core throughput.
for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import bm25s  # noqa: E402
import numpy as np  # noqa: E402
from rank_bm25 import BM25Okapi  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
STATUTES = ROOT / ".." / "shared" / "data" / "da-statutes"
LAWS = [
    "2025_1294", "2025_331", "2025_1129", "2025_282",
    "2026_207", "2024_1057", "2025_321", "2025_1298",
]
SEED = 20250801
TOP = 100
CHECK_TOP = 10
MAX_QUERY_WORDS = 30
GOALS = {"okapi": 50.0, "lucene": 3.0}


def corpus():
    """Stykke texts in law, provision, stykke order."""
    texts = []
    for law in LAWS:
        act = json.loads((STATUTES / f"{law}.json").read_text("utf-8"))
        for provision in act["provisions"]:
            parts = re.split(r"Stk\. (\d+)\. ", provision["content"])
            texts.append(parts[0])
            texts.extend(parts[2::2])
    return texts


def query_texts(texts, n, rng):
    """First sentences of `n` random stykker (without the § heading), at most
    MAX_QUERY_WORDS words; sentences under 3 words are skipped."""
    out = []
    for text in rng.sample(texts, len(texts)):
        body = re.sub(r"^§+ [^.]*\. ", "", text)
        words = re.split(r"(?<=\.)\s", body, maxsplit=1)[0].split()[:MAX_QUERY_WORDS]
        if len(words) >= 3:
            out.append(" ".join(words))
        if len(out) == n:
            break
    return out


def cargo(*args, capture=False):
    return subprocess.run(
        ["cargo", *args], cwd=ROOT, check=True, text=True,
        stdout=subprocess.PIPE if capture else None,
    )


def analyze(lines):
    """Tokens per line from the release `nomos analyze --analyzer da`."""
    cargo("build", "--release", "--quiet", "-p", "nomos-index-builder")
    nomos = ROOT / "target" / "release" / "nomos"
    flat = "\n".join(line.replace("\n", " ").replace("\r", " ") for line in lines) + "\n"
    out = subprocess.run(
        [nomos, "analyze", "--analyzer", "da"], input=flat.encode("utf-8"),
        stdout=subprocess.PIPE, check=True,
    ).stdout.decode("utf-8")
    tokens = [line.split() for line in out.split("\n")[:-1]]
    assert len(tokens) == len(lines), (len(tokens), len(lines))
    return tokens


def write_tokens(path, docs, queries):
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"nomos-bm25-tokens v1\n{len(docs)} {len(queries)}\n")
        for tokens in docs + queries:
            f.write(" ".join(tokens) + "\n")


def median_seconds(fn, reps):
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2]


def stable_top(scores, k):
    return [int(i) for i in np.argsort(-scores, kind="stable")[:k]]


def bench_rank_bm25(docs, queries, reps):
    build = median_seconds(lambda: BM25Okapi(docs), 3)
    model = BM25Okapi(docs)

    def run():
        for q in queries:
            np.argsort(-model.get_scores(q), kind="stable")[:TOP]

    run()  # warm-up
    seconds = median_seconds(run, reps)
    return model, {"qps": len(queries) / seconds, "build_seconds": build}


def new_bm25s(docs, backend):
    model = bm25s.BM25(method="lucene", backend=backend)
    model.index(docs, show_progress=False)
    return model


def bench_bm25s(docs, queries, reps, backend="numpy"):
    build = median_seconds(lambda: new_bm25s(docs, backend), 3)
    model = new_bm25s(docs, backend)

    def run():
        return model.retrieve(
            queries, k=TOP, show_progress=False, n_threads=0,
            backend_selection="numba" if backend == "numba" else "numpy",
        )

    run()  # warm-up (and JIT compilation for numba)
    seconds = median_seconds(run, reps)
    return model, {"qps": len(queries) / seconds, "build_seconds": build}


def bench_nomos(token_file, reps, check):
    out = cargo(
        "bench", "--quiet", "-p", "nomos-core", "--bench", "bm25", "--",
        str(token_file), f"--reps={reps}", f"--check={check}", capture=True,
    ).stdout
    return json.loads([line for line in out.splitlines() if line.startswith("{")][-1])


def check_top10(ours, okapi_model, lucene_model, queries):
    """Our top-10 ids against each reference's, for the first queries."""
    n = len(ours["okapi"]["top10"])
    okapi_equal = sum(
        ours["okapi"]["top10"][i] == stable_top(okapi_model.get_scores(queries[i]), CHECK_TOP)
        for i in range(n)
    )
    # bm25s.retrieve orders ties arbitrarily (argpartition + unstable
    # argsort), so compare with the stable order of its exact scores, and
    # check that where retrieve() differs, only equal scores swapped places.
    lucene_scores = [lucene_model.get_scores(q) for q in queries[:n]]
    stable_equal = sum(
        ours["lucene"]["top10"][i] == stable_top(lucene_scores[i], CHECK_TOP) for i in range(n)
    )
    retrieved = lucene_model.retrieve(
        queries[:n], k=CHECK_TOP, show_progress=False, n_threads=0, backend_selection="numpy"
    ).documents
    retrieve_equal = tie_only = 0
    for i in range(n):
        theirs = [int(d) for d in retrieved[i]]
        mine = ours["lucene"]["top10"][i]
        if mine == theirs:
            retrieve_equal += 1
        elif [lucene_scores[i][d] for d in mine] == [lucene_scores[i][d] for d in theirs]:
            tie_only += 1
    print(f"\ntop-10 check on the first {n} queries:")
    print(f"  okapi : nomos == rank_bm25 stable argsort of get_scores  {okapi_equal}/{n}")
    print(f"  lucene: nomos == bm25s stable argsort of get_scores      {stable_equal}/{n}")
    print(f"  lucene: nomos == bm25s retrieve() ids                    {retrieve_equal}/{n}"
          f" (+{tie_only} differing only in the order of equal scores)")
    return okapi_equal == n and stable_equal == n and retrieve_equal + tie_only == n


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=1000, help="queries for bm25s and nomos")
    parser.add_argument("--rank-bm25-queries", type=int, default=200,
                        help="leading subset timed with rank_bm25 (slow)")
    parser.add_argument("--reps", type=int, default=3, help="timed passes for the Python systems")
    parser.add_argument("--nomos-reps", type=int, default=15, help="timed passes for nomos")
    parser.add_argument("--check", type=int, default=50, help="queries in the top-10 check")
    parser.add_argument("--tokens-out", metavar="PATH",
                        help="keep the token file here (to rerun or profile the Rust bench alone)")
    args = parser.parse_args()

    texts = corpus()
    queries_text = query_texts(texts, args.queries, random.Random(SEED))
    tokens = analyze(texts + queries_text)
    docs, queries = tokens[: len(texts)], tokens[len(texts):]
    # bm25s' get_scores reads query[0]; every sampled sentence has content words.
    assert all(queries), "a query is empty after analysis"
    n_tokens = sum(map(len, docs))
    vocab = len({t for d in docs for t in d})
    print(f"corpus: {len(docs)} docs, {n_tokens} tokens, {vocab} terms; "
          f"{len(queries)} queries, {sum(map(len, queries)) / len(queries):.1f} tokens each")

    rank_queries = queries[: args.rank_bm25_queries]
    okapi_model, rank = bench_rank_bm25(docs, rank_queries, args.reps)
    lucene_model, b25 = bench_bm25s(docs, queries, args.reps)
    extra = []
    try:
        import numba  # not pinned: an informational row only
        _, b25_numba = bench_bm25s(docs, queries, args.reps, backend="numba")
        extra.append((f"bm25s {version('bm25s')} (numba {numba.__version__})", b25_numba))
    except ImportError:
        print("numba is not installed: bm25s runs its numpy backend (as pinned)")

    with tempfile.TemporaryDirectory() as tmp:
        token_file = Path(args.tokens_out or Path(tmp) / "tokens.txt")
        write_tokens(token_file, docs, queries)
        ours = bench_nomos(token_file.resolve(), args.nomos_reps, args.check)["variants"]

    rows = [
        (f"rank_bm25 {version('rank_bm25')}", "okapi", len(rank_queries), rank, None),
        ("nomos (native)", "okapi", len(queries), ours["okapi"], rank["qps"]),
        (f"bm25s {version('bm25s')} (numpy)", "lucene", len(queries), b25, None),
        ("nomos (native)", "lucene", len(queries), ours["lucene"], b25["qps"]),
    ]
    rows += [(name, "lucene", len(queries), r, None) for name, r in extra]
    print("\n| system | variant | queries | queries/s | ours ÷ reference | goal | build (ms) |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for name, variant, n, r, ref_qps in rows:
        ratio = f"{r['qps'] / ref_qps:.1f}×" if ref_qps else ""
        goal = f"≥ {GOALS[variant]:.0f}×" if ref_qps else ""
        print(f"| {name} | {variant} | {n} | {r['qps']:,.0f} | {ratio} | {goal} | "
              f"{r['build_seconds'] * 1e3:,.1f} |")

    for name, r in extra:
        print(f"\n(informational, not pinned) nomos lucene ÷ {name}: "
              f"{ours['lucene']['qps'] / r['qps']:.2f}×")

    ok = check_top10(ours, okapi_model, lucene_model, queries)
    met = {v: ours[v]["qps"] / ref["qps"] >= GOALS[v] for v, ref in (("okapi", rank), ("lucene", b25))}
    print(f"goals met: okapi {met['okapi']}, lucene {met['lucene']}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
