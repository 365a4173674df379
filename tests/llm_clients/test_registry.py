"""create_llm: specs to backends, and the errors for specs it does not know."""

from __future__ import annotations

import pytest

from citewise.errors import ConfigError
from citewise.llm import LLM, OllamaLLM, OpenAICompatLLM, RetryPolicy, Timeouts, create_llm


@pytest.mark.parametrize("spec", [None, "", "  ", "none", "None"])
def test_no_llm_specs_give_none(spec: str | None) -> None:
    assert create_llm(spec) is None


def test_ollama_spec_keeps_the_model_tag() -> None:
    llm = create_llm("ollama:llama3.1:8b", timeout=30.0)
    assert isinstance(llm, OllamaLLM) and isinstance(llm, LLM)
    assert llm.name == "ollama:llama3.1:8b" and llm.model == "llama3.1:8b"
    assert llm.base_url == "http://127.0.0.1:11434"
    assert llm.timeouts == Timeouts(connect=5.0, read=30.0)
    llm.close()


def test_openai_spec_uses_the_given_server_key_and_policy() -> None:
    policy = RetryPolicy(retries=1)
    llm = create_llm("openai:qwen2.5", base_url="http://127.0.0.1:8080", api_key="k", retry=policy)
    assert isinstance(llm, OpenAICompatLLM)
    assert llm.base_url == "http://127.0.0.1:8080/v1" and llm.retry is policy
    assert llm.timeouts == Timeouts()  # connect 5 s, read 120 s
    llm.close()


@pytest.mark.parametrize("spec", ["anthropic:claude", "llama3", "gpt-4o"])
def test_unknown_spec_lists_the_valid_forms(spec: str) -> None:
    with pytest.raises(ConfigError) as info:
        create_llm(spec)
    message = str(info.value)
    assert repr(spec) in message
    assert "ollama:<model>" in message and "openai:<model>" in message and "none" in message


@pytest.mark.parametrize("spec", ["ollama:", "openai:  ", "ollama"])
def test_spec_without_a_model_is_a_config_error(spec: str) -> None:
    with pytest.raises(ConfigError, match="model name"):
        create_llm(spec)
