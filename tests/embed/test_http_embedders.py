"""Ollama and OpenAI-compatible embedders against the scripted server (real HTTP, real JSON)."""

from __future__ import annotations

import numpy as np
import pytest

from citewise.embed import create_embedder
from citewise.errors import EmbedderError
from embed.fake_server import SERVER_DIM, FakeServer

pytestmark = pytest.mark.integration

KINDS = ["ollama", "openai"]


@pytest.mark.parametrize("kind", KINDS)
def test_sends_the_wire_format_and_learns_the_dim(kind: str, embed_server: FakeServer) -> None:
    embedder = create_embedder(f"{kind}:nomic-embed-text", base_url=embed_server.url)
    vectors = embedder.embed_documents(["alpha", "beta"])
    assert embedder.dim == SERVER_DIM
    assert vectors.shape == (2, SERVER_DIM)
    (request,) = embed_server.script.requests
    assert request["path"] == ("/api/embed" if kind == "ollama" else "/v1/embeddings")
    assert request["json"] == {"model": "nomic-embed-text", "input": ["alpha", "beta"]}
    np.testing.assert_allclose(vectors, embed_server.vectors(["alpha", "beta"]), atol=1e-6)


@pytest.mark.parametrize("kind", KINDS)
def test_reading_dim_first_sends_one_probe(kind: str, embed_server: FakeServer) -> None:
    embedder = create_embedder(f"{kind}:m", base_url=embed_server.url)
    assert embedder.dim == SERVER_DIM
    assert len(embed_server.script.requests) == 1
    assert embedder.embed_documents([]).shape == (0, SERVER_DIM)


@pytest.mark.parametrize("kind", KINDS)
def test_batches_requests_and_keeps_order(kind: str, embed_server: FakeServer) -> None:
    texts = [f"text number {i}" for i in range(7)]
    embedder = create_embedder(f"{kind}:m", base_url=embed_server.url, batch_size=3)
    vectors = embedder.embed_documents(texts)
    assert [len(r["json"]["input"]) for r in embed_server.script.requests] == [3, 3, 1]
    np.testing.assert_allclose(vectors, embed_server.vectors(texts), atol=1e-6)


@pytest.mark.parametrize("kind", KINDS)
def test_http_error_names_endpoint_and_model(kind: str, embed_server: FakeServer) -> None:
    embed_server.script = type(embed_server.script)(status=400, body='{"error":"bad"}', failures=9)
    embedder = create_embedder(f"{kind}:my-model", base_url=embed_server.url)
    with pytest.raises(EmbedderError) as info:
        embedder.embed_query("hello")
    message = str(info.value)
    assert embed_server.url in message and "my-model" in message and "400" in message
    assert len(embed_server.script.requests) == 1  # a client error is not retried


@pytest.mark.parametrize("kind", KINDS)
def test_transient_server_error_is_retried(kind: str, embed_server: FakeServer) -> None:
    embed_server.script = type(embed_server.script)(status=503, body="busy", failures=1)
    embedder = create_embedder(f"{kind}:m", base_url=embed_server.url)
    assert embedder.embed_query("hello").shape == (SERVER_DIM,)
    assert len(embed_server.script.requests) == 2


@pytest.mark.parametrize("kind", KINDS)
def test_wrong_number_of_embeddings_is_an_error(kind: str, embed_server: FakeServer) -> None:
    embed_server.script.drop_one = True
    embedder = create_embedder(f"{kind}:m", base_url=embed_server.url)
    with pytest.raises(EmbedderError, match="sent 2 texts, got 1"):
        embedder.embed_documents(["a", "b"])


@pytest.mark.parametrize("kind", KINDS)
def test_unreachable_server_names_endpoint(kind: str, embed_server: FakeServer) -> None:
    url = embed_server.url
    embed_server.close()
    embedder = create_embedder(f"{kind}:m", base_url=url, timeout=2.0)
    with pytest.raises(EmbedderError, match=url.replace(".", r"\.")):
        embedder.embed_query("hello")


def test_openai_sends_bearer_key_only_when_given(embed_server: FakeServer) -> None:
    create_embedder("openai:m", base_url=embed_server.url, api_key="sk-test").embed_query("a")
    create_embedder("openai:m", base_url=embed_server.url).embed_query("a")
    with_key, without = embed_server.script.requests
    assert with_key["headers"].get("Authorization") == "Bearer sk-test"
    assert "Authorization" not in without["headers"]


def test_openai_base_url_may_end_in_v1(embed_server: FakeServer) -> None:
    embedder = create_embedder("openai:m", base_url=embed_server.url + "/v1/")
    embedder.embed_query("a")
    assert embed_server.script.requests[0]["path"] == "/v1/embeddings"


def test_names_and_windows(embed_server: FakeServer) -> None:
    ollama = create_embedder("ollama:nomic-embed-text", base_url=embed_server.url)
    openai = create_embedder("openai:text-embedding-3-small", max_tokens=8191)
    assert ollama.name == "ollama:nomic-embed-text" and ollama.max_tokens == 512
    assert openai.name == "openai:text-embedding-3-small" and openai.max_tokens == 8191
    assert 4 <= ollama.count_tokens("Rotate the log files every night.") <= 10
