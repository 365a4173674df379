"""The query's embedding computed on a helper thread while the sources before the vector
source (keyword search) run: the model and the store both release the GIL, so the two
overlap instead of adding up."""

from __future__ import annotations

import time
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace

from citewise.retrieve.sources.base import CandidateSource, SourceQuery
from citewise.retrieve.sources.vector import VectorSource
from citewise.types.vectors import Vectors

# one for the process: embedding is short, and the embedder bounds its own sessions
_HELPERS = ThreadPoolExecutor(2, thread_name_prefix="citewise-embed-ahead")


class EmbeddingAhead:
    def __init__(self, query: SourceQuery, source: VectorSource) -> None:
        self._query = query
        self._future: Future[tuple[Vectors, float]] = _HELPERS.submit(self._embed, source)

    def _embed(self, source: VectorSource) -> tuple[Vectors, float]:
        started = time.perf_counter()
        vector = source.embedder_factory().embed_query(self._query.text)
        return vector, (time.perf_counter() - started) * 1000.0

    def wait(self) -> SourceQuery:
        """The query carrying its embedding (its time recorded as the "embed_query" span)."""
        vector, ms = self._future.result()
        self._query.trace.add("embed_query", ms)
        return replace(self._query, vector=vector)


def embedding_ahead(
    query: SourceQuery, sources: Sequence[CandidateSource]
) -> EmbeddingAhead | None:
    """Starts embedding the query when a vector source will need it after another source."""
    if query.vector is not None or len(sources) < 2 or isinstance(sources[0], VectorSource):
        return None
    vector = next((s for s in sources if isinstance(s, VectorSource)), None)
    return None if vector is None else EmbeddingAhead(query, vector)
