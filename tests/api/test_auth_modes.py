"""When credentials are needed: a server meant for a non-loopback address requires them,
a loopback one without `auth_required` treats callers as the local admin."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from http_server import running

pytestmark = pytest.mark.integration


def _app(tmp_path: Path, **overrides: object) -> object:
    from citewise.api import create_app
    from citewise.config import load_settings

    settings = load_settings(data_dir=tmp_path / "data", embedder="hashing", **overrides)
    return create_app(settings)


def test_a_server_for_a_non_loopback_address_requires_credentials(tmp_path: Path) -> None:
    # uvicorn listens on 127.0.0.1 here; the settings say where `serve` was told to bind
    with running(_app(tmp_path, host="0.0.0.0")) as url:
        assert httpx.get(f"{url}/auth/me").status_code == 401
        assert httpx.post(f"{url}/api/query", json={"query": "rotation"}).status_code == 401
        assert httpx.get(f"{url}/health").status_code == 200  # probes stay open


def test_a_loopback_server_serves_the_local_admin_from_the_global_collection(
    tmp_path: Path,
) -> None:
    with running(_app(tmp_path)) as url:
        me = httpx.get(f"{url}/auth/me").json()
        assert (me["via"], me["is_admin"], me["searches"]) == ("local", True, ["default"])
        assert httpx.get(f"{url}/auth/me", headers={"X-API-Key": "cwk_wrong"}).status_code == 401
        keys = httpx.post(f"{url}/auth/keys", json={"scopes": ["read"]})
        assert keys.status_code == 400 and "citewise users create" in keys.text
