"""The chat routes over a real server: one answer, the SSE stream, history."""

from __future__ import annotations

import json

import httpx
import pytest
from httpx_sse import connect_sse

pytestmark = pytest.mark.integration  # a real uvicorn on 127.0.0.1


def test_chat_answers_with_citations_from_the_documents(client: httpx.Client) -> None:
    r = client.post("/chat/", json={"message": "What is the default request timeout?"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert "30 seconds" in body["answer"] and "[1]" in body["answer"]
    assert body["citations"] and body["citations"][0]["source"] == "reference/limits.txt"
    assert body["confidence"] in ("high", "medium", "low")
    assert set(body) >= {"answer", "intent", "citations", "sources", "grounded", "session_id"}


def test_stream_sends_status_tokens_sources_citations_then_done(client: httpx.Client) -> None:
    events: list[tuple[str, dict[str, object]]] = []
    with connect_sse(
        client, "POST", "/chat/stream",
        json={"message": "What is the default request timeout?", "session_id": "order-1",
              "create_session": True},
    ) as source:  # fmt: skip
        assert source.response.headers["cache-control"] == "no-cache"
        assert source.response.headers["x-accel-buffering"] == "no"
        for sse in source.iter_sse():
            events.append((sse.event, json.loads(sse.data)))
    names = [name for name, _ in events]
    assert names[0] == "status"
    assert names[-1] == "done"
    assert "token" in names and "sources" in names and "citation" in names
    assert names.index("sources") < names.index("done")
    tokens = "".join(str(d["text"]) for n, d in events if n == "token")
    done = events[-1][1]
    assert tokens == done["answer"]  # deltas add up to the answer, none is cumulative
    assert done["session_id"] == "order-1"


def test_history_keeps_the_turns_and_delete_forgets_them(client: httpx.Client) -> None:
    client.post(
        "/chat/",
        json={"message": "When do tokens expire?", "session_id": "h-1", "create_session": True},
    )
    r = client.get("/chat/history/h-1")
    assert r.status_code == 200
    turns = r.json()["turns"]
    assert [t["question"] for t in turns] == ["When do tokens expire?"]
    assert client.delete("/chat/history/h-1").status_code == 204
    assert client.get("/chat/history/h-1").status_code == 404


def test_an_empty_message_is_a_422_and_an_overlong_one_a_400(client: httpx.Client) -> None:
    assert client.post("/chat/", json={"message": ""}).status_code == 422
    r = client.post("/chat/", json={"message": "why " * 2000})
    assert r.status_code == 400
    assert r.json()["type"] == "InputError"


def test_a_bad_session_id_is_refused_before_streaming(client: httpx.Client) -> None:
    r = client.post("/chat/stream", json={"message": "hello there", "session_id": "../x"})
    assert r.status_code == 400
