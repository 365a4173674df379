"""The LLM contract, run against both HTTP clients over a real socket (the `wire` fixture is
parametrised over the Ollama and OpenAI-compatible formats)."""

from __future__ import annotations

import socket
import time

import pytest

from citewise.errors import BackendError
from citewise.llm import (
    LLM,
    LLMConnectionError,
    LLMError,
    LLMRateLimitError,
    LLMResponseError,
    LLMTimeoutError,
    Message,
    Timeouts,
)
from llm_clients.scripted_server import Reply, text_reply
from llm_clients.wire import Wire

pytestmark = pytest.mark.integration

ASK = [Message("system", "Answer from the passages."), Message("user", "What is citewise?")]


def test_complete_returns_text_usage_and_sends_the_messages(wire: Wire) -> None:
    wire.server.script(wire.completion("A document QA tool [1].", model="m"))
    llm = wire.client("m")
    assert isinstance(llm, LLM)
    result = llm.complete(ASK, temperature=0.2, max_tokens=64)
    assert result.text == "A document QA tool [1]."
    assert (result.model, result.prompt_tokens, result.completion_tokens) == ("m", 12, 5)
    assert result.finish_reason == "stop"
    (request,) = wire.server.requests
    assert (request.method, request.path) == ("POST", wire.chat_path)
    assert request.json["model"] == "m"
    assert request.json["stream"] is False
    assert request.json["messages"] == [
        {"role": "system", "content": "Answer from the passages."},
        {"role": "user", "content": "What is citewise?"},
    ]
    assert not wire.json_mode_sent(request.json)


def test_stream_yields_the_deltas_in_order(wire: Wire) -> None:
    deltas = ["Cite", "wise ", "answers", " from documents", " [1]."]
    wire.server.script(wire.stream(deltas))
    assert list(wire.client().stream(ASK)) == deltas
    assert wire.server.requests[0].json["stream"] is True


def test_stream_is_lazy_until_iterated(wire: Wire) -> None:
    wire.server.script(wire.stream(["x"]))
    chunks = wire.client().stream(ASK)
    assert wire.server.requests == []
    assert list(chunks) == ["x"]


@pytest.mark.parametrize("streaming", [False, True], ids=["complete", "stream"])
def test_json_mode_sends_the_format_field(wire: Wire, streaming: bool) -> None:
    llm = wire.client()
    if streaming:
        wire.server.script(wire.stream(['{"supported":', " true}"]))
        assert "".join(llm.stream(ASK, json_mode=True)) == '{"supported": true}'
    else:
        wire.server.script(wire.completion('{"supported": true}'))
        assert llm.complete(ASK, json_mode=True).text == '{"supported": true}'
    assert wire.json_mode_sent(wire.server.requests[0].json)


def test_429_with_retry_after_waits_that_long_then_succeeds(wire: Wire) -> None:
    wire.server.script(
        wire.error(429, "slow down", headers={"Retry-After": "2"}), wire.completion("ok")
    )
    assert wire.client().complete(ASK).text == "ok"
    assert wire.sleeps == [2.0]
    assert len(wire.server.requests) == 2


def test_429_retry_after_is_capped_at_ten_seconds(wire: Wire) -> None:
    wire.server.script(
        wire.error(429, "slow down", headers={"Retry-After": "120"}), wire.completion("ok")
    )
    assert wire.client().complete(ASK).text == "ok"
    assert wire.sleeps == [10.0]


def test_two_500s_then_success_takes_two_retries_with_backoff(wire: Wire) -> None:
    wire.server.script(wire.error(500, "boom"), wire.error(502, "bad gateway"))
    wire.server.script(wire.completion("finally"))
    assert wire.client().complete(ASK).text == "finally"
    assert wire.sleeps == [1.0, 2.0]
    assert [attempt for attempt, _, _ in wire.retries] == [1, 2]
    assert len(wire.server.requests) == 3


def test_persistent_500_fails_after_three_retries_naming_endpoint_and_model(wire: Wire) -> None:
    wire.server.script(*[wire.error(500, "model runner crashed") for _ in range(4)])
    llm = wire.client("my-model")
    with pytest.raises(LLMError) as info:
        llm.complete(ASK)
    message = str(info.value)
    assert wire.server.url in message and "'my-model'" in message
    assert "500" in message and "model runner crashed" in message
    assert "gave up after 3 retries" in message
    assert info.value.status_code == 500
    assert isinstance(info.value, BackendError)
    assert wire.sleeps == [1.0, 2.0, 4.0]
    assert len(wire.server.requests) == 4


def test_rate_limit_that_never_lifts_raises_rate_limit_error(wire: Wire) -> None:
    wire.server.script(*[wire.error(429, "quota", headers={"Retry-After": "1"})] * 4)
    with pytest.raises(LLMRateLimitError, match="429"):
        wire.client().complete(ASK)
    assert wire.sleeps == [1.0, 1.0, 1.0]


@pytest.mark.parametrize("status", [400, 401, 404])
def test_client_errors_are_not_retried(wire: Wire, status: int) -> None:
    wire.server.script(wire.error(status, f"refused with {status}"))
    with pytest.raises(LLMError) as info:
        wire.client("x").complete(ASK)
    assert info.value.status_code == status
    assert f"returned {status} for model 'x': refused with {status}" in str(info.value)
    assert len(wire.server.requests) == 1 and wire.sleeps == []


def test_response_slower_than_the_read_timeout_raises_timeout_error(wire: Wire) -> None:
    wire.server.script(Reply(delay=5.0))
    llm = wire.client("slow-model", timeout=Timeouts(connect=1.0, read=0.2))
    started = time.monotonic()
    with pytest.raises(LLMTimeoutError) as info:
        llm.complete(ASK)
    assert time.monotonic() - started < 2.0
    assert "0.2 s" in str(info.value) and "'slow-model'" in str(info.value)
    assert wire.server.url in str(info.value)
    assert len(wire.server.requests) == 1  # a read timeout is not retried


def test_stream_that_goes_silent_raises_timeout_error_naming_what_arrived(wire: Wire) -> None:
    reply = wire.stream(["early ", "words", " late"])
    reply.pauses = {2: 5.0}  # then silence, far longer than the read timeout
    wire.server.script(reply)
    got: list[str] = []
    with pytest.raises(LLMTimeoutError) as info:
        got.extend(wire.client(timeout=Timeouts(connect=1.0, read=0.3)).stream(ASK))
    assert got == ["early ", "words"]
    assert "silent for 0.3 s after 11 chars" in str(info.value)
    assert len(wire.server.requests) == 1


def test_malformed_json_body_raises_response_error(wire: Wire) -> None:
    wire.server.script(text_reply("<html>not json", headers={"Content-Type": "application/json"}))
    with pytest.raises(LLMResponseError, match="malformed JSON") as info:
        wire.client().complete(ASK)
    assert "<html>not json" in str(info.value)
    assert len(wire.server.requests) == 1


def test_dropped_connection_mid_stream_names_what_was_received(wire: Wire) -> None:
    reply = wire.stream(["The answer ", "is 42", " because"], drop_after=2)
    wire.server.script(reply)
    got: list[str] = []
    with pytest.raises(LLMResponseError) as info:
        got.extend(wire.client().stream(ASK))
    assert got == ["The answer ", "is 42"]
    message = str(info.value)
    assert "dropped after 16 chars" in message and "The answer is 42" in message
    assert wire.server.url in message
    assert len(wire.server.requests) == 1  # output was already yielded: no retry


def test_stream_failing_before_any_output_is_retried(wire: Wire) -> None:
    wire.server.script(wire.error(503, "loading model"), wire.stream(["fresh"]))
    assert list(wire.client().stream(ASK)) == ["fresh"]
    assert wire.sleeps == [1.0]


def test_stream_ending_without_its_end_marker_is_an_error(wire: Wire) -> None:
    wire.server.script(wire.stream(["half an ans", "wer"], finish=False))
    with pytest.raises(LLMResponseError) as info:
        list(wire.client().stream(ASK))
    assert f"without {wire.stream_end} after 14 chars" in str(info.value)
    assert len(wire.server.requests) == 1


def test_unreachable_server_raises_connection_error_after_retries(wire: Wire) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    wire.server.url = f"http://127.0.0.1:{port}"
    with pytest.raises(LLMConnectionError, match="is the server running") as info:
        wire.client().complete(ASK)
    assert f"127.0.0.1:{port}" in str(info.value)
    assert wire.sleeps == [1.0, 2.0, 4.0]


def test_health_on_an_unreachable_server_fails_at_once(wire: Wire) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    wire.server.url = f"http://127.0.0.1:{port}"
    with pytest.raises(LLMConnectionError, match=f"127.0.0.1:{port}"):
        wire.client().health()
    assert wire.sleeps == []


def test_api_key_is_sent_as_a_bearer_token(wire: Wire) -> None:
    wire.server.script(wire.completion("ok"), wire.models(["m"]))
    llm = wire.client(api_key="secret")
    llm.complete(ASK)
    llm.health()
    assert [r.headers["authorization"] for r in wire.server.requests] == ["Bearer secret"] * 2


def test_messages_with_unknown_roles_or_none_at_all_are_refused(wire: Wire) -> None:
    with pytest.raises(ValueError, match="role"):
        Message("tool", "x")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at least one message"):
        wire.client().complete([])
    assert wire.server.requests == []


def test_health_passes_when_the_model_is_listed(wire: Wire) -> None:
    wire.server.script(wire.models(["other", "m"]))
    wire.client("m").health()
    (request,) = wire.server.requests
    assert (request.method, request.path) == ("GET", wire.health_path)


def test_health_fails_when_the_model_is_missing(wire: Wire) -> None:
    wire.server.script(wire.models(["other"]))
    with pytest.raises(LLMError, match="'absent'") as info:
        wire.client("absent").health()
    assert "other" in str(info.value)
