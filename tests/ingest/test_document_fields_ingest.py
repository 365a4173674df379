"""Documents are described at ingest, and the question's organisation and year find the
right one among reports that read alike."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from citewise.assistant import Assistant

REPORT = """# {name} annual report

For the fiscal year ended December 31, {year}. {name} Corporation.

## Results

Revenue rose by {growth} percent as demand for industrial adhesives grew in every region.
"""


def _reports(root: Path) -> Path:
    root.mkdir()
    for name, year, growth in [
        ("Acme", 2018, 4), ("Acme", 2019, 6), ("Globex", 2018, 9), ("Globex", 2019, 2),
        ("Initech", 2018, 3), ("Initech", 2019, 5),
    ]:  # fmt: skip
        text = REPORT.format(name=name, year=year, growth=growth)
        (root / f"{name.lower()}-{year}.md").write_text(text, encoding="utf-8")
    return root


def test_ingest_describes_each_document(assistant: Assistant, tmp_path: Path) -> None:
    assistant.ingest([_reports(tmp_path / "reports")])
    fields = {d.source: d.fields for d in assistant.documents()}
    acme = fields["acme-2018.md"]
    assert acme is not None and "acme" in acme.names and acme.years == (2018,)


def test_organisation_and_year_in_the_question_find_their_report(
    assistant: Assistant, tmp_path: Path
) -> None:
    assistant.ingest([_reports(tmp_path / "reports")])
    for question, source in [
        ("How much did Globex revenue grow in FY2019?", "globex-2019.md"),
        ("By how much did revenue rise at Initech in fiscal 2018?", "initech-2018.md"),
    ]:
        assert assistant.search(question, k=3).hits[0].source == source


def test_documents_stored_before_fields_are_described_on_the_next_ingest(
    tmp_path: Path,
) -> None:
    reports = _reports(tmp_path / "reports")
    data = tmp_path / "data"
    with Assistant(data_dir=data, embedder="hashing") as assistant:
        assistant.ingest([reports])
    with sqlite3.connect(data / "citewise.db") as conn:
        conn.execute("UPDATE documents SET fields = NULL")
    with Assistant(data_dir=data, embedder="hashing") as assistant:
        assert all(d.fields is None for d in assistant.documents())
        report = assistant.ingest([reports])
        assert {o.status for o in report.outcomes} == {"unchanged"}
        described = {d.source: d.fields for d in assistant.documents()}
    assert described["globex-2019.md"] is not None
    assert described["globex-2019.md"].years == (2019,)
