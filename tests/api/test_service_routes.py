"""`/api/query`, `/search`, sessions, `/health`, `/metrics`, `/docs`, request ids."""

from __future__ import annotations

import httpx
import pytest

pytestmark = pytest.mark.integration  # a real uvicorn on 127.0.0.1


def test_api_query_returns_the_node_pipeline_shape(client: httpx.Client) -> None:
    r = client.post("/api/query", json={"query": "What is the default request timeout?"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert set(body) == {"answer", "sources", "relatedDocs", "citations", "confidence", "metadata"}
    assert "30 seconds" in body["answer"]
    assert body["sources"][0]["source"] == "reference/limits.txt"
    assert body["citations"][0]["text"].startswith("[") and body["citations"][0]["matched"]
    assert body["confidence"]["level"] in ("High", "Medium", "Low")
    assert body["metadata"]["chunksRetrieved"] >= 1


def test_api_query_without_an_answer_is_low_confidence_and_cites_nothing(
    client: httpx.Client,
) -> None:
    body = client.post("/api/query", json={"query": "Which Kubernetes version runs?"}).json()
    assert body["confidence"]["level"] == "Low" and body["citations"] == []


def test_api_query_keeps_no_session(client: httpx.Client) -> None:
    before = {s["session_id"] for s in client.get("/sessions").json()}
    client.post("/api/query", json={"query": "What is the default request timeout?"})
    assert {s["session_id"] for s in client.get("/sessions").json()} == before


def test_search_returns_ranked_passages(client: httpx.Client) -> None:
    body = client.get("/search", params={"q": "request timeout", "k": 3}).json()
    assert body["hits"][0]["source"] == "reference/limits.txt" and len(body["hits"]) <= 3


def test_sessions_list_the_conversations(client: httpx.Client) -> None:
    client.post(
        "/chat/",
        json={
            "message": "When do tokens expire?",
            "session_id": "listed-1",
            "create_session": True,
        },
    )
    sessions = client.get("/sessions").json()
    assert "listed-1" in [s["session_id"] for s in sessions]


def test_health_metrics_and_docs(client: httpx.Client) -> None:
    health = client.get("/health").json()
    assert health["status"] == "ok" and health["store"] == "sqlite" and health["jobs"] == "thread"
    assert health["schema_version"] >= 3 and health["reindex"] is None
    client.post("/chat/", json={"message": "When do tokens expire?"})
    metrics = client.get("/metrics/").text
    assert "citewise_http_requests_total" in metrics
    assert "citewise_answers_total{confidence=" in metrics
    assert "citewise_answer_stage_seconds_bucket" in metrics
    assert client.get("/docs").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/chat/", "/chat/stream", "/api/query", "/v1/chat/completions", "/documents"):
        assert path in paths


def test_every_response_carries_a_request_id(client: httpx.Client) -> None:
    assert (
        client.get("/health", headers={"x-request-id": "abc-123"}).headers["x-request-id"]
        == "abc-123"
    )
    assert len(client.get("/health").headers["x-request-id"]) == 16


def test_unknown_session_history_is_a_404(client: httpx.Client) -> None:
    r = client.get("/chat/history/never-seen")
    assert r.status_code == 404 and r.json()["type"] == "NotFoundError"
