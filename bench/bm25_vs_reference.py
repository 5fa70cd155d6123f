"""BM25 query throughput: nomos (native Rust) side by side with rank_bm25 and bm25s.

Corpus: the Danish demo pool as the CLI chunks it (`nomos chunks --format
da-acts data/da-statutes`: all 17 acts, one document per stykke, about 11k),
or with `--synth N` a SYNTHETIC pool of N chunks that `nomos synth --from da
--docs N --seed 1` draws from those acts' word statistics (`--synth-from el`:
the Greek acts'), chunked the same way. Queries: first sentences of randomly
chosen documents (fixed seed), at most 30 words.

Documents and queries are tokenised ONCE with our analyzer (the release
`nomos analyze`), so all systems rank identical tokens; every system builds
its index in memory from those tokens (ours with `InvertedIndex::build`, as
`nomos build` does, so no blob and none of its text limit is involved).
Then, in this one run:
- rank_bm25 0.2.2 `BM25Okapi.get_scores` + `np.argsort(-s, kind="stable")[:100]`
  (on a subset of the queries: it scores every document in Python;
  `--rank-bm25-queries 0` leaves it out, as at 10^6 documents);
- bm25s 0.3.8 `BM25(method="lucene")` `retrieve(..., k=100)`, one thread, with
  its numpy backend and with its numba backend (numba is pinned beside it);
- nomos okapi and lucene top-100 via `cargo bench -p nomos-core --bench bm25`,
  which reads the token file and prints one JSON line: the path that ranks
  (scores accumulated for the documents the query touches, the top k
  selected among them) and, for comparison, the previous one (every
  document's score, the top k selected over all of them).
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
import threading
import time
from importlib.metadata import version
from pathlib import Path

# One thread everywhere: the comparison is single-core throughput.
for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import bm25s  # noqa: E402
import numba  # noqa: E402  (bm25s' numba backend; pinned, so the row is always measured)
import numpy as np  # noqa: E402
from rank_bm25 import BM25Okapi  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
STATUTES = ROOT / "data" / "da-statutes"
TARGET = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
# What `nomos synth --from X` writes, as `nomos chunks` reads it, and the
# analyzer its text is tokenised with.
SYNTH = {"da": ("da-acts", "da"), "el": ("el-nomothesia", "el")}
SEED = 20250801
TOP = 100
CHECK_TOP = 10
MAX_QUERY_WORDS = 30
# ours ÷ reference: okapi against rank_bm25; lucene against bm25s numba,
# 3× up to 10^5 documents and 10× from 10^6 (issue #15).
GOALS = {"rank_bm25": 50.0, "numba": 3.0, "numba_at_1e6": 10.0}


def chunk_texts(source, fmt):
    """The documents `nomos chunks` makes of `source`, in the CLI's order."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "chunks.jsonl"
        subprocess.run(
            [nomos(), "chunks", "--format", fmt, str(source), "-o", str(out)], check=True,
        )
        with open(out, encoding="utf-8") as f:
            return [json.loads(line)["chunk"] for line in f]


def corpus(synth, synth_from):
    """The Danish acts' stykker, or a synthetic pool of `synth` chunks."""
    if not synth:
        return chunk_texts(STATUTES, "da-acts"), "da"
    fmt, analyzer = SYNTH[synth_from]
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [nomos(), "synth", "--from", synth_from, "--docs", str(synth), "--seed", "1",
             "--out", tmp], check=True, stdout=subprocess.DEVNULL,
        )
        return chunk_texts(tmp, fmt), analyzer


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


def nomos():
    """The release CLI, built once."""
    if not getattr(nomos, "built", False):
        cargo("build", "--release", "--quiet", "-p", "nomos-index-builder")
        nomos.built = True
    return TARGET / "release" / "nomos"


def analyze(lines, analyzer):
    """Tokens per line from the release `nomos analyze` (interned: at 10^6
    documents, one string object per distinct token, not per occurrence)."""
    interned = {}
    tokens = []
    proc = subprocess.Popen(
        [nomos(), "analyze", "--analyzer", analyzer], stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    # Fed from a thread, read here: neither pipe fills up and blocks.

    def feed():
        for line in lines:
            proc.stdin.write((line.replace("\n", " ").replace("\r", " ") + "\n").encode("utf-8"))
        proc.stdin.close()

    feeder = threading.Thread(target=feed)
    feeder.start()
    for line in proc.stdout:
        tokens.append([interned.setdefault(t, t) for t in line.decode("utf-8").split()])
    feeder.join()
    assert proc.wait() == 0, "nomos analyze failed"
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


def timed_build(build, reps):
    """The last model of `reps` builds, and their median time."""
    times = []
    model = None
    for _ in range(reps):
        start = time.perf_counter()
        model = build()
        times.append(time.perf_counter() - start)
    return model, sorted(times)[len(times) // 2]


def stable_top(scores, k):
    return [int(i) for i in np.argsort(-scores, kind="stable")[:k]]


def bench_rank_bm25(docs, queries, reps, build_reps):
    model, build = timed_build(lambda: BM25Okapi(docs), build_reps)

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


def bench_bm25s(docs, queries, reps, build_reps, backend="numpy"):
    model, build = timed_build(lambda: new_bm25s(docs, backend), build_reps)

    def run():
        return model.retrieve(
            queries, k=TOP, show_progress=False, n_threads=0,
            backend_selection="numba" if backend == "numba" else "numpy",
        )

    run()  # warm-up (and JIT compilation for numba)
    seconds = median_seconds(run, reps)
    return model, {"qps": len(queries) / seconds, "build_seconds": build}


def bench_nomos(token_file, reps, build_reps, check):
    out = cargo(
        "bench", "--quiet", "-p", "nomos-core", "--bench", "bm25", "--",
        str(token_file), f"--reps={reps}", f"--build-reps={build_reps}", f"--check={check}",
        capture=True,
    ).stdout
    return json.loads([line for line in out.splitlines() if line.startswith("{")][-1])


def check_top10(ours, okapi_model, lucene_model, queries):
    """Our top-10 ids against each reference's, for the first queries."""
    n = len(ours["okapi"]["top10"])
    okapi_equal = None
    if okapi_model is not None:
        okapi_equal = sum(
            ours["okapi"]["top10"][i]
            == stable_top(okapi_model.get_scores(queries[i]), CHECK_TOP)
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
    if okapi_equal is None:
        print("  okapi : rank_bm25 not run")
    else:
        print(f"  okapi : nomos == rank_bm25 stable argsort of get_scores  {okapi_equal}/{n}")
    print(f"  lucene: nomos == bm25s stable argsort of get_scores      {stable_equal}/{n}")
    print(f"  lucene: nomos == bm25s retrieve() ids                    {retrieve_equal}/{n}"
          f" (+{tie_only} differing only in the order of equal scores)")
    return okapi_equal in (None, n) and stable_equal == n and retrieve_equal + tie_only == n


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--synth", type=int, metavar="N",
                        help="rank a synthetic pool of N chunks instead of the Danish acts")
    parser.add_argument("--synth-from", choices=sorted(SYNTH), default="da",
                        help="whose word statistics the synthetic pool draws on")
    parser.add_argument("--queries", type=int, default=1000, help="queries for bm25s and nomos")
    parser.add_argument("--rank-bm25-queries", type=int, default=200,
                        help="leading subset timed with rank_bm25 (slow; 0 leaves it out)")
    parser.add_argument("--reps", type=int, default=3, help="timed passes for the Python systems")
    parser.add_argument("--nomos-reps", type=int, default=15, help="timed passes for nomos")
    parser.add_argument("--build-reps", type=int, default=3,
                        help="timed index builds per system (median; 1 at large N)")
    parser.add_argument("--check", type=int, default=50, help="queries in the top-10 check")
    parser.add_argument("--tokens-out", metavar="PATH",
                        help="keep the token file here (to rerun or profile the Rust bench alone)")
    args = parser.parse_args()

    texts, analyzer = corpus(args.synth, args.synth_from)
    queries_text = query_texts(texts, args.queries, random.Random(SEED))
    tokens = analyze(texts + queries_text, analyzer)
    docs, queries = tokens[: len(texts)], tokens[len(texts):]
    del texts
    # bm25s' get_scores reads query[0]; every sampled sentence has content words.
    assert all(queries), "a query is empty after analysis"
    n_tokens = sum(map(len, docs))
    vocab = len({t for d in docs for t in d})
    label = f"SYNTHETIC ({args.synth_from}, seed 1)" if args.synth else "Danish acts"
    print(f"corpus: {label}, {len(docs)} docs, {n_tokens} tokens, {vocab} terms; "
          f"{len(queries)} queries, {sum(map(len, queries)) / len(queries):.1f} tokens each",
          flush=True)

    rank_queries = queries[: args.rank_bm25_queries]
    okapi_model = rank = None
    if rank_queries:
        okapi_model, rank = bench_rank_bm25(docs, rank_queries, args.reps, args.build_reps)
    lucene_model, b25 = bench_bm25s(docs, queries, args.reps, args.build_reps)
    _, b25_numba = bench_bm25s(docs, queries, args.reps, args.build_reps, backend="numba")

    with tempfile.TemporaryDirectory() as tmp:
        token_file = Path(args.tokens_out or Path(tmp) / "tokens.txt")
        write_tokens(token_file, docs, queries)
        report = bench_nomos(token_file.resolve(), args.nomos_reps, args.build_reps, args.check)
    ours = report["variants"]

    n = len(queries)
    rows = []
    if rank:
        rows += [
            (f"rank_bm25 {version('rank_bm25')}", "okapi", len(rank_queries), rank, []),
            ("nomos (native)", "okapi", n, ours["okapi"], [("rank_bm25", rank)]),
        ]
    else:
        rows.append(("nomos (native)", "okapi", n, ours["okapi"], []))
    rows += [
        (f"bm25s {version('bm25s')} (numpy)", "lucene", n, b25, []),
        (f"bm25s {version('bm25s')} (numba {numba.__version__})", "lucene", n, b25_numba, []),
        ("nomos (native)", "lucene", n, ours["lucene"], [("numpy", b25), ("numba", b25_numba)]),
    ]
    # The previous path: every document's score, then selection over all.
    for variant in ("okapi", "lucene"):
        r = {"qps": ours[variant]["all_docs_qps"], "build_seconds": ours[variant]["build_seconds"]}
        refs = [("numba", b25_numba)] if variant == "lucene" else []
        rows.append(("nomos, every document's score, selected over all", variant, n, r, refs))
    print("\n| system | variant | queries | queries/s | ours ÷ reference | build (ms) |")
    print("|---|---|---:|---:|---|---:|")
    for name, variant, count, r, refs in rows:
        ratios = ", ".join(f"**{r['qps'] / ref['qps']:.1f}×** {label}" for label, ref in refs)
        print(f"| {name} | {variant} | {count} | {r['qps']:,.0f} | {ratios} | "
              f"{r['build_seconds'] * 1e3:,.1f} |")
    print(f"\ndocuments a query scores (nomos selects among these): "
          f"{report['touched_per_query']:,.0f} on average of {report['docs']:,}")

    ok = check_top10(ours, okapi_model, lucene_model, queries)
    numba_goal = GOALS["numba_at_1e6"] if len(docs) >= 1_000_000 else GOALS["numba"]
    met = {f"lucene ≥ {numba_goal:.0f}× bm25s numba":
           ours["lucene"]["qps"] / b25_numba["qps"] >= numba_goal}
    if rank:
        met["okapi ≥ 50× rank_bm25"] = ours["okapi"]["qps"] / rank["qps"] >= GOALS["rank_bm25"]
    print("goals met: " + ", ".join(f"{goal}: {m}" for goal, m in met.items()))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
