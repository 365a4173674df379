"""The sample plugin in examples/ (Org-mode files), installed as a user would but into a
folder of this test's own (pip --target, nothing added to the shared venv): it passes the
parser contract, and `citewise ingest` reads a .org file that `citewise ask` answers from."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "citewise-plugin-sample"
CITEWISE = Path(sys.executable).with_name("citewise")


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The plugin built and installed into a folder (its package and its dist-info)."""
    work = tmp_path_factory.mktemp("plugin")
    source = shutil.copytree(EXAMPLE, work / "source")  # pip's build leaves files behind
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
         "--no-index", "--target", work / "target", source],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return work / "target"


def _env(data: Path, *path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "CITEWISE_"))}
    pythonpath = [*path, REPO / "src"]
    return env | {
        "PYTHONPATH": os.pathsep.join(map(str, pythonpath)),
        "CITEWISE_DATA_DIR": str(data),
        "CITEWISE_EMBEDDER": "hashing",
    }


def _run(args: list[str | Path], env: dict[str, str], cwd: Path = REPO) -> str:
    done = subprocess.run(
        [str(a) for a in args], env=env, cwd=cwd, capture_output=True, text=True, timeout=300,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, f"{args}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


def test_the_sample_plugin_passes_the_parser_contract(target: Path, tmp_path: Path) -> None:
    out = _run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", EXAMPLE,
         "-c", EXAMPLE / "pyproject.toml", EXAMPLE / "tests"],
        _env(tmp_path / "data", target),
    )  # fmt: skip
    passed = re.search(r"(\d+) passed", out)
    assert passed and int(passed.group(1)) >= 10 and "failed" not in out, out


def test_ingest_reads_an_org_file_through_the_plugin(target: Path, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(EXAMPLE / "tests" / "samples" / "handbook.org", docs)
    bare = subprocess.run(
        [CITEWISE, "ingest", docs], env=_env(tmp_path / "bare"), capture_output=True,
        text=True, timeout=300, check=False,
    )  # fmt: skip
    assert "unsupported file type .org" in bare.stdout + bare.stderr  # the control
    env = _env(tmp_path / "data", target)
    report = json.loads(_run([CITEWISE, "ingest", docs, "--json"], env))
    assert [(o["source"], o["status"]) for o in report["outcomes"]] == [
        ("handbook.org", "ingested")
    ]
    answer = json.loads(
        _run([CITEWISE, "ask", "How long is each Harbor snapshot kept?", "--json"], env)
    )
    assert "21 days" in answer["answer"] and answer["grounded"]
    cited = answer["citations"][0]
    assert (cited["source"], cited["section"]) == ("handbook.org", "Backups")
