"""What is specific to Ollama's native API: options, NDJSON details, tags and pull hints."""

from __future__ import annotations

import pytest

from citewise.llm import LLMError, LLMResponseError, Message, OllamaLLM
from llm_clients.scripted_server import json_reply, ndjson_reply
from llm_clients.wire import OllamaWire

pytestmark = pytest.mark.integration

ASK = [Message("user", "Which port does citewise serve on?")]


def test_options_carry_temperature_and_max_tokens_and_json_mode_sets_format(
    ollama: OllamaWire,
) -> None:
    ollama.server.script(ollama.completion("{}"), ollama.completion("plain"))
    llm = ollama.client("llama3.1:8b")
    llm.complete(ASK, temperature=0.3, max_tokens=50, json_mode=True)
    llm.complete(ASK)
    first, second = (r.json for r in ollama.server.requests)
    assert first["model"] == "llama3.1:8b"
    assert first["options"] == {"temperature": 0.3, "num_predict": 50}
    assert first["format"] == "json"
    assert second["options"] == {"temperature": 0.0}
    assert "format" not in second


def test_error_line_mid_stream_raises_with_the_server_s_text(ollama: OllamaWire) -> None:
    ollama.server.script(
        ndjson_reply(
            [
                {"message": {"role": "assistant", "content": "Port "}, "done": False},
                {"error": "model runner has unexpectedly stopped"},
            ]
        )
    )
    got: list[str] = []
    with pytest.raises(LLMError, match="model runner has unexpectedly stopped") as info:
        got.extend(ollama.client().stream(ASK))
    assert got == ["Port "]
    assert ollama.server.url in str(info.value)


def test_error_in_a_200_body_raises_with_the_server_s_text(ollama: OllamaWire) -> None:
    ollama.server.script(json_reply({"error": "invalid options"}))
    with pytest.raises(LLMError, match="invalid options"):
        ollama.client().complete(ASK)


def test_malformed_ndjson_line_raises_response_error(ollama: OllamaWire) -> None:
    ollama.server.script(
        ndjson_reply([{"message": {"content": "ok"}, "done": False}, "{not json\n"])
    )
    with pytest.raises(LLMResponseError, match="malformed JSON"):
        list(ollama.client().stream(ASK))


def test_blank_lines_and_thinking_only_lines_yield_nothing(ollama: OllamaWire) -> None:
    ollama.server.script(
        ndjson_reply(
            [
                "\n",
                {"message": {"role": "assistant", "content": "", "thinking": "hmm"}, "done": False},
                {"message": {"role": "assistant", "content": "8000"}, "done": False},
                {"message": {"role": "assistant", "content": ""}, "done": True},
            ]
        )
    )
    assert list(ollama.client().stream(ASK)) == ["8000"]


@pytest.mark.parametrize(
    ("model", "listed"),
    [
        ("llama3", ["llama3:latest"]),
        ("llama3:latest", ["llama3"]),
        ("qwen2.5:7b", ["nomic-embed-text:latest", "qwen2.5:7b"]),
        ("hf.co/org/model", ["hf.co/org/model:latest"]),
    ],
)
def test_health_treats_a_missing_tag_as_latest(
    ollama: OllamaWire, model: str, listed: list[str]
) -> None:
    ollama.server.script(ollama.models(listed))
    ollama.client(model).health()


@pytest.mark.parametrize(
    ("model", "listed"), [("llama3", ["llama3:8b"]), ("qwen2.5:7b", ["qwen2.5:latest"])]
)
def test_health_does_not_confuse_other_tags(
    ollama: OllamaWire, model: str, listed: list[str]
) -> None:
    ollama.server.script(ollama.models(listed))
    with pytest.raises(LLMError, match="not found"):
        ollama.client(model).health()


def test_missing_model_tells_the_user_to_pull_it(ollama: OllamaWire) -> None:
    ollama.server.script(ollama.models([]))
    with pytest.raises(LLMError) as info:
        ollama.client("llama3").health()
    assert str(info.value).startswith(
        f"model 'llama3' not found at {ollama.server.url}; run `ollama pull llama3`"
    )


def test_chat_404_for_a_missing_model_suggests_pulling_it(ollama: OllamaWire) -> None:
    ollama.server.script(ollama.error(404, "model 'llama3' not found, try pulling it first"))
    with pytest.raises(LLMError, match="run `ollama pull llama3`"):
        ollama.client("llama3").complete(ASK)


@pytest.mark.parametrize("suffix", ["", "/", "/api", "/api/"])
def test_base_url_may_end_in_a_slash_or_api(ollama: OllamaWire, suffix: str) -> None:
    ollama.server.script(ollama.completion("ok"))
    llm = OllamaLLM("m", ollama.server.url + suffix)
    try:
        assert llm.complete(ASK).text == "ok"
    finally:
        llm.close()
    assert ollama.server.requests[0].path == "/api/chat"
    assert llm.name == "ollama:m" and llm.base_url == ollama.server.url
