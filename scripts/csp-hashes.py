"""Completes the page's Content-Security-Policy, and checks a built site's.

Run by Trunk as a post-build hook (see Trunk.toml), before
sw-precache.py, in the staging directory Trunk is about to make dist/
(TRUNK_STAGING_DIR). Trunk starts the app with an inline module script
whose text names the build's hashed files, so its hash is only known after
a build; the policy in app/index.html (a meta tag) allows inline scripts by
these hashes alone, never 'unsafe-inline', and works on any static host.
The hook then
- adds the origins in NOMOS_CONNECT_SRC (space-separated, e.g.
  `https://llm.example.org`) to connect-src, for a site whose users ask an
  LLM endpoint off loopback;
- writes the finished policy, plus what only a header can say
  (frame-ancestors), to content-security-policy.txt, which
  scripts/serve.py sends as a header and sw-precache.py hands to the
  service worker, which sends it with every answer.

`csp-hashes.py --check DIR` checks a built site: the page's policy allows
exactly its inline scripts, and the header file and the service worker
carry that policy. It fails when they drift (e.g. the page edited after
the build).
"""

import base64
import hashlib
import json
import os
import re
import sys
from pathlib import Path

PAGE = "index.html"
HEADER_FILE = "content-security-policy.txt"
WORKER = "sw.js"
# What app/index.html's policy says where the hashes go.
PLACEHOLDER = "'inline-script-hashes'"
# Directives a meta tag cannot carry (browsers ignore them there).
HEADER_ONLY = "frame-ancestors 'none'"
INLINE = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.DOTALL | re.IGNORECASE)
META = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)"', re.IGNORECASE)
# An origin a host may add: scheme, host, optional port (or *), nothing else.
ORIGIN = re.compile(r"^https?://[A-Za-z0-9.-]+(:(\d{1,5}|\*))?$")
WORKER_BUILD = re.compile(r"^const BUILD = (\{.*\});$", re.MULTILINE)


def inline_hashes(html: str) -> list[str]:
    return [
        "'sha256-" + base64.b64encode(hashlib.sha256(m.group(1).encode()).digest()).decode() + "'"
        for m in INLINE.finditer(html)
    ]


def page_policy(html: str, page: Path) -> str:
    found = META.findall(html)
    if len(found) != 1:
        sys.exit(f"{page}: needs one Content-Security-Policy meta tag, found {len(found)}")
    return found[0]


def header_policy(policy: str) -> str:
    return f"{policy}; {HEADER_ONLY}"


def extra_origins() -> list[str]:
    origins = os.environ.get("NOMOS_CONNECT_SRC", "").split()
    for origin in origins:
        if not ORIGIN.match(origin):
            sys.exit(f"NOMOS_CONNECT_SRC: {origin!r} is not an origin like https://llm.example.org")
    return origins


def build(stage: Path) -> None:
    page = stage / PAGE
    html = page.read_text(encoding="utf-8")
    if html.count(PLACEHOLDER) != 1:
        sys.exit(f"{page}: the Content-Security-Policy needs one {PLACEHOLDER} placeholder")
    hashes = inline_hashes(html)
    if not hashes:
        sys.exit(f"{page}: no inline script (Trunk's loader) to allow")
    html = html.replace(PLACEHOLDER, " ".join(hashes))
    origins = extra_origins()
    if origins:
        html = html.replace("connect-src 'self'", "connect-src 'self' " + " ".join(origins), 1)
    page.write_text(html, encoding="utf-8")
    (stage / HEADER_FILE).write_text(header_policy(page_policy(html, page)) + "\n", encoding="utf-8")
    print(f"csp-hashes: {len(hashes)} inline script(s) allowed by hash, {len(origins)} extra origin(s)")


def check(site: Path) -> None:
    page = site / PAGE
    html = page.read_text(encoding="utf-8")
    policy = page_policy(html, page)
    script_src = next((d for d in policy.split(";") if d.split()[:1] == ["script-src"]), "")
    allowed = sorted(t for t in script_src.split() if t.startswith("'sha256-"))
    if allowed != sorted(inline_hashes(html)):
        sys.exit(f"{page}: the policy allows {allowed}, not the page's inline scripts")
    header = (site / HEADER_FILE).read_text(encoding="utf-8").strip()
    if header != header_policy(policy):
        sys.exit(f"{site / HEADER_FILE} is not the page's policy: rebuild")
    worker = WORKER_BUILD.search((site / WORKER).read_text(encoding="utf-8"))
    if not worker or json.loads(worker.group(1)).get("csp") != header:
        sys.exit(f"{site / WORKER} does not send the page's policy: rebuild")
    print(f"csp-hashes: {site} sends one policy (page, header, service worker)")


def main() -> None:
    if sys.argv[1:2] == ["--check"]:
        check(Path(sys.argv[2]))
    else:
        build(Path(os.environ.get("TRUNK_STAGING_DIR") or sys.argv[1]))


if __name__ == "__main__":
    main()
