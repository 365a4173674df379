"""`Ingester`: documents into the store as the settings say (files, folders, web addresses),
and the reindex; one run at a time per ingester (one per assistant), since runs share the
embedder's threads. `services.build` makes it; `Assistant.ingest`/`reindex` and the
in-process job queue call it."""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from citewise.config import Settings, unembedded_kinds
from citewise.embed.base import Embedder
from citewise.errors import InputError
from citewise.ingest.chunking import ChunkingOptions
from citewise.ingest.pipeline import IngestJob, IngestProgress, run_ingest
from citewise.ingest.streamed import StreamLimits
from citewise.ingest.web.fetch import WebLimits
from citewise.ingest.web.pages import fetch_pages, is_web_address, web_limits, with_fetch_outcomes
from citewise.store.base import Store
from citewise.types import IngestReport


class Ingester:
    """`store` is the process's shared store; `open_store` gives a run a store of its own."""

    def __init__(
        self,
        settings: Settings,
        store: Callable[[], Store],
        open_store: Callable[[], Store],
        embedder: Callable[[], Embedder],
    ) -> None:
        self.settings = settings
        self._store = store
        self._open_store = open_store
        self._embedder = embedder
        self._lock = threading.Lock()

    def ingest(
        self,
        paths: Sequence[str | Path],
        *,
        collection: str,
        prune: bool = False,
        progress: IngestProgress | None = None,
        uploads: bool = False,
        web: WebLimits | None = None,
    ) -> IngestReport:
        """Sources are paths from the collection's root (docs/identity.md); with `uploads`,
        each file's own name. http(s) addresses in `paths` are fetched first (`ingest.web`)."""
        urls = [p for p in paths if isinstance(p, str) and is_web_address(p)]
        fetched = None
        if urls:
            fetched = fetch_pages(
                urls, self.settings.web_dir / collection, web or web_limits(self.settings)
            )
        files = [p for p in paths if p not in urls]
        files += [fetched.folder] if fetched and fetched.saved else []
        job = self.job(files, collection, prune=prune, uploads=uploads)
        with self._lock:
            report = run_ingest(job, self._open_store, self._embedder, progress)
        return with_fetch_outcomes(report, fetched)

    def reindex(
        self,
        collections: Sequence[str],
        *,
        progress: IngestProgress | None = None,
        new_embedder: bool = False,
    ) -> IngestReport:
        """Re-parses what other parsing or chunking stored in `collections`, embeds every
        chunk without a vector; vectors of another embedder are made anew only with
        `new_embedder` (else InputError). Resumable: run it again."""
        from citewise.ingest.pipeline import pipeline_key
        from citewise.ingest.reindex import reindex_candidates

        made_by, name = self._store().vectors_embedder(), self._embedder().name
        if made_by is not None and made_by != name:
            if not new_embedder:
                raise InputError(
                    f"the stored vectors were made by embedder '{made_by}', not '{name}':"
                    " configure that one, or pass --new-embedder to embed every chunk again"
                )
            self._store().forget_vectors()

        reports: list[IngestReport] = []
        with self._lock, tempfile.TemporaryDirectory(prefix="citewise-reindex-") as tmp:
            for i, name in enumerate(collections):
                job = self.job([], name)
                found = partial(reindex_candidates, collection=name,
                                key=pipeline_key(job.chunking), originals=job.originals_dir,
                                work=Path(tmp) / str(i))  # fmt: skip
                reports.append(
                    run_ingest(job, self._open_store, self._embedder, progress, found=found)
                )
        return IngestReport(
            outcomes=tuple(o for r in reports for o in r.outcomes),
            seconds=sum(r.seconds for r in reports),
            chunks_embedded=sum(r.chunks_embedded for r in reports),
            pages=sum(r.pages for r in reports),
        )

    def job(
        self,
        paths: Sequence[str | Path],
        collection: str,
        *,
        prune: bool = False,
        uploads: bool = False,
    ) -> IngestJob:
        """The ingest job of `paths` with the settings' limits, chunking and originals."""
        s = self.settings
        return IngestJob(
            paths=[Path(p).expanduser() for p in paths],
            collection=collection,
            prune=prune,
            max_file_bytes=s.max_file_bytes,
            max_inflated_bytes=s.max_inflated_bytes,
            ocr=s.ocr,
            chunking=chunking_for(s),
            originals_dir=s.originals_dir if s.keep_originals else None,
            streaming=StreamLimits(
                above_bytes=s.stream_text_above_bytes, max_bytes=s.max_text_file_bytes
            ),
            uploads=uploads,
        )


def chunking_for(settings: Settings) -> ChunkingOptions:
    """The chunking the settings ask for (the ingest here and the queue's workers alike)."""
    return ChunkingOptions(
        parent_chars=settings.parent_chars,
        child_tokens=settings.child_tokens,
        overlap=settings.child_overlap,
        min_child_tokens=settings.min_child_tokens,
        unembedded=unembedded_kinds(settings.unembedded_blocks),
    )
