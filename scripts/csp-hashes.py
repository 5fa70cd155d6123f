"""Puts the SHA-256 of each inline script into the page's
Content-Security-Policy.

Run by Trunk as a post-build hook (see Trunk.toml), before
sw-precache.py, in the staging directory Trunk is about to make dist/
(TRUNK_STAGING_DIR). Trunk starts the app with an inline module script
whose text names the build's hashed files, so its hash is only known after
a build; the policy in app/index.html (a meta tag) allows inline scripts by
these hashes alone, never 'unsafe-inline', and works on any static host.
"""

import base64
import hashlib
import os
import re
import sys
from pathlib import Path

PAGE = "index.html"
# What app/index.html's policy says where the hashes go.
PLACEHOLDER = "'inline-script-hashes'"
INLINE = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.DOTALL | re.IGNORECASE)


def main() -> None:
    stage = Path(os.environ.get("TRUNK_STAGING_DIR") or sys.argv[1])
    page = stage / PAGE
    html = page.read_text(encoding="utf-8")
    if html.count(PLACEHOLDER) != 1:
        sys.exit(f"{page}: the Content-Security-Policy needs one {PLACEHOLDER} placeholder")
    hashes = [
        "'sha256-" + base64.b64encode(hashlib.sha256(m.group(1).encode()).digest()).decode() + "'"
        for m in INLINE.finditer(html)
    ]
    if not hashes:
        sys.exit(f"{page}: no inline script (Trunk's loader) to allow")
    page.write_text(html.replace(PLACEHOLDER, " ".join(hashes)), encoding="utf-8")
    print(f"csp-hashes: {len(hashes)} inline script(s) allowed by hash")


if __name__ == "__main__":
    main()
