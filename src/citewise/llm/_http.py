"""Shared machinery of the HTTP chat clients: one httpx client with connect/read timeouts,
retries as `RetryPolicy` says, streaming that is retried only before its first delta, and
errors whose messages name the endpoint, the model and what went wrong.

Subclasses set `kind` and `label`, build payloads, and turn response lines into deltas.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, ClassVar, Self

import httpx

from citewise.llm.base import (
    Completion,
    LLMConnectionError,
    LLMError,
    LLMRateLimitError,
    LLMResponseError,
    LLMTimeoutError,
    Message,
    Timeouts,
)
from citewise.llm.retry import (
    OnRetry,
    RetryPolicy,
    Sleep,
    call_with_retries,
    log_retry,
    parse_retry_after,
    stream_with_retries,
)

EventParser = Callable[[Iterator[str]], Iterator[str]]


class StreamIncomplete(Exception):
    """Raised by an event parser when the body ended before the wire format's end marker."""


class HttpLLM:
    kind: ClassVar[str] = "http"
    label: ClassVar[str] = "LLM server"
    end_marker: ClassVar[str] = "end marker"

    def __init__(
        self,
        model: str,
        base_url: str,
        *,
        headers: Mapping[str, str] | None = None,
        timeout: Timeouts | float | None = None,
        retry: RetryPolicy | None = None,
        sleep: Sleep = time.sleep,
        on_retry: OnRetry = log_retry,
    ) -> None:
        if not model.strip():
            raise ValueError(f"{self.label}: model name is empty")
        self.model = model
        self.name = f"{self.kind}:{model}"
        self.base_url = base_url
        self.timeouts = Timeouts.of(timeout)
        self.retry = retry if retry is not None else RetryPolicy()
        self._sleep = sleep
        self._on_retry = on_retry
        t = self.timeouts
        self._client = httpx.Client(
            timeout=httpx.Timeout(connect=t.connect, read=t.read, write=t.read, pool=t.connect),
            headers=dict(headers or {}),
        )

    # -- LLM protocol: the request is the same everywhere, the wire format differs ---------

    chat_path: ClassVar[str] = "/chat"

    def complete(
        self,
        messages: Sequence[Message],
        *,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        json_mode: bool = False,
    ) -> Completion:
        payload = self._payload(messages, temperature, max_tokens, json_mode, stream=False)
        body = self._post_json(self.chat_path, payload)
        if body.get("error"):
            raise self._reported(body["error"])
        return self._completion(body)

    def stream(
        self,
        messages: Sequence[Message],
        *,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        json_mode: bool = False,
    ) -> Iterator[str]:
        payload = self._payload(messages, temperature, max_tokens, json_mode, stream=True)
        return self._stream(self.chat_path, payload, self._deltas)

    def _payload(
        self,
        messages: Sequence[Message],
        temperature: float,
        max_tokens: int | None,
        json_mode: bool,
        *,
        stream: bool,
    ) -> dict[str, Any]:
        raise NotImplementedError

    def _completion(self, body: dict[str, Any]) -> Completion:
        """The answer in a successful non-streaming response body."""
        raise NotImplementedError

    def _deltas(self, lines: Iterator[str]) -> Iterator[str]:
        """Text deltas from the streamed response's lines."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.model!r}, base_url={self.base_url!r})"

    @property
    def where(self) -> str:
        return f"{self.label} at {self.base_url}"

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- requests ------------------------------------------------------------------------

    def _get_json(self, path: str) -> Any:
        """One GET, no retries (used by health checks, which should answer fast)."""
        return self._decode(self._request("GET", path, None), path)

    def _post_json(self, path: str, payload: dict[str, Any]) -> dict[str, Any]:
        response = call_with_retries(
            lambda: self._request("POST", path, payload),
            self.retry,
            sleep=self._sleep,
            on_retry=self._on_retry,
        )
        body = self._decode(response, path)
        if not isinstance(body, dict):
            raise self._malformed(f"expected a JSON object from {path}, got {type(body).__name__}")
        return body

    def _stream(self, path: str, payload: dict[str, Any], events: EventParser) -> Iterator[str]:
        return stream_with_retries(
            lambda: self._stream_once(path, payload, events),
            self.retry,
            sleep=self._sleep,
            on_retry=self._on_retry,
        )

    def _request(self, method: str, path: str, payload: dict[str, Any] | None) -> httpx.Response:
        try:
            response = self._client.request(method, self.base_url + path, json=payload)
        except httpx.TransportError as exc:
            raise self._transport_error(exc) from exc
        if response.status_code >= 300:
            raise self._status_error(response)
        return response

    def _stream_once(
        self, path: str, payload: dict[str, Any], events: EventParser
    ) -> Iterator[str]:
        received: list[str] = []
        try:
            with self._client.stream("POST", self.base_url + path, json=payload) as response:
                if response.status_code >= 300:
                    response.read()
                    raise self._status_error(response)
                for delta in events(response.iter_lines()):
                    received.append(delta)
                    yield delta
        except httpx.TransportError as exc:
            if not received:
                raise self._transport_error(exc) from exc
            n, tail = _summary(received)
            if isinstance(exc, httpx.TimeoutException):
                raise LLMTimeoutError(
                    f"{self.where} went silent for {self.timeouts.read:g} s after {n} chars of "
                    f"streamed output for model {self.model!r} (last received: {tail!r})"
                ) from exc
            raise LLMResponseError(
                f"connection to {self.where} dropped after {n} chars of streamed output for "
                f"model {self.model!r} (last received: {tail!r}; {_describe(exc)})"
            ) from exc
        except StreamIncomplete as exc:
            n, tail = _summary(received)
            raise LLMResponseError(
                f"{self.where} ended the stream without {self.end_marker} after {n} chars for "
                f"model {self.model!r}" + (f" (last received: {tail!r})" if n else ""),
                retryable=not received,
            ) from exc

    # -- errors --------------------------------------------------------------------------

    def _hint(self, status: int, detail: str) -> str:
        """Subclasses add advice for statuses they understand (e.g. a model to pull)."""
        return ""

    def _status_error(self, response: httpx.Response) -> LLMError:
        status = response.status_code
        detail = _error_detail(response)
        message = f"{self.where} returned {status} for model {self.model!r}: {detail}"
        cls = LLMRateLimitError if status == 429 else LLMError
        return cls(
            message + self._hint(status, detail),
            status_code=status,
            retry_after=parse_retry_after(response.headers),
        )

    def _transport_error(self, exc: httpx.TransportError) -> LLMError:
        model = f"model {self.model!r}"
        if isinstance(exc, httpx.ConnectTimeout | httpx.PoolTimeout):
            return LLMTimeoutError(
                f"could not connect to {self.where} within {self.timeouts.connect:g} s "
                f"(connect timeout) for {model}",
                retryable=True,
            )
        if isinstance(exc, httpx.TimeoutException):
            return LLMTimeoutError(
                f"{self.where} did not answer within {self.timeouts.read:g} s (read timeout) "
                f"for {model}"
            )
        if isinstance(exc, httpx.UnsupportedProtocol):
            return LLMError(f"bad base URL for {self.where} ({model}): {exc}", retryable=False)
        if isinstance(exc, httpx.ConnectError):
            return LLMConnectionError(
                f"cannot connect to {self.where} for {model} ({_describe(exc)}); "
                "is the server running?"
            )
        return LLMConnectionError(
            f"{self.where} closed the connection before answering for {model} ({_describe(exc)})"
        )

    def _malformed(self, what: str, detail: str = "") -> LLMResponseError:
        return LLMResponseError(
            f"{self.where} {what} for model {self.model!r}" + (f": {detail}" if detail else "")
        )

    def _decode(self, response: httpx.Response, path: str) -> Any:
        try:
            return response.json()
        except ValueError as exc:
            preview = response.text[:120]
            raise self._malformed(
                f"returned malformed JSON from {path}", f"{exc}; body starts {preview!r}"
            ) from exc

    def _decode_line(self, line: str) -> dict[str, Any]:
        try:
            obj = json.loads(line)
        except ValueError as exc:
            raise self._malformed("streamed malformed JSON", f"{exc}; {line[:120]!r}") from exc
        if not isinstance(obj, dict):
            raise self._malformed("streamed JSON that is not an object", repr(line[:120]))
        return obj

    def _reported(self, error: Any) -> LLMError:
        """An error the server put inside a 200 body or a stream."""
        return LLMError(
            f"{self.where} reported an error for model {self.model!r}: {_error_text(error)}"
        )


def wire_messages(messages: Sequence[Message]) -> list[dict[str, str]]:
    if not messages:
        raise ValueError("an LLM request needs at least one message")
    return [{"role": m.role, "content": m.content} for m in messages]


def _error_text(error: Any) -> str:
    if isinstance(error, dict):
        message = error.get("message")
        return str(message) if message else json.dumps(error)
    return str(error)


def _error_detail(response: httpx.Response) -> str:
    """The server's own words: {"error": "..."} (Ollama), {"error": {"message": ...}}
    (OpenAI), {"detail": ...} (FastAPI servers), else the start of the body."""
    text = response.text.strip()
    try:
        body = json.loads(text)
    except ValueError:
        body = None
    if isinstance(body, dict):
        for key in ("error", "detail", "message"):
            if body.get(key):
                return _error_text(body[key])
    return text[:300] or response.reason_phrase or "(empty body)"


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _summary(received: list[str]) -> tuple[int, str]:
    text = "".join(received)
    return len(text), (text if len(text) <= 60 else "…" + text[-60:])


def int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None
