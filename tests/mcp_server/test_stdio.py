"""`citewise mcp` over stdio, driven by the SDK's own client: a real child process."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters
from typer.testing import CliRunner

from citewise.cli import app as cli
from mcp_server.checks import check_every_tool, check_own_fact_only
from mcp_server.conftest import DataDir
from mcp_server.loop import run_client

pytestmark = pytest.mark.integration
SRC = str(Path(__file__).resolve().parents[2] / "src")


def stdio_server(data_dir: Path, *extra: str) -> Client:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "citewise.cli", "mcp", "--data-dir", str(data_dir), *extra],
        env={
            "PYTHONPATH": os.pathsep.join([SRC, os.environ.get("PYTHONPATH", "")]),
            "CITEWISE_EMBEDDER": "hashing",
        },
    )
    return Client(params, read_timeout_seconds=120)


def test_stdio_server_answers_every_tool_with_citations(data_dir: DataDir) -> None:
    async def run() -> None:
        async with stdio_server(data_dir.path) as client:
            await check_every_tool(client)

    run_client(run)


def test_stdio_server_with_an_api_key_reads_only_that_users_collections(
    data_dir: DataDir,
) -> None:
    alice, bob = data_dir.tenants["alice"], data_dir.tenants["bob"]

    async def run() -> None:
        async with stdio_server(data_dir.path, "--api-key", alice.key) as client:
            await check_own_fact_only(client, alice, bob)

    run_client(run)


def test_mcp_with_a_wrong_api_key_exits_with_an_auth_error(data_dir: DataDir) -> None:
    result = CliRunner().invoke(
        cli, ["mcp", "--data-dir", str(data_dir.path), "--api-key", "cwk_nope_nope"]
    )
    assert result.exit_code == 5, result.output
    assert "invalid API key" in result.output and "Traceback" not in result.output
