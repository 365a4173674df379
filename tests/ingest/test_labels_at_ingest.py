"""Framing blocks are labelled once, at ingest: a signature block or a table of contents is
stored with its label, is left without a vector when the setting says so, and is still
found by keyword search and shown in results."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from citewise.assistant import Assistant
from citewise.testing.label_contract import CLAUSE, CONTENTS, SIGNATURE


def _agreement(folder: Path) -> Path:
    folder.mkdir()
    (folder / "agreement.md").write_text(
        f"# Distribution Agreement\n\n## Table of Contents\n\n{CONTENTS}\n\n"
        f"## Exhibitions\n\n{CLAUSE}\n\n## Signatures\n\n{SIGNATURE}\n"
    )
    return folder


def _rows(data: Path) -> dict[str, bool]:
    """Each stored chunk's label and whether it has a vector."""
    db = sqlite3.connect(data / "citewise.db")
    try:
        rows = db.execute(
            "SELECT c.label, v.chunk_id IS NOT NULL FROM chunks c"
            " LEFT JOIN vectors v ON v.chunk_id = c.id"
        ).fetchall()
    finally:
        db.close()
    return {str(label): bool(vector) for label, vector in rows}


def test_framing_blocks_are_labelled_kept_without_vectors_and_still_found(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    with Assistant(data_dir=data, embedder="hashing") as a:  # the default leaves them out
        a.ingest([_agreement(tmp_path / "docs")])
        assert [d.status for d in a.documents()] == ["ready"]
        hits = a.search("in witness whereof executed", mode="keyword").hits
        hybrid = a.search("in witness whereof executed").hits
    assert _rows(data) == {"contents": False, "": True, "signature": False}
    assert hits[0].section.endswith("Signatures") and "IN WITNESS WHEREOF" in hits[0].text
    shown = {h.chunk_id: h for h in hybrid}  # its keyword rank carries it into hybrid search
    assert shown[hits[0].chunk_id].retriever_ranks == {"keyword": 1}


def test_with_the_setting_empty_framing_blocks_are_labelled_and_embedded(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Assistant(data_dir=data, embedder="hashing", unembedded_blocks="") as a:
        a.ingest([_agreement(tmp_path / "docs")])
    assert _rows(data) == {"contents": True, "": True, "signature": True}
