"""`citewise watch`: the collection follows the folder (added, changed, deleted)."""

from __future__ import annotations

import threading
from pathlib import Path

from citewise.assistant import Assistant
from citewise.ingest.watch import FolderWatch
from citewise.types import FileOutcome


def test_added_changed_and_deleted_files_are_ingested_replaced_and_removed(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "docs"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.md").write_text("# A\n\nThe first file talks about apples and pears.\n")
    services = Assistant(data_dir=tmp_path / "data", embedder="hashing")
    batches: list[list[FileOutcome]] = []
    got = threading.Event()

    def on_batch(outcomes: list[FileOutcome]) -> None:
        batches.append(outcomes)
        got.set()

    stop = threading.Event()
    watch = FolderWatch(services, folder, "default", on_batch=on_batch, debounce_ms=200)
    thread = threading.Thread(target=watch.run, args=(stop,), daemon=True)
    thread.start()

    def next_batch(action: object) -> set[tuple[str, str]]:
        if callable(action):  # the first batch is the initial sync, maybe already reported
            got.clear()
            action()
        assert got.wait(30), "no batch after the change"
        return {(o.source, o.status) for o in batches[-1]}

    try:
        assert next_batch(None) == {("a.md", "ingested")}
        b, a = folder / "sub" / "b.txt", folder / "a.md"
        added = next_batch(lambda: b.write_text("B\n\nThe second file is about boats.\n"))
        assert added == {("sub/b.txt", "ingested")}
        changed = next_batch(lambda: a.write_text("# A\n\nThe first file is about cherries.\n"))
        assert changed == {("a.md", "replaced")}
        assert next_batch(b.unlink) == {("sub/b.txt", "pruned")}
        assert [d.source for d in services.documents(collection="default")] == ["a.md"]
    finally:
        stop.set()
        thread.join(timeout=10)
        services.close()
    assert not thread.is_alive()


def test_a_file_saved_just_after_the_first_sync_is_not_missed(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nThe first file talks about apples.\n")
    late = folder / "late.txt"
    seen: list[str] = []
    got_late = threading.Event()

    def on_batch(outcomes: list[FileOutcome]) -> None:
        if not seen:  # the initial sync's report: a file saved right now must still come in
            late.write_text("Late\n\nThe late file is about lanterns.\n")
        seen.extend(o.source for o in outcomes)
        if "late.txt" in seen:
            got_late.set()

    services = Assistant(data_dir=tmp_path / "data", embedder="hashing")
    stop = threading.Event()
    watch = FolderWatch(services, folder, "default", on_batch=on_batch, debounce_ms=200)
    thread = threading.Thread(target=watch.run, args=(stop,), daemon=True)
    thread.start()
    try:
        assert got_late.wait(20), f"late.txt never ingested (batches: {seen})"
        assert seen[0] == "a.md"
    finally:
        stop.set()
        thread.join(timeout=10)
        services.close()
    assert not thread.is_alive()
