#!/usr/bin/env python3
"""Fails unless a live ReAct run asked its observer and parsed the reply.

    observer-reached.py METRICS.json TRANSCRIPT.jsonl

A round whose search found candidates asks the observer; its trace in the
metrics (llm.per_query.*.rounds) records a failure "observe" when the
reply, retried once, was still not the JSON asked for. So a round with
candidates and no observe failure is an observer reply that was parsed.
The transcript must also hold an observer request (schema "keep"), so
the trace cannot claim a call that never went out (it holds each distinct
request once, so it may hold fewer than the rounds that asked). Run by
scripts/llm/check.sh: a model too weak to plan never reaches the observer,
and the check would otherwise pass without testing it.
"""

import json
import sys


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit("usage: observer-reached.py METRICS.json TRANSCRIPT.jsonl")
    metrics_path, transcript_path = sys.argv[1:]
    with open(metrics_path, encoding="utf-8") as f:
        per_query = json.load(f)["llm"]["per_query"]
    asked = parsed = 0
    queries = set()
    for query, trace in per_query.items():
        for round_ in trace["rounds"]:
            if round_["candidates"] > 0:
                asked += 1
                if round_["failure"] != "observe":
                    parsed += 1
                    queries.add(query)
    with open(transcript_path, encoding="utf-8") as f:
        lines = [json.loads(line) for line in f if line.strip()]
    sent = sum(
        1 for line in lines[1:] if (line["request"].get("schema") or {}).get("name") == "keep"
    )
    print(
        f"llm-check: the observer was asked in {asked} rounds, its reply parsed in {parsed} "
        f"(queries {', '.join(sorted(queries)) or 'none'}); {sent} distinct observer requests in the transcript"
    )
    if parsed == 0:
        sys.exit(f"llm-check: no round of {metrics_path} asked the observer and parsed its reply")
    if sent == 0:
        sys.exit(f"llm-check: {transcript_path} holds no observer request")


if __name__ == "__main__":
    main()
