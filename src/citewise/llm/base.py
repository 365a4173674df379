"""The LLM protocol every generation backend implements, its value types and its errors.

A backend turns a list of chat messages into text, either all at once (`complete`) or as a
stream of text deltas (`stream`). `json_mode=True` asks the server to constrain the output to
one JSON value (Ollama `"format": "json"`, OpenAI `"response_format": {"type":
"json_object"}`); callers still parse and validate what comes back.

Every failure is an `LLMError` (a `BackendError`) whose message names the endpoint URL and the
model, so the CLI and the API can show it as is.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, Self, runtime_checkable

from citewise.errors import BackendError

Role = Literal["system", "user", "assistant"]
ROLES: frozenset[str] = frozenset({"system", "user", "assistant"})

DEFAULT_CONNECT_TIMEOUT = 5.0
DEFAULT_READ_TIMEOUT = 120.0


@dataclass(frozen=True, slots=True)
class Message:
    role: Role
    content: str

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise ValueError(f"message role must be one of {sorted(ROLES)}, not {self.role!r}")


@dataclass(frozen=True, slots=True)
class Completion:
    """One finished answer. Token counts and finish reason are None when the server does not
    report them."""

    text: str
    model: str
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    finish_reason: str | None = None


@dataclass(frozen=True, slots=True)
class Timeouts:
    """`connect`: seconds to open the connection. `read`: the longest silence (seconds between
    two received bytes) tolerated while waiting for, or streaming, a response. A long answer
    that keeps streaming never times out; a server that goes quiet does."""

    connect: float = DEFAULT_CONNECT_TIMEOUT
    read: float = DEFAULT_READ_TIMEOUT

    @classmethod
    def of(cls, value: Timeouts | float | None) -> Timeouts:
        """None → the defaults; a number → that read timeout (connect: the smaller of it and
        the default connect timeout)."""
        if value is None:
            return cls()
        if isinstance(value, Timeouts):
            return value
        seconds = float(value)
        if seconds <= 0:
            raise ValueError(f"timeout must be positive, got {value!r}")
        return cls(connect=min(seconds, DEFAULT_CONNECT_TIMEOUT), read=seconds)


@runtime_checkable
class LLM(Protocol):
    """A chat model behind some server. `name` is the spec it was created from, e.g.
    "ollama:llama3.1:8b" or "openai:gpt-4o-mini"."""

    name: str

    def complete(
        self,
        messages: Sequence[Message],
        *,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        json_mode: bool = False,
    ) -> Completion:
        """The whole answer. Transient failures are retried before anything is returned."""
        ...

    def stream(
        self,
        messages: Sequence[Message],
        *,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        json_mode: bool = False,
    ) -> Iterator[str]:
        """Text deltas in order; their concatenation is the answer. Lazy: the request goes out
        on the first `next()`. Retried only while nothing has been yielded; a failure after
        that raises `LLMResponseError` naming how much was received."""
        ...

    def health(self) -> None:
        """Returns if the server answers and offers the model; raises `LLMError` otherwise."""
        ...


class LLMError(BackendError):
    """An LLM backend failed. `status_code` is the HTTP status when there was one;
    `retryable` says whether trying again may help; `retry_after` is the wait (seconds) the
    server asked for, if any."""

    retryable_by_default = False

    def __init__(
        self,
        message: str,
        *,
        status_code: int | None = None,
        retryable: bool | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status_code = status_code
        self.retry_after = retry_after
        if retryable is None:
            retryable = (
                is_retryable_status(status_code)
                if status_code is not None
                else self.retryable_by_default
            )
        self.retryable = retryable

    def __str__(self) -> str:
        return self.message

    def gave_up(self, retries: int) -> Self:
        """A copy whose message says that `retries` retries were made before giving up."""
        clone = copy.copy(self)
        clone.message = f"{self.message} (gave up after {retries} {_plural(retries, 'retry')})"
        clone.args = (clone.message,)
        return clone


class LLMConnectionError(LLMError):
    """The server could not be reached, or closed the connection before answering."""

    retryable_by_default = True


class LLMTimeoutError(LLMError):
    """The server did not connect, or went silent, within the configured timeout."""


class LLMRateLimitError(LLMError):
    """HTTP 429: the server asks us to slow down (retried, honouring Retry-After)."""

    retryable_by_default = True


class LLMResponseError(LLMError):
    """The server answered, but not with what the wire format promises: malformed JSON, an
    unexpected shape, or a stream that broke off before its end marker."""


def is_retryable_status(status_code: int) -> bool:
    """429 and 5xx are worth retrying; any other status is the client's fault or final."""
    return status_code == 429 or 500 <= status_code <= 599


def _plural(n: int, word: str) -> str:
    return word if n == 1 else ("retries" if word == "retry" else word + "s")
