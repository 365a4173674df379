"""Every door says the same thing: the citation numbers in the text are those of the citations
(SSE, `/v1/chat/completions` streaming and not, MCP), a collection that does not exist is a
404 (never an answer from another collection), an OpenAI client with any placeholder key is
served when the server needs no login, and every response carries the security headers."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest
from httpx_sse import connect_sse

from citewise.assistant.inside import inside
from http_server import running
from mcp_server.loop import run_client
from mcp_server.test_http import http_client
from picking import PickingExtractor
from support import write_corpus

pytestmark = pytest.mark.integration  # a real uvicorn on 127.0.0.1

QUESTION = "What is the default level, timeout or snapshot time?"
_MARK = re.compile(r"\[(\d+)\]")


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A loopback server (no login) whose answers cite the third passage shown."""
    from citewise.api import create_app
    from citewise.assistant import Assistant
    from citewise.config import load_settings

    root = tmp_path_factory.mktemp("doors")
    settings = load_settings(data_dir=root / "data", embedder="hashing")
    with Assistant(settings=settings) as assistant:
        assistant.ingest([write_corpus(root / "docs")])
        inside(assistant).parts.conversation.get().answerer.extractor = PickingExtractor(2)
        with running(create_app(settings, assistant=assistant)) as served:
            yield served


def _marks(text: str) -> list[int]:
    return [int(n) for n in _MARK.findall(text)]


def test_sse_streams_the_numbers_its_citations_and_done_carry(url: str) -> None:
    events: list[tuple[str, Any]] = []
    with (
        httpx.Client(base_url=url, timeout=60) as client,
        connect_sse(client, "POST", "/chat/stream", json={"message": QUESTION}) as source,
    ):
        events = [(sse.event, json.loads(sse.data)) for sse in source.iter_sse()]
    streamed = "".join(data["text"] for name, data in events if name == "token")
    cited = [data["n"] for name, data in events if name == "citation"]
    done = next(data for name, data in events if name == "done")
    assert cited == [1] and [c["n"] for c in done["citations"]] == cited
    assert _marks(streamed) == _marks(done["answer"]) == cited


def test_openai_clients_with_a_placeholder_key_get_matching_numbers(url: str) -> None:
    # the SDK insists on a key; a server that needs no login takes any placeholder
    oai = openai.OpenAI(base_url=f"{url}/v1", api_key="sk-no-key-needed", max_retries=0)
    messages: Any = [{"role": "user", "content": QUESTION}]
    whole = oai.chat.completions.create(model="default", messages=messages)
    text = whole.choices[0].message.content or ""
    citations = (whole.model_extra or {})["citations"]
    assert _marks(text) == [c["n"] for c in citations] == [1]

    chunks = list(oai.chat.completions.create(model="default", messages=messages, stream=True))
    streamed = "".join(c.choices[0].delta.content or "" for c in chunks)
    last = (chunks[-1].model_extra or {})["citations"]
    assert _marks(streamed) == [c["n"] for c in last] == [1]


def test_mcp_answers_with_the_numbers_its_citations_carry(url: str) -> None:
    async def run() -> dict[str, Any]:
        async with http_client(url) as client:
            result = await client.call_tool("ask", {"question": QUESTION})
            assert result.structured_content is not None
            return result.structured_content

    answer = run_client(run)
    assert _marks(answer["answer"]) == [c["n"] for c in answer["citations"]] == [1]


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/chat/", {"message": QUESTION, "collection": "nope"}),
        ("POST", "/chat/stream", {"message": QUESTION, "collection": "nope"}),
        ("POST", "/api/query", {"query": QUESTION, "collection": "nope"}),
        ("GET", "/search?q=timeout&collection=nope", None),
        ("GET", "/documents?collection=nope", None),
    ],
)
def test_a_collection_that_does_not_exist_is_a_404(
    url: str, method: str, path: str, body: dict[str, str] | None
) -> None:
    r = httpx.request(method, f"{url}{path}", json=body, timeout=60)
    assert r.status_code == 404, r.text
    assert r.json()["error"] == "no collection 'nope': ingest documents into it first"


def test_mcp_names_a_collection_that_does_not_exist(url: str) -> None:
    async def run() -> str:
        async with http_client(url) as client:
            result = await client.call_tool("ask", {"question": QUESTION, "collection": "nope"})
            assert result.is_error
            return " ".join(getattr(c, "text", "") for c in result.content)

    assert "no collection 'nope'" in run_client(run)


@pytest.mark.parametrize("path", ["/", "/ui/app.js", "/health", "/v1/models", "/no-such-page"])
def test_every_response_carries_the_security_headers(url: str, path: str) -> None:
    headers = httpx.get(f"{url}{path}", timeout=30).headers
    policy = headers["content-security-policy"]
    assert "script-src 'self' 'sha256-" in policy and "'unsafe-inline'" not in policy
    assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "no-referrer"


def test_the_policy_allows_exactly_the_ui_pages_inline_import_map(url: str) -> None:
    from citewise.api.headers import inline_script_hashes

    page = httpx.get(f"{url}/", timeout=30)
    hashes = inline_script_hashes(page.text)
    assert len(hashes) == 1 and hashes[0] in page.headers["content-security-policy"]


def test_the_docs_pages_keep_their_own_policy(url: str) -> None:
    headers = httpx.get(f"{url}/docs", timeout=30).headers
    assert "'unsafe-inline'" in headers["content-security-policy"]  # swagger's inline setup
    assert headers["x-frame-options"] == "DENY"


def test_with_login_required_a_placeholder_key_is_refused(tmp_path: Path) -> None:
    from citewise.api import create_app
    from citewise.config import load_settings

    settings = load_settings(data_dir=tmp_path / "data", embedder="hashing", auth_required=True)
    with running(create_app(settings)) as served:
        oai = openai.OpenAI(base_url=f"{served}/v1", api_key="sk-no-key-needed", max_retries=0)
        with pytest.raises(openai.AuthenticationError):
            oai.models.list()
