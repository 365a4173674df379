"""Ollama embeddings: POST {base_url}/api/embed with {"model", "input": [...]}, answered by
{"embeddings": [[...], ...]}. Ollama truncates over-long inputs to the model's context itself;
set `max_tokens` to the model's window so the chunker keeps children within it."""

from __future__ import annotations

from typing import Any

from citewise.embed.http.client import HttpEmbedder

DEFAULT_BASE_URL = "http://127.0.0.1:11434"


class OllamaEmbedder(HttpEmbedder):
    """Implements `Embedder`; `name` is "ollama:<model>"."""

    kind = "ollama"

    def __init__(
        self,
        model: str,
        base_url: str = DEFAULT_BASE_URL,
        *,
        max_tokens: int = 512,
        batch_size: int = 64,
        timeout: float = 120.0,
    ) -> None:
        super().__init__(
            model,
            base_url,
            path="/api/embed",
            max_tokens=max_tokens,
            batch_size=batch_size,
            timeout=timeout,
        )

    def _payload(self, texts: list[str]) -> dict[str, Any]:
        return {"model": self.model, "input": texts}

    def _parse(self, body: Any) -> list[list[float]]:
        return [[float(x) for x in row] for row in body["embeddings"]]
