#!/usr/bin/env python3
"""How much of a query's postings exact dynamic pruning could skip, at best.

For each query of a token file (`bm25_vs_reference.py --tokens-out PATH`), BM25
lucene scores every document (k1 = 1.5, b = 0.75, bm25s' formula), takes the
k-th best score, and reports, as if that bar were known before reading anything:

- MaxScore: the share of the postings in the essential lists, those of the terms
  left once the terms whose summed upper bounds stay below the bar are set aside.
  Every posting of an essential list has to be read; the others are only looked
  up for the documents found there.
- block-max: the share of the postings in blocks of B consecutive documents
  whose summed per-term block maxima reach the bar; postings elsewhere could be
  skipped.

Real pruning does not know the bar at the start and pays to track candidates,
so it reads more than these shares: they bound the speed-up from above.

    python3 bench/pruning_ceiling.py TOKENS [--queries 200] [--k 100 10] [--block 128]
"""

import argparse
import collections
import math

import numpy as np

K1, B = 1.5, 0.75
HEADER = "nomos-bm25-tokens v1"


def read_tokens(path, n_queries):
    with open(path, encoding="utf-8") as f:
        if f.readline().strip() != HEADER:
            raise SystemExit(f"{path}: not a token file (first line is not {HEADER!r})")
        n_docs, total = map(int, f.readline().split())
        postings = collections.defaultdict(list)
        lengths = np.zeros(n_docs)
        for doc in range(n_docs):
            tokens = f.readline().rstrip("\n").split(" ")
            tokens = [t for t in tokens if t]
            lengths[doc] = len(tokens)
            for term, tf in collections.Counter(tokens).items():
                postings[term].append((doc, tf))
        queries = []
        for _ in range(min(n_queries, total)):
            queries.append([t for t in f.readline().rstrip("\n").split(" ") if t])
    return postings, lengths, queries


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tokens")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--k", type=int, nargs="+", default=[100, 10])
    parser.add_argument("--block", type=int, default=128)
    args = parser.parse_args()
    postings, lengths, queries = read_tokens(args.tokens, args.queries)
    n = len(lengths)
    norm = K1 * ((1 - B) + B * lengths / lengths.mean())
    n_blocks = (n + args.block - 1) // args.block
    for k in args.k:
        total = essential = live = 0
        for query in queries:
            counts = collections.Counter(t for t in query if t in postings)
            if not counts:
                continue
            scores = np.zeros(n)
            block_bound = np.zeros(n_blocks)
            lists = {}
            for term, repeats in counts.items():
                pairs = np.array(postings[term])
                docs, tf = pairs[:, 0], pairs[:, 1].astype(float)
                idf = math.log(1 + (n - len(docs) + 0.5) / (len(docs) + 0.5))
                values = repeats * idf * tf / (norm[docs] + tf)
                scores[docs] += values
                maxima = np.zeros(n_blocks)
                np.maximum.at(maxima, docs // args.block, values)
                block_bound += maxima
                lists[term] = (docs, values.max())
            bar = np.sort(scores)[-k] if n >= k else 0.0
            below = 0.0
            for term in sorted(lists, key=lambda t: lists[t][1]):
                docs, bound = lists[term]
                total += len(docs)
                if below + bound < bar:
                    below += bound
                else:
                    essential += len(docs)
            reach = block_bound >= bar
            live += sum(int(reach[docs // args.block].sum()) for docs, _ in lists.values())
        print(
            f"{n} documents, {len(queries)} queries, k = {k}: {total} postings; "
            f"MaxScore reads {essential / total:.1%} of them, "
            f"block-max (blocks of {args.block}) {live / total:.1%}"
        )


if __name__ == "__main__":
    main()
