"""Ollama's native chat API.

POST {base_url}/api/chat with {"model", "messages", "stream", "options": {"temperature",
"num_predict"}} (+ "format": "json" in JSON mode). Without streaming the answer is one object
{"message": {"role", "content"}, "done": true, "done_reason", "prompt_eval_count",
"eval_count"}; with streaming it is NDJSON, one {"message": {"content": delta}, "done": false}
per line and a final {"done": true, ...}. An {"error": "..."} body or line becomes an
`LLMError` carrying that text. Health: GET {base_url}/api/tags must list the model ("llama3"
and "llama3:latest" are the same model). `api_key`, if given, is sent as a Bearer token (for an
Ollama behind an authenticating proxy); plain Ollama needs none.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from typing import Any

from citewise.llm._http import HttpLLM, StreamIncomplete, int_or_none, str_or_none, wire_messages
from citewise.llm.base import Completion, LLMError, LLMResponseError, Message, Timeouts
from citewise.llm.retry import OnRetry, RetryPolicy, Sleep, log_retry

DEFAULT_BASE_URL = "http://127.0.0.1:11434"


class OllamaLLM(HttpLLM):
    """Implements `LLM`; `name` is "ollama:<model>"."""

    kind = "ollama"
    label = "Ollama"
    end_marker = '"done": true'

    def __init__(
        self,
        model: str,
        base_url: str = DEFAULT_BASE_URL,
        *,
        api_key: str | None = None,
        timeout: Timeouts | float | None = None,
        retry: RetryPolicy | None = None,
        sleep: Sleep = time.sleep,
        on_retry: OnRetry = log_retry,
    ) -> None:
        base = base_url.strip().rstrip("/").removesuffix("/api")
        super().__init__(
            model,
            base,
            headers={"Authorization": f"Bearer {api_key}"} if api_key else None,
            timeout=timeout,
            retry=retry,
            sleep=sleep,
            on_retry=on_retry,
        )

    # -- LLM protocol --------------------------------------------------------------------

    chat_path = "/api/chat"

    def _completion(self, body: dict[str, Any]) -> Completion:
        message = body.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, str):
            raise self._malformed('returned no "message": {"content": ...} from /api/chat')
        return Completion(
            text=content,
            model=str(body.get("model") or self.model),
            prompt_tokens=int_or_none(body.get("prompt_eval_count")),
            completion_tokens=int_or_none(body.get("eval_count")),
            finish_reason=str_or_none(body.get("done_reason")),
        )

    def health(self) -> None:
        body = self._get_json("/api/tags")
        models = body.get("models") if isinstance(body, dict) else None
        if not isinstance(models, list):
            raise self._malformed('returned no "models" list from /api/tags')
        names = [str(m.get("name") or m.get("model")) for m in models if isinstance(m, dict)]
        wanted = _canonical(self.model)
        if any(_canonical(name) == wanted for name in names):
            return
        available = f" (available: {', '.join(names)})" if names else " (no models installed)"
        raise LLMError(
            f"model {self.model!r} not found at {self.base_url}; "
            f"run `ollama pull {self.model}`{available}"
        )

    # -- wire format ---------------------------------------------------------------------

    def _payload(
        self,
        messages: Sequence[Message],
        temperature: float,
        max_tokens: int | None,
        json_mode: bool,
        *,
        stream: bool,
    ) -> dict[str, Any]:
        options: dict[str, Any] = {"temperature": temperature}
        if max_tokens is not None:
            options["num_predict"] = max_tokens
        payload: dict[str, Any] = {
            "model": self.model,
            "messages": wire_messages(messages),
            "stream": stream,
            "options": options,
        }
        if json_mode:
            payload["format"] = "json"
        return payload

    def _deltas(self, lines: Iterator[str]) -> Iterator[str]:
        for line in lines:
            if not line.strip():
                continue
            obj = self._decode_line(line)
            if obj.get("error"):
                raise self._reported(obj["error"])
            message = obj.get("message")
            if message is not None and not isinstance(message, dict):
                raise LLMResponseError(
                    f'{self.where} streamed a line whose "message" is not an object for '
                    f"model {self.model!r}: {line[:120]!r}"
                )
            delta = (message or {}).get("content")
            if isinstance(delta, str) and delta:
                yield delta
            if obj.get("done"):
                return
        raise StreamIncomplete

    def _hint(self, status: int, detail: str) -> str:
        if status == 404 and "not found" in detail.lower():
            return f"; run `ollama pull {self.model}`"
        return ""


def _canonical(name: str) -> str:
    """Ollama's default tag is ":latest"; a tag is a ':' after the last '/'."""
    return name if ":" in name.rsplit("/", 1)[-1] else f"{name}:latest"
