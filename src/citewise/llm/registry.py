"""`create_llm(spec)`: the one place that maps an LLM spec to a backend.

Specs: "ollama:<model>" (e.g. "ollama:llama3.1:8b"; everything after the first ':' is the
model), "openai:<model>" (any OpenAI-compatible server: pass its `base_url`, the API root that
ends in /v1; without one, api.openai.com), and None, "" or "none" for no LLM — the caller then
answers extractively.
"""

from __future__ import annotations

from citewise.errors import ConfigError
from citewise.llm.base import LLM, Timeouts
from citewise.llm.retry import RetryPolicy
from citewise.registry import FactoryRegistry

VALID_SPECS = (
    "ollama:<model>",
    "openai:<model> (any OpenAI-compatible server, via base_url)",
    "none",
)
NO_LLM = frozenset({"", "none"})


def _valid_forms() -> str:
    return "valid forms: " + ", ".join(VALID_SPECS)


def _ollama(
    model: str, base_url: str | None, api_key: str | None, timeout: Timeouts | float | None,
    retry: RetryPolicy | None,
) -> LLM:  # fmt: skip
    from citewise.llm.ollama import DEFAULT_BASE_URL, OllamaLLM

    return OllamaLLM(
        model, base_url or DEFAULT_BASE_URL, api_key=api_key, timeout=timeout, retry=retry
    )


def _openai(
    model: str, base_url: str | None, api_key: str | None, timeout: Timeouts | float | None,
    retry: RetryPolicy | None,
) -> LLM:  # fmt: skip
    from citewise.llm.openai_compat import OpenAICompatLLM

    return OpenAICompatLLM(model, base_url, api_key=api_key, timeout=timeout, retry=retry)


# kind → factory(model, base_url, api_key, timeout, retry)
LLMS = FactoryRegistry[
    [str, str | None, str | None, Timeouts | float | None, RetryPolicy | None], LLM
]("LLM", [("ollama", _ollama), ("openai", _openai)])
LLMS.accept_plugins("citewise.llms")  # factory(model, base_url, api_key, timeout, retry)


def create_llm(
    spec: str | None,
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    timeout: Timeouts | float | None = None,
    retry: RetryPolicy | None = None,
) -> LLM | None:
    """The LLM named by `spec`, or None when no LLM is configured. `base_url` overrides the
    backend's default server; `api_key` is sent as a Bearer token;
    `timeout` is a `Timeouts` or a read timeout in seconds (default: connect 5 s, read 120 s);
    `retry` defaults to 3 retries with backoff 1 s → 10 s and ±25 % jitter."""
    if spec is None or spec.strip().lower() in NO_LLM:
        return None
    kind, sep, model = spec.strip().partition(":")
    kind, model = kind.strip().lower(), model.strip()
    if kind not in LLMS:
        raise ConfigError(f"unknown LLM {spec!r}; {_valid_forms()}")
    if not sep or not model:
        raise ConfigError(f"LLM {spec!r} needs a model name after ':'; {_valid_forms()}")
    return LLMS.create(kind, model, base_url, api_key, timeout, retry)
