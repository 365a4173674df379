"""OpenAI-compatible embeddings (OpenAI, vLLM, LM Studio, llama.cpp server, …): POST
{base_url}/v1/embeddings with {"model", "input": [...]}, answered by
{"data": [{"index": i, "embedding": [...]}, ...]}. Sends `Authorization: Bearer <key>` when
a key is given. `base_url` may end in "/v1" or not."""

from __future__ import annotations

from typing import Any

from citewise.embed.http.client import HttpEmbedder

DEFAULT_BASE_URL = "https://api.openai.com"


class OpenAIEmbedder(HttpEmbedder):
    """Implements `Embedder`; `name` is "openai:<model>"."""

    kind = "openai"

    def __init__(
        self,
        model: str,
        base_url: str = DEFAULT_BASE_URL,
        *,
        api_key: str | None = None,
        max_tokens: int = 512,
        batch_size: int = 64,
        timeout: float = 60.0,
    ) -> None:
        base = base_url.rstrip("/")
        base = base.removesuffix("/v1")
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        super().__init__(
            model,
            base,
            path="/v1/embeddings",
            headers=headers,
            max_tokens=max_tokens,
            batch_size=batch_size,
            timeout=timeout,
        )

    def _payload(self, texts: list[str]) -> dict[str, Any]:
        return {"model": self.model, "input": texts}

    def _parse(self, body: Any) -> list[list[float]]:
        items = sorted(body["data"], key=lambda item: int(item.get("index", 0)))
        return [[float(x) for x in item["embedding"]] for item in items]
