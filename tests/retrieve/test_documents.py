"""Naming a document in a phrase (pure)."""

from __future__ import annotations

from citewise.retrieve.documents import match_document
from citewise.types import DocumentInfo


def _doc(source: str, title: str) -> DocumentInfo:
    return DocumentInfo(0, "default", source, title, "html", "", (), "h", 0.0, 1, "ready",
                        None, 1, 0.0)  # fmt: skip


DOCS = [
    _doc("c-api/module.html", "Module Objects"),
    _doc("library/zoneinfo.html", "zoneinfo — IANA time zone support"),
    _doc("howto/sorting.html", "Sorting HOW TO"),
    _doc("library/graphlib.html", "graphlib — Functionality to operate with graph-like structures"),
    _doc("guides/backup.md", "Backups"),
]


def test_rare_words_decide_over_common_ones() -> None:
    found = match_document("the documentation page for the zoneinfo module", DOCS)
    assert found is not None and found.source == "library/zoneinfo.html"


def test_title_and_file_name_both_count() -> None:
    assert match_document("Sorting HOW TO", DOCS).source == "howto/sorting.html"  # type: ignore[union-attr]
    assert match_document("the graphlib page", DOCS).source == "library/graphlib.html"  # type: ignore[union-attr]


def test_no_document_named_returns_none() -> None:
    assert match_document("the quarterly revenue report", DOCS) is None
    assert match_document("the", DOCS) is None
