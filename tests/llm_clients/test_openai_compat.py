"""What is specific to OpenAI-compatible servers: auth, the base URL rule, SSE details."""

from __future__ import annotations

import pytest

from citewise.llm import LLMError, LLMResponseError, Message, OpenAICompatLLM
from citewise.llm.openai_compat import normalize_base_url
from llm_clients.scripted_server import json_reply, sse_reply
from llm_clients.wire import OpenAIWire, openai_chunk

pytestmark = pytest.mark.integration

ASK = [Message("user", "Which port does citewise serve on?")]


@pytest.mark.parametrize(
    ("given", "used"),
    [
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080/v1"),
        ("http://127.0.0.1:8080/", "http://127.0.0.1:8080/v1"),
        ("http://127.0.0.1:8080/v1", "http://127.0.0.1:8080/v1"),
        ("http://127.0.0.1:8080/v1/", "http://127.0.0.1:8080/v1"),
        ("http://127.0.0.1:1234/v1/chat/completions", "http://127.0.0.1:1234/v1"),
        ("https://api.groq.com/openai/v1", "https://api.groq.com/openai/v1"),
        (
            "https://generativelanguage.googleapis.com/v1beta/openai/",
            "https://generativelanguage.googleapis.com/v1beta/openai",
        ),
    ],
)
def test_base_url_rule(given: str, used: str) -> None:
    assert normalize_base_url(given) == used


def test_default_base_url_is_openai() -> None:
    llm = OpenAICompatLLM("gpt-4o-mini")
    llm.close()
    assert llm.base_url == "https://api.openai.com/v1" and llm.name == "openai:gpt-4o-mini"


def test_bare_server_address_posts_to_v1_chat_completions(openai: OpenAIWire) -> None:
    openai.server.script(openai.completion("ok"))
    llm = OpenAICompatLLM("m", openai.server.url)
    try:
        assert llm.complete(ASK).text == "ok"
    finally:
        llm.close()
    assert openai.server.requests[0].path == "/v1/chat/completions"


def test_api_key_is_sent_as_bearer_token_only_when_given(openai: OpenAIWire) -> None:
    openai.server.script(openai.completion("a"), openai.completion("b"))
    openai.client(api_key="sk-test").complete(ASK)
    openai.client().complete(ASK)
    with_key, without_key = openai.server.requests
    assert with_key.headers["authorization"] == "Bearer sk-test"
    assert "authorization" not in without_key.headers


def test_payload_fields(openai: OpenAIWire) -> None:
    openai.server.script(openai.completion("{}"), openai.completion("plain"))
    llm = openai.client("gpt-4o-mini")
    llm.complete(ASK, temperature=0.3, max_tokens=50, json_mode=True)
    llm.complete(ASK)
    first, second = (r.json for r in openai.server.requests)
    assert first["temperature"] == 0.3 and first["max_tokens"] == 50
    assert first["response_format"] == {"type": "json_object"}
    assert second["temperature"] == 0.0
    assert "max_tokens" not in second and "response_format" not in second


def test_401_names_the_endpoint_and_model(openai: OpenAIWire) -> None:
    openai.server.script(openai.error(401, "invalid api key"))
    with pytest.raises(LLMError) as info:
        openai.client("x", api_key="sk-wrong").complete(ASK)
    assert str(info.value) == (
        f"OpenAI-compatible server at {openai.server.url}/v1 returned 401 for model 'x': "
        "invalid api key"
    )


def test_401_without_a_key_says_none_was_given(openai: OpenAIWire) -> None:
    openai.server.script(openai.error(401, "missing bearer token"))
    with pytest.raises(LLMError, match=r"no API key was given"):
        openai.client().complete(ASK)


def test_sse_comments_keepalives_and_empty_deltas_are_skipped(openai: OpenAIWire) -> None:
    events = [
        ": keep-alive\n\n",
        "event: message\nid: 1\n" + "data: " + '{"choices":[{"delta":{"role":"assistant"}}]}\n\n',
        openai_chunk("Port"),
        openai_chunk(""),
        openai_chunk(None),
        'data: {"choices":[{"delta":{"content":null}}]}\r\n\r\n',
        'data:{"choices":[{"delta":{"content":" 8000"}}]}\n\n',
        ":\n\n",
        openai_chunk(".", finish_reason="stop"),
        'data: {"choices":[],"usage":{"prompt_tokens":9,"completion_tokens":3}}\n\n',
    ]
    openai.server.script(sse_reply(events))
    assert list(openai.client().stream(ASK)) == ["Port", " 8000", "."]


def test_stream_with_finish_reason_but_no_done_is_accepted(openai: OpenAIWire) -> None:
    events = [openai_chunk("All"), openai_chunk(" done", finish_reason="stop")]
    openai.server.script(sse_reply(events, done=False))
    assert list(openai.client().stream(ASK)) == ["All", " done"]


def test_error_event_mid_stream_raises_with_the_server_s_text(openai: OpenAIWire) -> None:
    events = [openai_chunk("Par"), {"error": {"message": "context length exceeded"}}]
    openai.server.script(sse_reply(events))
    got: list[str] = []
    with pytest.raises(LLMError, match="context length exceeded"):
        got.extend(openai.client().stream(ASK))
    assert got == ["Par"]


def test_malformed_sse_data_raises_response_error(openai: OpenAIWire) -> None:
    openai.server.script(sse_reply(["data: {broken\n\n"]))
    with pytest.raises(LLMResponseError, match="malformed JSON"):
        list(openai.client().stream(ASK))


def test_null_content_and_missing_usage_give_empty_text_and_no_counts(
    openai: OpenAIWire,
) -> None:
    body = {"choices": [{"message": {"role": "assistant", "content": None}}]}
    openai.server.script(json_reply(body))
    result = openai.client("m").complete(ASK)
    assert result.text == "" and result.model == "m"
    assert (result.prompt_tokens, result.completion_tokens, result.finish_reason) == (
        None,
        None,
        None,
    )


def test_body_without_choices_is_a_response_error(openai: OpenAIWire) -> None:
    openai.server.script(json_reply({"object": "list", "data": []}))
    with pytest.raises(LLMResponseError, match="choices"):
        openai.client().complete(ASK)


def test_health_accepts_the_file_name_a_llama_cpp_server_lists(openai: OpenAIWire) -> None:
    openai.server.script(openai.models(["/models/qwen2.5-7b-instruct-q4_k_m.gguf"]))
    openai.client("qwen2.5-7b-instruct-q4_k_m").health()


def test_health_reports_an_auth_failure_with_its_status(openai: OpenAIWire) -> None:
    openai.server.script(openai.error(401, "invalid api key"))
    with pytest.raises(LLMError, match="returned 401") as info:
        openai.client(api_key="bad").health()
    assert info.value.status_code == 401
    assert openai.server.requests[0].headers["authorization"] == "Bearer bad"
