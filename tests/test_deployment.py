"""The Dockerfile and compose.yaml agree with the code: every CITEWISE_* variable they set is
a setting, every `citewise` command they run exists, and the services are the documented ones."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from citewise.config import Settings

ROOT = Path(__file__).resolve().parents[1]


def _compose() -> dict[str, object]:
    data = yaml.safe_load((ROOT / "compose.yaml").read_text())
    assert isinstance(data, dict)
    return data


def _setting_names() -> set[str]:
    return {f"CITEWISE_{name.upper()}" for name in Settings.model_fields}


def _commands() -> set[str]:
    from typer.main import get_command

    from citewise.cli import app

    return set(get_command(app).commands)  # type: ignore[attr-defined]


def test_every_citewise_variable_in_compose_is_a_setting() -> None:
    services = _compose()["services"]
    assert isinstance(services, dict)
    for name in ("app", "worker"):
        env = services[name]["environment"]
        unknown = {k for k in env if k.startswith("CITEWISE_")} - _setting_names()
        assert not unknown, f"{name}: not settings: {sorted(unknown)}"


def test_every_citewise_variable_in_the_dockerfile_is_a_setting() -> None:
    names = set(re.findall(r"\b(CITEWISE_[A-Z_]+)=", (ROOT / "Dockerfile").read_text()))
    assert names and names <= _setting_names()


def test_compose_runs_the_app_a_worker_pgvector_and_redis() -> None:
    services = _compose()["services"]
    assert isinstance(services, dict)
    assert set(services) == {"app", "worker", "postgres", "redis"}
    assert services["postgres"]["image"] == "pgvector/pgvector:pg18"
    assert services["app"]["environment"]["CITEWISE_STORE"].startswith("postgresql://")
    assert services["app"]["volumes"] == services["worker"]["volumes"]  # staged uploads


def test_the_commands_the_images_run_exist() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    cmd = re.search(r'^CMD \["citewise", "(\w+)"', dockerfile, re.M)
    assert cmd is not None and cmd.group(1) in _commands()
    services = _compose()["services"]
    assert isinstance(services, dict)
    for service in services.values():
        command = service.get("command") or []
        if command[:1] == ["citewise"]:
            assert command[1] in _commands()


def test_the_app_hands_uploads_to_the_worker_queue() -> None:
    services = _compose()["services"]
    assert isinstance(services, dict)
    app_env, worker_env = services["app"]["environment"], services["worker"]["environment"]
    assert app_env["CITEWISE_JOBS"] == "queue"
    assert app_env["CITEWISE_QUEUE"] == worker_env["CITEWISE_QUEUE"]
    assert app_env["CITEWISE_QUEUE"].startswith("redis://")
    assert services["worker"]["command"] == ["citewise", "worker"]
