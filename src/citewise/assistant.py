"""The public Python API: `citewise.Assistant`. The CLI and the HTTP API are built on it."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from citewise.config import Settings, load_settings
from citewise.embed.base import Embedder
from citewise.errors import NotFoundError
from citewise.extractive.rules import rule_pack
from citewise.ingest.chunking import ChunkingOptions
from citewise.ingest.originals import forget_original
from citewise.ingest.pipeline import IngestJob, IngestProgress, run_ingest
from citewise.ingest.streamed import StreamLimits
from citewise.retrieve.retriever import HybridRetriever, RetrievalOptions
from citewise.store.base import Store
from citewise.store.registry import open_store
from citewise.types import DocumentInfo, IngestReport, SearchFilter, SearchMode, SearchResult


class Assistant:
    """Documents in, cited answers out.

    >>> a = Assistant(data_dir="~/.citewise")            # doctest: +SKIP
    >>> a.ingest(["~/docs"])                              # doctest: +SKIP
    >>> a.search("how do I rotate the logs", k=5).hits    # doctest: +SKIP
    """

    def __init__(
        self,
        data_dir: str | Path | None = None,
        *,
        collection: str | None = None,
        embedder: str | Embedder | None = None,
        settings: Settings | None = None,
        **overrides: Any,
    ) -> None:
        given_embedder = embedder if isinstance(embedder, str) else None
        self.settings = settings or load_settings(
            data_dir=Path(data_dir).expanduser() if data_dir else None,
            collection=collection,
            embedder=given_embedder,
            **overrides,
        )
        self._embedder: Embedder | None = None if isinstance(embedder, str) else embedder
        self._embedder_lock = threading.Lock()
        self._store: Store | None = None

    # -- wiring ----------------------------------------------------------------------

    @property
    def collection(self) -> str:
        return self.settings.collection

    def embedder(self) -> Embedder:
        with self._embedder_lock:
            if self._embedder is None:
                from citewise.embed import create_embedder

                s = self.settings
                self._embedder = create_embedder(
                    s.embedder,
                    base_url=s.embedder_base_url,
                    api_key=s.embedder_api_key,
                    cache_dir=s.model_cache,
                    threads=s.threads or None,
                )
            return self._embedder

    def retriever(self, *, pool: bool = False) -> HybridRetriever:
        """The hybrid retriever of `search`, or with `pool` the one that gathers the answer
        flow's candidates for reranking (other list depths, see `Settings`)."""
        s = self.settings
        return HybridRetriever(
            self.store,
            self.embedder,
            RetrievalOptions(
                keyword_k=s.pool_keyword_k if pool else s.keyword_k,
                vector_k=s.pool_vector_k if pool else s.vector_k,
                rrf_k=s.rrf_k,
                keyword_weight=s.keyword_weight,
                vector_weight=s.vector_weight,
                max_query_chars=s.max_query_chars,
                max_per_document=s.max_per_document,
                release_notes_factor=s.release_notes_factor,
                entries=rule_pack(s.profile).option_items,
            ),
        )

    def _open_store(self) -> Store:
        return open_store(self.settings.store_url, pool_size=self.settings.store_pool_size)

    @property
    def store(self) -> Store:
        if self._store is None:
            self._store = self._open_store()
        return self._store

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None

    def __enter__(self) -> Assistant:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _filter(
        self, collection: str | None, sources: Sequence[str], category: str | None,
        tags: Sequence[str],
    ) -> SearchFilter:  # fmt: skip
        return SearchFilter(
            collection=collection or self.collection,
            sources=tuple(sources),
            category=category,
            tags=tuple(tags),
        )

    # -- public API ------------------------------------------------------------------

    def ingest(
        self,
        paths: Sequence[str | Path],
        *,
        collection: str | None = None,
        prune: bool = False,
        progress: IngestProgress | None = None,
    ) -> IngestReport:
        s = self.settings
        job = IngestJob(
            paths=[Path(p).expanduser() for p in paths],
            collection=collection or self.collection,
            prune=prune,
            max_file_bytes=s.max_file_bytes,
            max_inflated_bytes=s.max_inflated_bytes,
            ocr=s.ocr,
            chunking=ChunkingOptions(
                parent_chars=s.parent_chars,
                child_tokens=s.child_tokens,
                overlap=s.child_overlap,
                min_child_tokens=s.min_child_tokens,
            ),
            originals_dir=s.originals_dir if s.keep_originals else None,
            streaming=StreamLimits(
                above_bytes=s.stream_text_above_bytes, max_bytes=s.max_text_file_bytes
            ),
        )
        return run_ingest(job, self._open_store, self.embedder, progress)

    def search(
        self,
        query: str,
        *,
        k: int = 10,
        mode: SearchMode = "hybrid",
        collection: str | None = None,
        sources: Sequence[str] = (),
        category: str | None = None,
        tags: Sequence[str] = (),
    ) -> SearchResult:
        flt = self._filter(collection, sources, category, tags)
        return self.retriever().search(query, k=k, mode=mode, flt=flt)

    def documents(self, *, collection: str | None = None) -> list[DocumentInfo]:
        return self.store.list_documents(collection or self.collection)

    def delete(self, source: str, *, collection: str | None = None) -> DocumentInfo:
        coll = collection or self.collection
        doc = self.store.find_document(coll, source)
        if doc is None:
            raise NotFoundError(f"no document '{source}' in collection '{coll}'")
        self.store.delete_document(doc.doc_id)
        staged = self.store.find_staged(coll, source)
        if staged is not None:
            self.store.delete_document(staged.doc_id)
        if not any(
            d.content_hash == doc.content_hash
            for c in self.store.collections()
            for d in self.store.list_documents(c)
        ):  # a deleted document's kept copy goes too, unless another document has its bytes
            forget_original(self.settings.originals_dir, doc.content_hash)
        return doc
