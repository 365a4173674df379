"""Shared machinery of the HTTP embedding backends (Ollama, OpenAI-compatible).

Texts go out in batches; transient failures (connection errors, timeouts, 429 and 5xx) are
retried twice with backoff; anything else becomes an `EmbedderError` naming the endpoint and
the model. The dimension is learnt from the first response (reading `dim` before any embedding
sends one short probe text).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import httpx

from citewise.embed._util import batched, empty, estimate_tokens, first_row, l2_normalize
from citewise.embed.base import Vectors
from citewise.errors import EmbedderError

_RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
_RETRIES = 2
_BACKOFF_S = 0.5


class HttpEmbedder:
    """Base class: subclasses set `kind`, build the payload and parse the response."""

    kind = "http"

    def __init__(
        self,
        model: str,
        base_url: str,
        *,
        path: str,
        headers: dict[str, str] | None = None,
        max_tokens: int = 512,
        batch_size: int = 64,
        timeout: float = 60.0,
    ) -> None:
        self.model = model
        self.name = f"{self.kind}:{model}"
        self.max_tokens = int(max_tokens)
        self.endpoint = base_url.rstrip("/") + path
        self._batch_size = max(1, int(batch_size))
        self._client = httpx.Client(timeout=httpx.Timeout(timeout), headers=headers or {})
        self._dim: int | None = None

    # -- protocol ----------------------------------------------------------------------

    @property
    def dim(self) -> int:
        if self._dim is None:
            self.embed_documents(["dimension probe"])
        assert self._dim is not None
        return self._dim

    @dim.setter
    def dim(self, value: int) -> None:
        self._dim = value

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return empty(self._dim) if self._dim is not None else empty(self.dim)
        parts = [self._embed_batch(list(batch)) for batch in batched(texts, self._batch_size)]
        return l2_normalize(parts[0] if len(parts) == 1 else _concat(parts))

    def embed_query(self, text: str) -> Vectors:
        return first_row(self.embed_documents([text]))

    def count_tokens(self, text: str) -> int:
        return estimate_tokens(text)

    def close(self) -> None:
        self._client.close()

    # -- subclass hooks ------------------------------------------------------------------

    def _payload(self, texts: list[str]) -> dict[str, Any]:
        raise NotImplementedError

    def _parse(self, body: Any) -> list[list[float]]:
        raise NotImplementedError

    # -- internals -----------------------------------------------------------------------

    def _fail(self, what: str) -> EmbedderError:
        return EmbedderError(
            f"{self.kind} embeddings at {self.endpoint} (model {self.model!r}): {what}"
        )

    def _embed_batch(self, texts: list[str]) -> list[list[float]]:
        # Empty strings are rejected by some servers; a space embeds as "nothing" everywhere.
        body = self._post(self._payload([t if t.strip() else " " for t in texts]))
        try:
            rows = self._parse(body)
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise self._fail(f"unexpected response shape ({exc!r})") from exc
        if len(rows) != len(texts):
            raise self._fail(f"sent {len(texts)} texts, got {len(rows)} embeddings")
        dims = {len(r) for r in rows}
        if len(dims) != 1 or 0 in dims:
            raise self._fail(f"embeddings of inconsistent or zero length {sorted(dims)}")
        (dim,) = dims
        if self._dim is None:
            self._dim = dim
        elif dim != self._dim:
            raise self._fail(f"dimension changed from {self._dim} to {dim}")
        return rows

    def _post(self, payload: dict[str, Any]) -> Any:
        for attempt in range(_RETRIES + 1):
            last = attempt == _RETRIES
            try:
                response = self._client.post(self.endpoint, json=payload)
            except httpx.HTTPError as exc:
                if last:
                    raise self._fail(f"request failed: {type(exc).__name__}: {exc}") from exc
            else:
                if response.status_code < 300:
                    try:
                        return response.json()
                    except ValueError as exc:
                        raise self._fail("response is not JSON") from exc
                if last or response.status_code not in _RETRY_STATUSES:
                    detail = response.text[:300].strip()
                    raise self._fail(f"HTTP {response.status_code}: {detail}")
            time.sleep(_BACKOFF_S * (2**attempt))
        raise AssertionError("unreachable")


def _concat(parts: list[list[list[float]]]) -> list[list[float]]:
    return [row for part in parts for row in part]
