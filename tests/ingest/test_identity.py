"""A document's identity: its path from the root its collection records (the first folder
ingested), or its absolute path outside it. Two folders never overwrite each other."""

from __future__ import annotations

from pathlib import Path

from citewise.assistant import Assistant
from citewise.assistant.inside import inside
from support import write_corpus


def _statuses(report: object) -> dict[str, str]:
    return {o.source: o.status for o in report.outcomes}  # type: ignore[attr-defined]


def _teams(tmp_path: Path) -> tuple[Path, Path]:
    a = write_corpus(tmp_path / "team-a", {"notes.md": "# Notes\n\nTeam A meets on Mondays.\n"})
    b = write_corpus(tmp_path / "team-b", {"notes.md": "# Notes\n\nTeam B meets on Fridays.\n"})
    return a, b


def test_two_folders_with_the_same_file_names_keep_both_documents(
    assistant: Assistant, tmp_path: Path
) -> None:
    a, b = _teams(tmp_path)
    assert _statuses(assistant.ingest([a])) == {"notes.md": "ingested"}
    assert _statuses(assistant.ingest([b])) == {(b / "notes.md").as_posix(): "ingested"}
    assert sorted(d.source for d in assistant.documents()) == [
        (b / "notes.md").as_posix(), "notes.md"
    ]  # fmt: skip
    hits = assistant.search("Mondays", k=3, mode="keyword").hits
    assert [h.source for h in hits] == ["notes.md"]


def test_a_file_is_replaced_only_by_itself(assistant: Assistant, tmp_path: Path) -> None:
    a, b = _teams(tmp_path)
    assistant.ingest([a])
    assistant.ingest([b])
    (b / "notes.md").write_text("# Notes\n\nTeam B now meets on Thursdays.\n")
    report = assistant.ingest([a, b])
    assert _statuses(report) == {"notes.md": "unchanged", (b / "notes.md").as_posix(): "replaced"}
    assert [h.source for h in assistant.search("Mondays", k=3, mode="keyword").hits] == ["notes.md"]


def test_a_subfolder_or_a_file_of_the_root_keeps_its_source(
    assistant: Assistant, tmp_path: Path
) -> None:
    root = write_corpus(tmp_path / "docs", {"ops/logs.md": "# Logs\n\nRotate them nightly.\n"})
    assistant.ingest([root])
    assert _statuses(assistant.ingest([root / "ops"])) == {"ops/logs.md": "unchanged"}
    assert _statuses(assistant.ingest([root / "ops" / "logs.md"])) == {"ops/logs.md": "unchanged"}


def test_pruning_one_folder_keeps_the_documents_of_another(
    assistant: Assistant, tmp_path: Path
) -> None:
    a, b = _teams(tmp_path)
    extra = write_corpus(tmp_path / "team-b", {"old.md": "# Old\n\nGone soon.\n"})
    assistant.ingest([a])
    assistant.ingest([b])
    (extra / "old.md").unlink()
    report = assistant.ingest([b], prune=True)
    assert _statuses(report)[(b / "old.md").as_posix()] == "pruned"
    assert sorted(d.source for d in assistant.documents()) == [
        (b / "notes.md").as_posix(), "notes.md"
    ]  # fmt: skip


def test_the_root_is_the_collections_own(assistant: Assistant, tmp_path: Path) -> None:
    a, b = _teams(tmp_path)
    assistant.ingest([a])
    report = assistant.ingest([b], collection="other")
    assert _statuses(report) == {"notes.md": "ingested"}
    assert inside(assistant).store.collection_root("other") == b.as_posix()
