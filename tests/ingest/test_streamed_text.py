"""A plain-text file over the streaming size is read in pieces and stored in batches: the
same chunks as a whole read, searchable from start to end, and invisible until complete
(also after kill -9 in the middle)."""

from __future__ import annotations

import random
import sqlite3
import textwrap
from pathlib import Path
from typing import ClassVar

import pytest

from citewise.assistant import Assistant
from citewise.embed.hashing import HashingEmbedder
from citewise.ingest.pipeline import IngestJob, run_ingest
from citewise.ingest.streamed import StreamLimits
from citewise.store.sqlite.store import SQLiteStore
from citewise.types import ChunkedDocument, IngestReport
from hardening.consistency import table_problems
from hardening.crash_child import _run_child as run_child

SMALL = StreamLimits(above_bytes=64 * 1024, piece_bytes=16 * 1024, batch_chunks=64)
WHOLE = StreamLimits(above_bytes=2**40)
WORDS = ("service", "restart", "limit", "buffer", "kernel", "backup", "rotate", "token")


def write_log(path: Path, paragraphs: int, marks: dict[int, str], seed: int = 7) -> None:
    """Paragraphs of varied words; paragraph i of `marks` holds its unique word."""
    rng = random.Random(seed)
    with path.open("w", encoding="utf-8", newline="") as fh:
        fh.write("Operations log\r\n\r\n")
        for i in range(paragraphs):
            words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(20, 120)))
            mark = f" {marks[i]} appears here." if i in marks else ""
            fh.write(f"Entry {i} — größe {words}.{mark}\r\n\r\n")


def ingest(
    data: Path, path: Path, limits: StreamLimits, store_type: type[SQLiteStore] = SQLiteStore
) -> IngestReport:
    job = IngestJob(paths=[path], collection="default", streaming=limits)
    return run_ingest(job, lambda: store_type(data / "citewise.db"), HashingEmbedder)


def stored_chunks(data: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(data / "citewise.db") as conn:
        return conn.execute(
            "SELECT c.ordinal, c.text, c.embed_text, c.section, c.page_start, p.ordinal, p.text"
            " FROM chunks c JOIN parents p ON p.id = c.parent_id ORDER BY c.ordinal"
        ).fetchall()


def test_a_streamed_text_file_has_the_chunks_of_a_whole_read(tmp_path: Path) -> None:
    marks = {0: "zqfirstword", 2500: "zqmiddleword", 4999: "zqlastword"}
    log = tmp_path / "ops.log"
    write_log(log, 5000, marks)
    assert log.stat().st_size > 2 * 2**20
    streamed = ingest(tmp_path / "streamed", log, SMALL)
    whole = ingest(tmp_path / "whole", log, WHOLE)
    (outcome,) = streamed.outcomes
    assert (outcome.status, outcome.reason) == ("ingested", "read as a stream")
    assert whole.outcomes[0].reason == ""
    assert outcome.chunks == whole.outcomes[0].chunks > 1000
    assert stored_chunks(tmp_path / "streamed") == stored_chunks(tmp_path / "whole")
    with Assistant(data_dir=tmp_path / "streamed", embedder="hashing") as a:
        (doc,) = a.documents()
        assert (doc.title, doc.status, doc.chunk_count) == (
            "Operations log",
            "ready",
            outcome.chunks,
        )
        for word in marks.values():
            hit = a.search(word, k=3, mode="keyword").hits[0]
            assert word in hit.text
            assert (hit.source, hit.page, hit.section) == ("ops.log", None, "")
            # its vector is the one of its own text
            assert a.search(hit.text[:900], k=3, mode="vector").hits[0].chunk_id == hit.chunk_id


class PeekingStore(SQLiteStore):
    """After each stored batch, looks at the store as a search would."""

    seen: ClassVar[list[tuple[list[str], int]]] = []

    def append_chunks(self, doc_id: int, chunks: ChunkedDocument) -> bool:
        stored = super().append_chunks(doc_id, chunks)
        with Assistant(data_dir=self.path.parent, embedder="hashing") as a:
            listed = [d.title for d in a.documents()]
            found = len(a.search("zqnewversion", k=3, mode="keyword").hits)
        self.seen.append((listed, found))
        return stored


def test_a_streamed_version_appears_only_once_complete(tmp_path: Path) -> None:
    log, data = tmp_path / "ops.log", tmp_path / "data"
    write_log(log, 600, {0: "zqoldversion"})
    assert ingest(data, log, SMALL).outcomes[0].status == "ingested"
    write_log(log, 600, {0: "zqnewversion", 599: "zqnewversion"}, seed=8)
    PeekingStore.seen = []
    report = ingest(data, log, SMALL, PeekingStore)
    assert report.outcomes[0].status == "replaced"
    assert len(PeekingStore.seen) > 3
    # while streaming: the old version only, the new text nowhere
    assert all(seen == (["Operations log"], 0) for seen in PeekingStore.seen)
    with Assistant(data_dir=data, embedder="hashing") as a:
        assert len(a.documents()) == 1
        assert a.search("zqnewversion", k=3, mode="keyword").hits
        assert not a.search("zqoldversion", k=3, mode="keyword").hits
    assert table_problems(data / "citewise.db") == []


CHILD = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from citewise.embed.hashing import HashingEmbedder
    from citewise.ingest.pipeline import IngestJob, run_ingest
    from citewise.ingest.streamed import StreamLimits
    from citewise.store.sqlite.store import SQLiteStore

    log, data, marker = map(Path, sys.argv[1:4])
    freeze_at = int(sys.argv[5])  # sys.argv[4] is the phase: "append", the only one

    class Freezing(SQLiteStore):
        batches = 0
        def append_chunks(self, doc_id, chunks):
            stored = super().append_chunks(doc_id, chunks)
            Freezing.batches += 1
            if Freezing.batches == freeze_at:
                marker.write_text("frozen")
                time.sleep(60)  # killed here
            return stored

    limits = StreamLimits(above_bytes=64 * 1024, piece_bytes=16 * 1024, batch_chunks=64)
    job = IngestJob(paths=[log], collection="default", streaming=limits)
    run_ingest(job, lambda: Freezing(data / "citewise.db"), HashingEmbedder)
    """
)


@pytest.mark.slow
def test_kill_9_while_streaming_leaves_nothing_visible_and_the_next_run_completes(
    tmp_path: Path,
) -> None:
    log, data, marker = tmp_path / "ops.log", tmp_path / "data", tmp_path / "frozen"
    write_log(log, 600, {0: "zqstreamword"})
    killed = run_child(log, data, marker, "append", 3, CHILD)
    assert killed, "the child finished before its third batch"
    db = data / "citewise.db"
    with sqlite3.connect(db) as conn:
        loading = conn.execute("SELECT count(*), sum(chunk_count) FROM documents").fetchone()
        embedded = conn.execute("SELECT c.text FROM chunks c JOIN vectors v ON v.chunk_id = c.id")
        some_text = next(iter(embedded), ("",))[0]
    assert loading[0] == 1 and loading[1] > 0  # a loading version with its batches
    assert table_problems(db) == []
    with Assistant(data_dir=data, embedder="hashing") as a:
        assert a.documents() == []
        assert not a.search("zqstreamword", k=3, mode="keyword").hits
        assert not a.search(some_text[:900] or "entry", k=3, mode="vector").hits
    report = ingest(data, log, SMALL)
    assert report.outcomes[0].status == "ingested"
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM documents").fetchone()[0] == 1
    assert table_problems(db) == []
    with Assistant(data_dir=data, embedder="hashing") as a:
        assert [d.status for d in a.documents()] == ["ready"]
        assert a.search("zqstreamword", k=3, mode="keyword").hits[0].source == "ops.log"


def test_text_over_the_streaming_limit_is_refused_and_other_formats_keep_the_file_limit(
    tmp_path: Path,
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "big.txt").write_text("Words of a large file.\n\n" * 1000, encoding="utf-8")
    (docs / "big.md").write_text("# Big\n\nWords of a large file.\n\n" * 1000, encoding="utf-8")
    (docs / "spaces.log").write_text(" \n\n\t\r\n" * 2000, encoding="utf-8")
    limits = StreamLimits(above_bytes=4096, max_bytes=16 * 1024, piece_bytes=1024)
    job = IngestJob(paths=[docs], collection="default", max_file_bytes=8192, streaming=limits)
    report = run_ingest(job, lambda: SQLiteStore(tmp_path / "citewise.db"), HashingEmbedder)
    reasons = {o.source: (o.status, o.reason) for o in report.outcomes}
    assert reasons["big.txt"] == (
        "failed",
        "too large: the text file is 23.4 KiB, over the limit of 16 KiB for text read as a stream",
    )
    assert reasons["big.md"][0] == "failed" and "over the limit of 8 KiB" in reasons["big.md"][1]
    assert reasons["spaces.log"] == ("failed", "empty: the file contains only whitespace")
    with sqlite3.connect(tmp_path / "citewise.db") as conn:
        assert conn.execute("SELECT count(*) FROM documents").fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM chunks").fetchone()[0] == 0


def test_text_over_a_lowered_file_limit_is_streamed_not_refused(tmp_path: Path) -> None:
    log = tmp_path / "ops.log"
    write_log(log, 60, {30: "zqlimitword"})
    job = IngestJob(paths=[log], collection="default", max_file_bytes=4096)
    assert log.stat().st_size > 4096  # and far below the streaming size
    report = run_ingest(job, lambda: SQLiteStore(tmp_path / "citewise.db"), HashingEmbedder)
    assert [(o.status, o.reason) for o in report.outcomes] == [("ingested", "read as a stream")]


def test_a_streamed_text_file_is_described_as_a_whole_read_is(tmp_path: Path) -> None:
    log = tmp_path / "ops-2021.log"
    write_log(log, 400, {})
    assert log.stat().st_size > SMALL.above_bytes
    ingest(tmp_path / "streamed", log, SMALL)
    ingest(tmp_path / "whole", log, WHOLE)
    fields = []
    for data in ("streamed", "whole"):
        with Assistant(data_dir=tmp_path / data, embedder="hashing") as a:
            (doc,) = a.documents()
            fields.append(doc.fields)
    assert fields[0] == fields[1]
    assert fields[0] is not None and fields[0].years == (2021,) and "operations" in fields[0].names
