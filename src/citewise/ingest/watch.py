"""Keeping a collection in step with a folder: added files are ingested, changed ones
replaced, deleted ones removed. Changes are debounced by watchfiles; each batch runs the
ordinary ingest of the folder (unchanged files are skipped by their content hash), so the
per-file statuses are the ones `citewise ingest` reports."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from watchfiles import Change, DefaultFilter, watch

from citewise.errors import CitewiseError, InputError
from citewise.ingest.parsers import is_supported
from citewise.types import FileOutcome, IngestReport

log = logging.getLogger(__name__)
DEBOUNCE_MS = 800


class Ingests(Protocol):
    """What a watch needs of the assistant (the facade sits above ingest)."""

    def ingest(
        self, paths: Sequence[str | Path], *, collection: str | None = None, prune: bool = False
    ) -> IngestReport: ...


class FolderWatch:
    def __init__(
        self,
        assistant: Ingests,
        folder: Path,
        collection: str,
        *,
        echo: bool = False,
        on_batch: Callable[[list[FileOutcome]], None] | None = None,
        debounce_ms: int = DEBOUNCE_MS,
    ) -> None:
        self.folder = folder.expanduser().resolve()
        if not self.folder.is_dir():
            raise InputError(f"not a folder: {folder}")
        self.assistant = assistant
        self.collection = collection
        self.echo = echo
        self.on_batch = on_batch
        self.debounce_ms = debounce_ms

    def run(self, stop: threading.Event) -> None:
        """Syncs once the watcher is armed, then follows the folder until `stop` is set."""
        synced = False
        for changes in watch(
            self.folder,
            watch_filter=DefaultFilter(),
            debounce=self.debounce_ms,
            stop_event=stop,
            rust_timeout=500,
            yield_on_timeout=True,  # the first (empty) yield says the watcher is armed
        ):
            if synced and not changes:
                continue
            deleted = {Path(p) for kind, p in changes if kind == Change.deleted}
            try:
                self._report(self.sync(deleted))
            except CitewiseError as exc:  # the next change tries again
                if not synced:
                    raise
                log.error("watch %s: %s", self.folder, exc)
            synced = True

    def sync(self, deleted: set[Path] | None = None) -> list[FileOutcome]:
        """Ingests the folder; after deletions, its documents whose files are gone go
        (a source is named by the collection's root, so the ingest prunes: docs/identity.md)."""
        gone = any(not p.exists() and is_supported(p) for p in deleted or ())
        report = self.assistant.ingest([self.folder], collection=self.collection, prune=gone)
        return [o for o in report.outcomes if o.status != "unchanged"]

    def _report(self, outcomes: list[FileOutcome]) -> None:
        for o in outcomes:
            line = f"{o.status:<9} {o.source}" + (f" ({o.reason})" if o.reason else "")
            log.info("watch: %s", line)
            if self.echo:
                print(line, flush=True)
        if self.on_batch is not None:
            self.on_batch(outcomes)
