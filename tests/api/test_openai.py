"""The OpenAI-compatible face, driven by the official `openai` client."""

from __future__ import annotations

import httpx
import openai
import pytest

pytestmark = pytest.mark.integration  # a real uvicorn on 127.0.0.1


@pytest.fixture
def oai(base_url: str, api_key: str) -> openai.OpenAI:
    """The client as a deployment uses it: an API key as the bearer token."""
    return openai.OpenAI(base_url=f"{base_url}/v1", api_key=api_key, max_retries=0)


def test_models_lists_one_model_per_readable_collection(oai: openai.OpenAI) -> None:
    assert "default" in [m.id for m in oai.models.list().data]


def test_completion_carries_numbered_citations(oai: openai.OpenAI) -> None:
    r = oai.chat.completions.create(
        model="default",
        messages=[{"role": "user", "content": "What is the default request timeout?"}],
    )
    text = r.choices[0].message.content or ""
    assert "30 seconds" in text and "[1]" in text
    citations = (r.model_extra or {})["citations"]
    assert citations[0]["n"] == 1 and citations[0]["source"] == "reference/limits.txt"


def test_streaming_sends_deltas_and_citations_on_the_last_chunk(oai: openai.OpenAI) -> None:
    stream = oai.chat.completions.create(
        model="default", stream=True,
        messages=[{"role": "user", "content": "What is the default request timeout?"}],
    )  # fmt: skip
    chunks = list(stream)
    text = "".join(c.choices[0].delta.content or "" for c in chunks)
    assert "30 seconds" in text and "[1]" in text
    last = chunks[-1]
    assert last.choices[0].finish_reason == "stop"
    assert (last.model_extra or {})["citations"][0]["source"] == "reference/limits.txt"


def test_the_conversation_comes_from_the_messages(oai: openai.OpenAI) -> None:
    r = oai.chat.completions.create(
        model="default",
        messages=[
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "What is the default request timeout?"},
            {"role": "assistant", "content": "The default request timeout is 30 seconds [1]."},
            {"role": "user", "content": "clear history"},
        ],
    )
    assert r.choices[0].message.content


def test_an_unknown_model_is_a_404_in_openai_shape(oai: openai.OpenAI) -> None:
    with pytest.raises(openai.NotFoundError) as info:
        oai.chat.completions.create(
            model="nope", messages=[{"role": "user", "content": "hello there"}]
        )
    assert "nope" in str(info.value)


def test_the_last_message_must_be_the_users(client: httpx.Client) -> None:
    r = client.post("/v1/chat/completions", json={
        "model": "default", "messages": [{"role": "assistant", "content": "hi"}]})  # fmt: skip
    assert r.status_code == 400 and "user" in r.json()["error"]["message"]
