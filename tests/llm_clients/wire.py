"""The two wire formats as test adapters, so one contract test runs against both clients.

Each adapter builds clients pointed at the scripted server (with a recorded, instant sleep and
a jitter-free retry policy: delays are exactly 1, 2, 4 s) and scripts replies in its format.
"""

from __future__ import annotations

from typing import Any

from citewise.llm import OllamaLLM, OpenAICompatLLM, RetryPolicy
from citewise.llm._http import HttpLLM
from llm_clients.scripted_server import Reply, ScriptedServer, json_reply, ndjson_reply, sse_reply

NO_JITTER = RetryPolicy(rand=lambda: 0.5)


class Wire:
    kind = ""
    chat_path = ""
    health_path = ""
    stream_end = ""  # how the server's stream ends, as the error message names it

    def __init__(self, server: ScriptedServer) -> None:
        self.server = server
        self.sleeps: list[float] = []
        self.retries: list[tuple[int, float, BaseException]] = []
        self._clients: list[HttpLLM] = []

    def client(self, model: str = "m", **options: Any) -> HttpLLM:
        options.setdefault("retry", NO_JITTER)
        options.setdefault("timeout", 5.0)
        client = self._make(model, sleep=self.sleeps.append, on_retry=self._record_retry, **options)
        self._clients.append(client)
        return client

    def close(self) -> None:
        for client in self._clients:
            client.close()

    def _record_retry(self, attempt: int, delay: float, error: BaseException) -> None:
        self.retries.append((attempt, delay, error))

    def _make(self, model: str, **options: Any) -> HttpLLM:
        raise NotImplementedError

    # -- replies in this wire format -----------------------------------------------------

    def completion(self, text: str, model: str = "m") -> Reply:
        raise NotImplementedError

    def stream(self, deltas: list[str], *, finish: bool = True, **options: Any) -> Reply:
        """`finish=False`: the body ends cleanly but without the end marker."""
        raise NotImplementedError

    def error(self, status: int, message: str, headers: dict[str, str] | None = None) -> Reply:
        raise NotImplementedError

    def models(self, names: list[str]) -> Reply:
        raise NotImplementedError

    def json_mode_sent(self, payload: dict[str, Any]) -> bool:
        raise NotImplementedError


class OllamaWire(Wire):
    kind = "ollama"
    chat_path = "/api/chat"
    health_path = "/api/tags"
    stream_end = '"done": true'

    def _make(self, model: str, **options: Any) -> HttpLLM:
        return OllamaLLM(model, self.server.url, **options)

    def completion(self, text: str, model: str = "m") -> Reply:
        return json_reply(
            {
                "model": model,
                "message": {"role": "assistant", "content": text},
                "done": True,
                "done_reason": "stop",
                "prompt_eval_count": 12,
                "eval_count": 5,
            }
        )

    def stream(self, deltas: list[str], *, finish: bool = True, **options: Any) -> Reply:
        lines: list[Any] = [
            {"model": "m", "message": {"role": "assistant", "content": d}, "done": False}
            for d in deltas
        ]
        if finish:
            lines.append({"model": "m", "message": {"content": ""}, "done": True, "eval_count": 3})
        return ndjson_reply(lines, **options)

    def error(self, status: int, message: str, headers: dict[str, str] | None = None) -> Reply:
        return json_reply({"error": message}, status, headers)

    def models(self, names: list[str]) -> Reply:
        return json_reply({"models": [{"name": n, "model": n, "size": 1} for n in names]})

    def json_mode_sent(self, payload: dict[str, Any]) -> bool:
        return payload.get("format") == "json"


class OpenAIWire(Wire):
    kind = "openai"
    chat_path = "/v1/chat/completions"
    health_path = "/v1/models"
    stream_end = "data: [DONE]"

    def _make(self, model: str, **options: Any) -> HttpLLM:
        return OpenAICompatLLM(model, self.server.url + "/v1", **options)

    def completion(self, text: str, model: str = "m") -> Reply:
        return json_reply(
            {
                "id": "chatcmpl-1",
                "object": "chat.completion",
                "model": model,
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": text},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {"prompt_tokens": 12, "completion_tokens": 5, "total_tokens": 17},
            }
        )

    def stream(self, deltas: list[str], *, finish: bool = True, **options: Any) -> Reply:
        events: list[Any] = [_chunk({"role": "assistant", "content": d}) for d in deltas]
        return sse_reply(events, done=finish, **options)

    def error(self, status: int, message: str, headers: dict[str, str] | None = None) -> Reply:
        return json_reply({"error": {"message": message, "type": "error"}}, status, headers)

    def models(self, names: list[str]) -> Reply:
        return json_reply({"object": "list", "data": [{"id": n, "object": "model"} for n in names]})

    def json_mode_sent(self, payload: dict[str, Any]) -> bool:
        return payload.get("response_format") == {"type": "json_object"}


def _chunk(delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "model": "m",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
    }


def openai_chunk(content: str | None, finish_reason: str | None = None) -> dict[str, Any]:
    """One SSE chunk object; `content=None` sends a delta without text."""
    return _chunk({} if content is None else {"content": content}, finish_reason)


WIRES = {"ollama": OllamaWire, "openai": OpenAIWire}
