"""Any server speaking OpenAI's chat completions API: OpenAI, Groq, LM Studio, vLLM, the
llama.cpp server, Ollama's /v1.

**The base URL rule.** `base_url` is the API root that ends in the version, exactly what the
OpenAI SDKs call `base_url`: "https://api.openai.com/v1", "https://api.groq.com/openai/v1",
"http://127.0.0.1:1234/v1" (LM Studio), "http://127.0.0.1:8000/v1" (vLLM),
"http://127.0.0.1:8080/v1" (llama.cpp). Requests go to {base_url}/chat/completions and
{base_url}/models. For convenience a bare server address with no path ("http://127.0.0.1:8080")
gets "/v1" appended, and a URL pasted with "/chat/completions" on the end loses it; any other
path is used as given.

POST {base_url}/chat/completions with {"model", "messages", "temperature", "max_tokens"?,
"stream"} (+ "response_format": {"type": "json_object"} in JSON mode), `Authorization: Bearer
<api_key>` when a key is given. Streaming is server-sent events: `data: {json}` lines with the
text in choices[0].delta.content, ended by `data: [DONE]`; comments (keep-alives), role-only
and empty deltas are skipped. Health: GET {base_url}/models must list the model.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Iterator, Sequence
from typing import Any
from urllib.parse import urlsplit

from citewise.llm._http import HttpLLM, StreamIncomplete, int_or_none, str_or_none, wire_messages
from citewise.llm.base import Completion, LLMError, Message, Timeouts
from citewise.llm.retry import OnRetry, RetryPolicy, Sleep, log_retry

DEFAULT_BASE_URL = "https://api.openai.com/v1"


def normalize_base_url(base_url: str) -> str:
    """Apply the base URL rule (see the module docstring)."""
    base = base_url.strip().rstrip("/").removesuffix("/chat/completions").rstrip("/")
    if urlsplit(base).path in ("", "/"):
        base += "/v1"
    return base


class OpenAICompatLLM(HttpLLM):
    """Implements `LLM`; `name` is "openai:<model>"."""

    kind = "openai"
    label = "OpenAI-compatible server"
    end_marker = "data: [DONE]"

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        *,
        api_key: str | None = None,
        timeout: Timeouts | float | None = None,
        retry: RetryPolicy | None = None,
        sleep: Sleep = time.sleep,
        on_retry: OnRetry = log_retry,
    ) -> None:
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._has_key = bool(api_key)
        super().__init__(
            model,
            normalize_base_url(base_url or DEFAULT_BASE_URL),
            headers=headers,
            timeout=timeout,
            retry=retry,
            sleep=sleep,
            on_retry=on_retry,
        )

    # -- LLM protocol --------------------------------------------------------------------

    chat_path = "/chat/completions"

    def _completion(self, body: dict[str, Any]) -> Completion:
        choices = body.get("choices")
        choice = choices[0] if isinstance(choices, list) and choices else None
        message = choice.get("message") if isinstance(choice, dict) else None
        if not isinstance(choice, dict) or not isinstance(message, dict):
            raise self._malformed('returned no "choices": [{"message": ...}]')
        content = message.get("content")
        if content is not None and not isinstance(content, str):
            raise self._malformed("returned a message whose content is not text")
        raw_usage = body.get("usage")
        usage: dict[str, Any] = raw_usage if isinstance(raw_usage, dict) else {}
        return Completion(
            text=content or "",
            model=str(body.get("model") or self.model),
            prompt_tokens=int_or_none(usage.get("prompt_tokens")),
            completion_tokens=int_or_none(usage.get("completion_tokens")),
            finish_reason=str_or_none(choice.get("finish_reason")),
        )

    def health(self) -> None:
        body = self._get_json("/models")
        data = body.get("data") if isinstance(body, dict) else None
        if not isinstance(data, list):
            raise self._malformed('returned no "data" list from /models')
        ids = [str(m["id"]) for m in data if isinstance(m, dict) and m.get("id")]
        if any(_same_model(self.model, model_id) for model_id in ids):
            return
        listed = ", ".join(ids[:20]) + (", …" if len(ids) > 20 else "") if ids else "none"
        raise LLMError(
            f"model {self.model!r} is not offered by {self.where} "
            f"(GET {self.base_url}/models lists: {listed})"
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
        payload: dict[str, Any] = {
            "model": self.model,
            "messages": wire_messages(messages),
            "temperature": temperature,
            "stream": stream,
        }
        if max_tokens is not None:
            payload["max_tokens"] = max_tokens
        if json_mode:
            payload["response_format"] = {"type": "json_object"}
        return payload

    def _deltas(self, lines: Iterator[str]) -> Iterator[str]:
        data: list[str] = []
        finished = False
        for line in lines:
            if line:
                field, _, value = line.partition(":")
                if field == "data":  # comments (":…"), event:, id: and retry: are skipped
                    data.append(value.removeprefix(" "))
                continue
            if data:
                done, finished = yield from self._event("\n".join(data), finished)
                data = []
                if done:
                    return
        if data:
            done, finished = yield from self._event("\n".join(data), finished)
            if done:
                return
        if not finished:  # a few servers omit [DONE] but do send a finish_reason
            raise StreamIncomplete

    def _event(self, data: str, finished: bool) -> Generator[str, None, tuple[bool, bool]]:
        """Yields the delta in one event; returns (saw [DONE], saw a finish_reason)."""
        if data.strip() == "[DONE]":
            return True, finished
        obj = self._decode_line(data)
        if obj.get("error"):
            raise self._reported(obj["error"])
        choices = obj.get("choices")
        choice = choices[0] if isinstance(choices, list) and choices else None
        if isinstance(choice, dict):
            delta = choice.get("delta")
            content = delta.get("content") if isinstance(delta, dict) else None
            if isinstance(content, str) and content:
                yield content
            finished = finished or bool(choice.get("finish_reason"))
        return False, finished

    def _hint(self, status: int, detail: str) -> str:
        if status == 404 and "model" not in detail.lower():
            return f" (is {self.base_url} the API root that ends in /v1?)"
        if status in (401, 403) and not self._has_key:
            return " (no API key was given)"
        return ""


def _same_model(model: str, model_id: str) -> bool:
    """Exact id, or the file name a llama.cpp server lists ("models/x.gguf" for "x")."""
    if model == model_id:
        return True
    base = model_id.replace("\\", "/").rsplit("/", 1)[-1]
    return model in (base, base.removesuffix(".gguf"))
