#!/usr/bin/env python3
"""Growth of a fragmented pool (#15): what the builder and a query cost at
10^4, 10^5 and 10^6 synthetic Danish chunks.

For each size N it makes the pool (`nomos synth --from da --docs N --seed 1`,
kept between runs), builds it straight into fragments (`nomos build
--fragments`, timed by /usr/bin/time -v: wall time and peak resident memory),
and plans 200 deterministic 3-term queries drawn from the pool's own text
(`nomos plan`: the bytes a query fetches, the meta, its terms' postings
fragments and its top 10's directory pages and documents fragments, stored
and brotli; and the
native time to read, check and rank them). It writes the table
(docs/growth.md), the raw numbers (docs/growth.json) and a plot
(docs/growth.svg: bytes per query, time per query, build time, against the
pool's size, log axes).

The browser's numbers come from elsewhere (the e2e measurements): pass them
with --browser FILE, a JSON object keyed by N, e.g.
{"1000000": {"cold_ms": 900, "warm_ms": 40, "transferred": 700000}}; they
become columns and a line in the time panel.

Python standard library only. Usage, from the repository root, with a
release CLI:

    python3 bench/growth.py --nomos target/release/nomos --work /tmp/growth
"""

import argparse
import json
import random
import re
import statistics
import subprocess
import sys
from pathlib import Path

QUERIES = 200
TERMS = 3


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, text=True, capture_output=True, **kw)


def synth(nomos, data, n, out):
    if (out / "PROVENANCE.md").exists():
        return
    run([nomos, "synth", "--from", "da", "--docs", str(n), "--seed", "1",
         "--data", str(data), "--out", str(out)])


def build(nomos, src, frag):
    """Wall seconds and peak resident bytes of `nomos build --fragments`."""
    if frag.exists():
        for f in frag.iterdir():
            f.unlink()
    res = run(["/usr/bin/time", "-v", nomos, "build", "--format", "da-acts", str(src),
               "--title", "SYNTHETIC, not law", "--fragments", str(frag)])
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", res.stderr)
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", res.stderr)
    seconds = 0.0
    for part in wall.group(1).split(":"):
        seconds = seconds * 60 + float(part)
    summary = [l for l in res.stderr.splitlines() if l.startswith("wrote ")]
    return seconds, int(peak.group(1)) * 1024, summary[-1] if summary else ""


def queries(src, count, seed=1):
    """`count` queries of TERMS words, each from one random provision's text."""
    rng = random.Random(seed)
    files = sorted(src.glob("*.json"))
    out = []
    while len(out) < count:
        act = json.loads(rng.choice(files).read_text())
        text = rng.choice(act["provisions"])["content"]
        words = [w for w in re.findall(r"\w+", text) if len(w) >= 4 and not w.isdigit()]
        if len(words) >= TERMS:
            out.append(" ".join(rng.sample(words, TERMS)))
    return out


def plan(nomos, frag, qfile):
    res = run([nomos, "plan", str(frag), "--queries", str(qfile)])
    lines = [json.loads(l) for l in res.stdout.splitlines()]
    return lines[0], lines[1:]


def measure(args, n):
    src, frag = args.work / f"synth-{n}", args.work / f"frag-{n}"
    synth(args.nomos, args.data, n, src)
    seconds, peak, summary = build(args.nomos, src, frag)
    qfile = args.work / f"queries-{n}.txt"
    qfile.write_text("\n".join(queries(src, QUERIES)) + "\n")
    pool, planned = plan(args.nomos, frag, qfile)
    med = lambda xs: statistics.median(xs)
    return {
        "chunks": n,
        "build_s": seconds,
        "peak_bytes": peak,
        "build_line": summary,
        "fragments": pool["fragments"],
        "fragment_bytes": pool["fragment_bytes"],
        "meta_bytes": pool["meta"]["bytes"],
        "meta_brotli": pool["meta"]["brotli"],
        "query_bytes_median": med([q["bytes"]["total"] for q in planned]),
        "query_brotli_median": med([q["brotli"]["total"] for q in planned]),
        "query_brotli_p90": sorted(q["brotli"]["total"] for q in planned)[int(0.9 * len(planned))],
        "query_brotli_max": max(q["brotli"]["total"] for q in planned),
        "postings_brotli_median": med([q["brotli"]["postings"] for q in planned]),
        # The top 10's directory pages (format 3) count with their
        # documents fragments.
        "docs_brotli_median": med([q["brotli"]["docs"] + q["brotli"].get("pages", 0)
                                   for q in planned]),
        "query_ms_median": med([q["ms"] for q in planned]),
        "queries": len(planned),
    }


def mb(b):
    return f"{b / 1e6:.2f} MB" if b >= 1e6 else f"{b / 1e3:.0f} kB"


def table(rows, browser):
    head = ["chunks", "build", "peak memory", "fragments", "all fragments", "meta (brotli)",
            "3-term query, median (brotli)", "p90 / max (brotli)", "of which postings / docs",
            "native query, median"]
    bcols = ["browser cold", "browser warm", "browser transferred"]
    if browser:
        head += bcols
    out = ["| " + " | ".join(head) + " |", "|" + "---:|" * len(head)]
    for r in rows:
        cells = [f"{r['chunks']:,}", f"{r['build_s']:.1f} s", f"{r['peak_bytes'] / 1e9:.2f} GB",
                 f"{r['fragments']:,}", mb(r["fragment_bytes"]),
                 f"{mb(r['meta_bytes'])} ({mb(r['meta_brotli'])})",
                 f"{mb(r['query_bytes_median'])} ({mb(r['query_brotli_median'])})",
                 f"{mb(r['query_brotli_p90'])} / {mb(r['query_brotli_max'])}",
                 f"{mb(r['postings_brotli_median'])} / {mb(r['docs_brotli_median'])}",
                 f"{r['query_ms_median']:.2f} ms"]
        if browser:
            b = browser.get(str(r["chunks"]), {})
            cells += [f"{b['cold_ms']:.0f} ms" if "cold_ms" in b else "—",
                      f"{b['warm_ms']:.0f} ms" if "warm_ms" in b else "—",
                      mb(b["transferred"]) if "transferred" in b else "—"]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def svg(rows, browser):
    """Three panels, log-log: bytes per query, time per query, build time."""
    import math
    w, h, pad = 260, 200, 46
    xs = [r["chunks"] for r in rows]
    panels = [
        ("bytes fetched per 3-term query (brotli)", "bytes", [
            ("pool, all fragments (stored)", "#999", [r["fragment_bytes"] for r in rows]),
            ("query, median", "#1f77b4", [r["query_brotli_median"] for r in rows]),
            ("of which the meta", "#2ca02c", [r["meta_brotli"] for r in rows]),
        ] + ([("browser transferred", "#d62728",
               [browser.get(str(x), {}).get("transferred") for x in xs])] if browser else [])),
        ("time per query", "ms", [
            ("native, median", "#1f77b4", [r["query_ms_median"] for r in rows]),
        ] + ([("browser cold", "#d62728", [browser.get(str(x), {}).get("cold_ms") for x in xs]),
              ("browser warm", "#ff7f0e", [browser.get(str(x), {}).get("warm_ms") for x in xs])]
             if browser else [])),
        ("builder (build --fragments)", "s", [
            ("wall time", "#1f77b4", [r["build_s"] for r in rows]),
        ]),
    ]
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{3 * (w + pad) + pad}" '
             f'height="{h + 2 * pad + 60}" font-family="sans-serif" font-size="11">',
             '<rect width="100%" height="100%" fill="white"/>']
    lx0, lx1 = math.log10(min(xs)), math.log10(max(xs))
    for p, (title, unit, series) in enumerate(panels):
        ox, oy = pad + p * (w + pad), pad
        vals = [v for _, _, ys in series for v in ys if v]
        ly0, ly1 = math.floor(math.log10(min(vals))), math.ceil(math.log10(max(vals)))
        if ly0 == ly1:
            ly1 += 1
        X = lambda x: ox + (math.log10(x) - lx0) / (lx1 - lx0 or 1) * w
        Y = lambda y: oy + h - (math.log10(y) - ly0) / (ly1 - ly0) * h
        parts.append(f'<text x="{ox}" y="{oy - 12}" font-weight="bold">{title}</text>')
        parts.append(f'<rect x="{ox}" y="{oy}" width="{w}" height="{h}" fill="none" stroke="#444"/>')
        for e in range(ly0, ly1 + 1):
            y = Y(10 ** e)
            parts.append(f'<line x1="{ox}" x2="{ox + w}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>')
            parts.append(f'<text x="{ox - 4}" y="{y + 4:.1f}" text-anchor="end">1e{e}</text>')
        for x in xs:
            parts.append(f'<text x="{X(x):.1f}" y="{oy + h + 14}" text-anchor="middle">{x:.0e}</text>')
        parts.append(f'<text x="{ox + w / 2}" y="{oy + h + 28}" text-anchor="middle">chunks</text>')
        parts.append(f'<text x="{ox - 34}" y="{oy + h / 2}" transform="rotate(-90 {ox - 34} '
                     f'{oy + h / 2})" text-anchor="middle">{unit}</text>')
        for i, (label, colour, ys) in enumerate(series):
            pts = [(X(x), Y(y)) for x, y in zip(xs, ys) if y]
            if not pts:
                continue
            parts.append('<polyline fill="none" stroke="{}" stroke-width="2" points="{}"/>'.format(
                colour, " ".join(f"{a:.1f},{b:.1f}" for a, b in pts)))
            for a, b in pts:
                parts.append(f'<circle cx="{a:.1f}" cy="{b:.1f}" r="3" fill="{colour}"/>')
            ly = oy + h + 44 + 12 * i
            parts.append(f'<line x1="{ox}" x2="{ox + 16}" y1="{ly - 4}" y2="{ly - 4}" '
                         f'stroke="{colour}" stroke-width="2"/>')
            parts.append(f'<text x="{ox + 20}" y="{ly}">{label}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--nomos", default="target/release/nomos")
    ap.add_argument("--data", type=Path, default=Path("data"), help="holds da-statutes/")
    ap.add_argument("--work", type=Path, default=Path("/tmp/nomos-growth"))
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    ap.add_argument("--browser", type=Path, help="browser measurements (JSON by size)")
    ap.add_argument("--out", type=Path, default=Path("docs"), help="growth.{md,json,svg} here")
    ap.add_argument("--render", action="store_true",
                    help="measure nothing: redraw the table and plot from OUT/growth.json")
    args = ap.parse_args()
    browser = json.loads(args.browser.read_text()) if args.browser else {}
    if args.render:
        rows = json.loads((args.out / "growth.json").read_text())
    else:
        args.work.mkdir(parents=True, exist_ok=True)
        rows = []
        for n in args.sizes:
            print(f"{n} chunks ...", file=sys.stderr)
            rows.append(measure(args, n))
            print(json.dumps(rows[-1]), file=sys.stderr)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "growth.json").write_text(json.dumps(rows, indent=1) + "\n")
    (args.out / "growth.md").write_text(table(rows, browser))
    (args.out / "growth.svg").write_text(svg(rows, browser))
    print(table(rows, browser))


if __name__ == "__main__":
    main()
