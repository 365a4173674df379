"""The stand-in over the real wire format: each mode through the `openai` client and through
citewise's own client, plain and streamed; slow answers, cut streams, a malformed judge; and
the command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

import citewise
from citewise.llm.base import LLMResponseError, LLMTimeoutError, Message, Timeouts
from citewise.llm.openai_compat import OpenAICompatLLM
from citewise.llm.retry import RetryPolicy
from citewise.testing.standin_llm import (
    DECLINE,
    MODES,
    Behaviour,
    Faults,
    Knowledge,
    StandinServer,
)
from testing.standin_support import GPL, LOOKUP_PASSAGES, LOOKUP_Q, answer_messages, write_set

pytestmark = pytest.mark.integration

NO_RETRY = RetryPolicy(retries=0)
LOOKUP = answer_messages(LOOKUP_Q, LOOKUP_PASSAGES)


@pytest.fixture
def check_set(tmp_path: Path) -> Path:
    return write_set(tmp_path / "set.jsonl")


@pytest.fixture
def serve(check_set: Path) -> Iterator[type[StandinServer]]:
    started: list[StandinServer] = []

    class Started(StandinServer):
        def __init__(self, mode: str = "faithful", **kw: object) -> None:
            judge = str(kw.pop("judge", "json"))
            super().__init__(Knowledge.load(check_set), Behaviour(mode, judge), **kw)  # type: ignore[arg-type]
            started.append(self.start())

    yield Started
    for server in started:
        server.close()


def expected(mode: str, text: str) -> None:
    """What each mode's answer to the lookup must look like (gold in passage 2 of 2)."""
    if mode == "abstain":
        assert text == DECLINE
        return
    assert text.startswith(("60 days", "67 days", "Free", "60 days:"))
    if mode == "faithful":
        assert "60 days" in text and text.endswith("[2].")
    elif mode == "invented-value":
        assert "60" not in text and "[2]" in text
    elif mode == "invented-name":
        assert "Free Software Foundation" not in text and "60 days" in text
    elif mode == "wrong-citation":
        assert "60 days" in text and text.endswith("[1].")


def citewise_client(server: StandinServer, **kw: object) -> OpenAICompatLLM:
    kw.setdefault("timeout", 5.0)
    return OpenAICompatLLM("standin", server.base_url, retry=NO_RETRY, **kw)  # type: ignore[arg-type]


def messages() -> list[Message]:
    return [Message(str(m["role"]), str(m["content"])) for m in LOOKUP]  # type: ignore[arg-type]


@pytest.mark.parametrize("mode", MODES)
def test_each_mode_through_the_openai_client(serve: type[StandinServer], mode: str) -> None:
    from openai import OpenAI

    server = serve(mode)
    client = OpenAI(base_url=server.base_url, api_key="unused", max_retries=0)
    plain = client.chat.completions.create(model="standin", messages=LOOKUP)  # type: ignore[arg-type]
    text = plain.choices[0].message.content or ""
    expected(mode, text)
    assert plain.choices[0].finish_reason == "stop" and plain.usage is not None
    chunks = list(client.chat.completions.create(model="standin", messages=LOOKUP, stream=True))  # type: ignore[arg-type]
    streamed = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert streamed == text
    assert chunks[-1].choices[0].finish_reason == "stop"
    assert [m.id for m in client.models.list()] == ["standin"]


@pytest.mark.parametrize("mode", MODES)
def test_each_mode_through_citewises_client(serve: type[StandinServer], mode: str) -> None:
    server = serve(mode)
    with citewise_client(server) as llm:
        llm.health()
        done = llm.complete(messages())
        expected(mode, done.text)
        assert done.finish_reason == "stop"
        assert "".join(llm.stream(messages())) == done.text


def test_the_stream_is_server_sent_events_ending_in_done(serve: type[StandinServer]) -> None:
    server = serve()
    body = json.dumps({"model": "standin", "messages": LOOKUP, "stream": True}).encode()
    request = urllib.request.Request(
        server.base_url + "/chat/completions", body, {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        assert response.headers["Content-Type"] == "text/event-stream"
        assert response.headers["Transfer-Encoding"] == "chunked"
        events = [e for e in response.read().decode().split("\n\n") if e]
    assert all(e.startswith("data: ") for e in events)
    assert events[-1] == "data: [DONE]"
    first, last = json.loads(events[0][6:]), json.loads(events[-2][6:])
    assert first["choices"][0]["delta"] == {"role": "assistant", "content": ""}
    assert first["object"] == "chat.completion.chunk"
    assert last["choices"][0] == {
        "index": 0,
        "delta": {},
        "logprobs": None,
        "finish_reason": "stop",
    }


def test_max_tokens_cuts_the_answer_with_finish_reason_length(
    serve: type[StandinServer],
) -> None:
    with citewise_client(serve()) as llm:
        done = llm.complete(messages(), max_tokens=3)
    assert done.text == "60 days: the" and done.finish_reason == "length"


def test_a_slow_model_times_out_citewises_stream(serve: type[StandinServer]) -> None:
    server = serve(faults=Faults(token_delay=1.0))
    patience = Timeouts(connect=2.0, read=0.3)
    with citewise_client(server, timeout=patience) as llm, pytest.raises(LLMTimeoutError):
        "".join(llm.stream(messages()))


def test_a_slow_model_still_finishes_within_a_patient_timeout(
    serve: type[StandinServer],
) -> None:
    server = serve(faults=Faults(token_delay=0.01))
    with citewise_client(server) as llm:
        assert "".join(llm.stream(messages())).endswith("[2].")


def test_a_cut_stream_is_reported_as_cut(serve: type[StandinServer]) -> None:
    server = serve(faults=Faults(cut_after=4))
    received: list[str] = []
    with citewise_client(server) as llm, pytest.raises(LLMResponseError, match=r"dropped|without"):
        for delta in llm.stream(messages()):
            received.append(delta)
    assert "".join(received) == "60 days: the licence"


def test_a_malformed_judge_reply_reaches_the_client_as_text(serve: type[StandinServer]) -> None:
    from citewise.answer.prompts import judge_prompt, parse_judgement

    server = serve(judge="malformed")
    with citewise_client(server) as llm:
        reply = llm.complete([Message("user", judge_prompt("It is 60 days.", GPL))], json_mode=True)
    assert reply.text.startswith('{"supported":') and parse_judgement(reply.text) is None


def test_the_command_line_serves_until_stopped(check_set: Path, tmp_path: Path) -> None:
    log = tmp_path / "requests.jsonl"
    args = ["--set", str(check_set), "--mode", "invented-value", "--port", "0", "--log", str(log)]
    src = str(Path(citewise.__file__).resolve().parents[1])
    proc = subprocess.Popen(
        [sys.executable, "-m", "citewise.testing.standin_llm", *args],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": src},
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        base_url = line.rsplit(" ", 1)[-1].strip()
        assert base_url.startswith("http://127.0.0.1:") and base_url.endswith("/v1")
        with OpenAICompatLLM("standin", base_url, retry=NO_RETRY, timeout=5.0) as llm:
            text = llm.complete(messages()).text
        record = json.loads(log.read_text().splitlines()[-1])
        assert record["reply"] == text and record["replaced"] == ["60"]
    finally:
        proc.terminate()
        proc.wait(timeout=10)
