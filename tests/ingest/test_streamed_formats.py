"""Workbooks and CSV files over the streaming size, and every mailbox, are read as a stream
and stored in batches, with the chunks of a whole read."""

from __future__ import annotations

from pathlib import Path

import xlsxwriter

from citewise.embed.hashing import HashingEmbedder
from citewise.ingest.pipeline import IngestJob, run_ingest
from citewise.ingest.streamed import StreamLimits
from citewise.store.sqlite.store import SQLiteStore
from citewise.types import IngestReport
from format_files import mbox, message
from ingest.test_streamed_text import stored_chunks

SMALL = StreamLimits(above_bytes=16 * 1024, piece_bytes=4096, batch_chunks=32)
WHOLE = StreamLimits(above_bytes=2**40)


def ingest(data: Path, path: Path, limits: StreamLimits) -> IngestReport:
    job = IngestJob(paths=[path], collection="default", streaming=limits)
    return run_ingest(job, lambda: SQLiteStore(data / "citewise.db"), HashingEmbedder)


def _workbook(path: Path) -> Path:
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Berths")
    sheet.write_row(0, 0, ["Berth", "Vessel", "Length"])
    for row in range(1, 3001):
        sheet.write_row(row, 0, [f"B-{row:04d}", f"Vessel {row}", row % 300])
    book.close()
    return path


def test_a_large_workbook_and_csv_are_streamed_with_the_chunks_of_a_whole_read(
    tmp_path: Path,
) -> None:
    csv = tmp_path / "berths.csv"
    csv.write_text(
        "Berth,Vessel,Length\n" + "".join(f"B-{i},Vessel {i},{i % 300}\n" for i in range(3000))
    )
    for path in (_workbook(tmp_path / "berths.xlsx"), csv):
        assert path.stat().st_size > SMALL.above_bytes
        streamed = ingest(tmp_path / f"s-{path.suffix}", path, SMALL)
        whole = ingest(tmp_path / f"w-{path.suffix}", path, WHOLE)
        assert [(o.status, o.reason) for o in streamed.outcomes] == [
            ("ingested", "read as a stream")
        ]
        assert whole.outcomes[0].reason == ""
        assert stored_chunks(tmp_path / f"s-{path.suffix}") == stored_chunks(
            tmp_path / f"w-{path.suffix}"
        )


def test_a_mailbox_is_always_read_as_a_stream(tmp_path: Path) -> None:
    path = mbox(tmp_path / "tiny.mbox", [message("Tea", "Tea is at four.")])
    report = ingest(tmp_path / "data", path, WHOLE)
    assert [(o.status, o.reason) for o in report.outcomes] == [("ingested", "read as a stream")]
    (row,) = [r for r in stored_chunks(tmp_path / "data") if "Tea is at four." in str(r[1])]
    assert row[3] == "Tea > Ada Quill, Mon, 02 Mar 2026 09:15:00 +0000"
