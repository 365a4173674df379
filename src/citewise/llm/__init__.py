"""Generation backends behind one protocol (`LLM`), created from a spec string.

>>> from citewise.llm import Message, create_llm
>>> llm = create_llm("ollama:llama3.1:8b")            # or "openai:gpt-4o-mini", or None
>>> llm.complete([Message("user", "Say hi")]).text     # doctest: +SKIP
>>> for delta in llm.stream([Message("user", "Say hi")]):  # doctest: +SKIP
...     print(delta, end="")

Clients: `OllamaLLM` (native /api/chat, NDJSON streaming) and `OpenAICompatLLM` (/chat/
completions with SSE streaming: OpenAI, Groq, LM Studio, vLLM, llama.cpp). Both retry 429, 5xx
and connection failures as `RetryPolicy` says and raise `LLMError` subclasses naming the
endpoint and the model. With no LLM configured (`create_llm(None)` is None) the answer layer
answers extractively.
"""

from __future__ import annotations

from citewise.llm.base import (
    LLM,
    Completion,
    LLMConnectionError,
    LLMError,
    LLMRateLimitError,
    LLMResponseError,
    LLMTimeoutError,
    Message,
    Role,
    Timeouts,
)
from citewise.llm.ollama import OllamaLLM
from citewise.llm.openai_compat import OpenAICompatLLM
from citewise.llm.registry import VALID_SPECS, create_llm
from citewise.llm.retry import RetryPolicy, call_with_retries, stream_with_retries

__all__ = [
    "LLM",
    "VALID_SPECS",
    "Completion",
    "LLMConnectionError",
    "LLMError",
    "LLMRateLimitError",
    "LLMResponseError",
    "LLMTimeoutError",
    "Message",
    "OllamaLLM",
    "OpenAICompatLLM",
    "RetryPolicy",
    "Role",
    "Timeouts",
    "call_with_retries",
    "create_llm",
    "stream_with_retries",
]
