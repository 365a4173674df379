"""What every transport must give: each tool answering, citations with source, page and
quote, and the documents as resources; and one tenant never reaching another's passages."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp.client.client import Client
from mcp.shared.exceptions import MCPError
from mcp_types import TextResourceContents

TOOLS = {"search", "ask", "list_documents", "get_passage"}
QUESTION = "What is the default request timeout?"


async def call(client: Client, tool: str, **arguments: object) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


async def failure(client: Client, tool: str, **arguments: object) -> str:
    result = await client.call_tool(tool, arguments)
    assert result.is_error, result.structured_content
    return " ".join(getattr(c, "text", "") for c in result.content)


async def read_text(client: Client, uri: str) -> str:
    contents = (await client.read_resource(uri)).contents
    assert isinstance(contents[0], TextResourceContents)
    return contents[0].text


async def check_every_tool(client: Client) -> None:
    assert {t.name for t in (await client.list_tools()).tools} == TOOLS

    found = await call(client, "search", query="rotate the log files logrotate", k=3)
    top = found["hits"][0]
    assert top["source"] == "guides/logging.md" and top["section"] == "Logging > Rotation"
    assert {"chunk_id", "page", "score", "text"} <= set(top)

    answer = await call(client, "ask", question=QUESTION)
    assert answer["grounded"] and "30 seconds" in answer["answer"]
    cited = answer["citations"][0]
    assert cited["source"] == "reference/limits.txt" and "page" in cited
    assert "30 seconds" in cited["quote"] and f"[{cited['n']}]" in answer["answer"]

    assert "less than or equal" in await failure(client, "get_passage", chunk_id=2**70)
    passage = await call(client, "get_passage", chunk_id=cited["chunk_id"])
    assert passage["source"] == "reference/limits.txt" and cited["quote"] in passage["text"]

    listed = await call(client, "list_documents")
    sources = {d["source"] for d in listed["documents"]}
    assert {"guides/logging.md", "reference/limits.txt", "reference/api.html"} <= sources

    documents = json.loads(await read_text(client, "citewise://documents"))
    assert {d["source"] for d in documents["documents"]} == sources
    text = await read_text(client, "citewise://documents/guides/logging.md")
    assert text.startswith("# Logging guide") and "logrotate" in text
    one = json.loads(await read_text(client, f"citewise://passages/{cited['chunk_id']}"))
    assert one["chunk_id"] == cited["chunk_id"]


async def check_own_fact_only(client: Client, own: Any, other: Any) -> None:
    """`own` and `other` are `conftest.Tenant`s: the client acts as `own`."""
    mine = await call(client, "search", query=own.fact, k=5)
    assert mine["hits"][0]["source"] == own.source

    theirs = await call(client, "search", query=other.fact, k=20)
    assert all(h["source"] != other.source for h in theirs["hits"])
    answer = await call(client, "ask", question=f"What is the {other.fact.split()[1]} set to?")
    assert all(c["source"] != other.source for c in answer["citations"])
    assert other.fact.split()[-2] not in answer["answer"]

    listed = await call(client, "list_documents")
    sources = {d["source"] for d in listed["documents"]}
    assert own.source in sources and other.source not in sources
    assert "no access" in await failure(client, "list_documents", collection=other.collection)
    assert "no access" in await failure(client, "search", query="pump", collection=other.collection)
    assert "no passage" in await failure(client, "get_passage", chunk_id=other.chunk_id)
    for uri in (f"citewise://documents/{other.source}", f"citewise://passages/{other.chunk_id}"):
        with pytest.raises(MCPError, match=r"no (document|passage)"):
            await client.read_resource(uri)
