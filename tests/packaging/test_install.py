"""The user's install: the wheel built from this repo, installed into a clean venv with pip
(wheels only, so no compiler), does the main job without torch: ingest, ask with a citation,
serve. Slow (about 2 minutes with a warm pip cache); reaches only the package index."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from http_server import free_port
from processes import stop

pytestmark = [pytest.mark.slow, pytest.mark.integration]

REPO = Path(__file__).resolve().parents[2]
VENV_LIMIT_MB = 500
INSTALL_TIMEOUT_S = 900
CORPUS = {
    "tokens.md": "# API tokens\n\nAPI tokens are valid for 30 days after they are issued. An "
    "expired token is rejected with status 401, and the client must ask for a new one.\n",
    "backups.md": "# Backups\n\nThe database is backed up every night at 02:00 UTC, and "
    "backups are kept for 14 days.\n",
}


def _clean_env(home: Path) -> dict[str, str]:
    """The environment of a user's shell (their pip configuration and cache included):
    nothing that points at this source tree, a compiler that cannot run, and citewise's data
    and model cache in the test's folder."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "CITEWISE_"))}
    env.update(
        CC="/bin/false",
        CXX="/bin/false",
        CITEWISE_DATA_DIR=str(home / "data"),
        CITEWISE_MODEL_CACHE=str(home / "models"),
    )
    return env


def _run(command: list[str | Path], env: dict[str, str], cwd: Path) -> str:
    done = subprocess.run(
        [str(c) for c in command],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=INSTALL_TIMEOUT_S,
        check=False,
    )
    assert done.returncode == 0, f"{command}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


def _size_mb(path: Path) -> float:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 2**20


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    home = tmp_path_factory.mktemp("user")
    env = _clean_env(home)
    wheels = home / "wheels"
    started = time.perf_counter()
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", REPO, "-w", wheels], env, home)
    built = time.perf_counter()
    [wheel] = wheels.glob("citewise-*.whl")
    venv = home / "venv"
    _run([sys.executable, "-m", "venv", venv], env, home)
    # wheels only: a dependency without a wheel for this platform would need a compiler
    _run(
        [venv / "bin/python", "-m", "pip", "install", "-q", "--only-binary=:all:", wheel], env, home
    )
    installed = time.perf_counter()
    print(
        f"\ninstall: wheel built in {built - started:.0f} s, installed in "
        f"{installed - built:.0f} s, venv {_size_mb(venv):.0f} MB"
    )
    yield venv, env


def test_the_wheel_installs_without_torch_within_the_size_limit(
    venv: tuple[Path, dict[str, str]],
) -> None:
    path, env = venv
    probe = (
        "import importlib.util as u; print([m for m in ('torch', 'citewise') if u.find_spec(m)])"
    )
    assert _run([path / "bin/python", "-c", probe], env, path).strip() == "['citewise']"
    assert _size_mb(path) <= VENV_LIMIT_MB


def test_the_installed_command_ingests_asks_with_a_citation_and_serves(
    venv: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    path, env = venv
    citewise = path / "bin/citewise"
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name, text in CORPUS.items():
        (corpus / name).write_text(text, encoding="utf-8")

    _run([citewise, "ingest", corpus], env, tmp_path)
    answer = json.loads(
        _run([citewise, "ask", "--json", "How long are API tokens valid?"], env, tmp_path)
    )
    assert "30 days" in answer["answer"]
    assert answer["citations"] and answer["citations"][0]["source"] == "tokens.md"

    port = free_port()
    server = subprocess.Popen(
        [str(citewise), "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        health = _wait_for_health(f"http://127.0.0.1:{port}/health", server)
        assert health["status"] == "ok" and health["embedder"] == "minilm"
    finally:
        stop(server)


def _wait_for_health(
    url: str, server: subprocess.Popen[bytes], limit_s: float = 90
) -> dict[str, str]:
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        assert server.poll() is None, f"citewise serve exited with {server.returncode}"
        try:
            response = httpx.get(url, timeout=5)
            if response.status_code == 200:
                body: dict[str, str] = response.json()
                return body
        except httpx.TransportError:
            pass
        time.sleep(0.5)
    raise AssertionError(f"{url} did not answer within {limit_s} s")
