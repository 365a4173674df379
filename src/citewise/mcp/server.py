"""`build_server(assistant, caller)`: the MCP tools (`search`, `ask`, `list_documents`,
`get_passage`) and resources (the documents, their text, passages) over the one `Assistant`.
`caller` names who is asking (the local user over stdio; the request's principal over HTTP),
and every read goes through `CallerAccess`, so MCP reaches no more than the HTTP API does."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from citewise import __version__
from citewise.assistant import Assistant
from citewise.auth.models import Principal
from citewise.errors import CitewiseError
from citewise.mcp.access import CallerAccess
from citewise.mcp.results import (
    CitedAnswer,
    Document,
    DocumentList,
    Passage,
    SearchHit,
    SearchResults,
)

Caller = Callable[[], Principal]
READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
INSTRUCTIONS = (
    "citewise answers only from the user's own documents. Use `ask` for a cited answer "
    "(cite its [n] markers with source and page), `search` for ranked passages, "
    "`list_documents` to see what is there and `get_passage` to read a passage in full."
)
Collection = Annotated[
    str | None,
    Field(description="A collection to search (default: your own, then the shared one)."),
]


def build_server(assistant: Assistant, caller: Caller) -> MCPServer:
    server: MCPServer = MCPServer(
        "citewise",
        title="citewise",
        version=__version__,
        instructions=INSTRUCTIONS,
        log_level="WARNING",
    )

    def access() -> CallerAccess:
        return CallerAccess(assistant, caller())

    @server.tool(annotations=READ_ONLY)
    def search(
        query: Annotated[str, Field(description="What to look for, in words.")],
        k: Annotated[int, Field(ge=1, le=50, description="How many passages.")] = 8,
        collection: Collection = None,
    ) -> SearchResults:
        """Hybrid keyword + vector search over the ingested passages: the best `k`, each with
        its source, page, section, chunk_id (for `get_passage`), score and text."""
        with tool_errors():
            names = access().collections(collection)
            result = assistant.search(query, k=k, collections=names)
            return SearchResults(
                query=query, collections=names, hits=[SearchHit.of(h) for h in result.hits]
            )

    @server.tool(annotations=READ_ONLY)
    def ask(
        question: Annotated[str, Field(description="A question about the documents.")],
        session: Annotated[
            str | None,
            Field(description="A conversation id to continue (follow-up questions); "
                  "without one the question stands alone."),
        ] = None,
        collection: Collection = None,
    ) -> CitedAnswer:  # fmt: skip
        """A cited answer from the documents only: the answer's [n] markers are its
        citations (source, page, section and the quoted passage). When the documents do not
        hold the answer it says so (`grounded` false) instead of guessing."""
        with tool_errors():
            caller_access = access()
            names = caller_access.collections(collection)
            with caller_access.session(session) as key:
                answer = assistant.ask(question, session_id=key, collections=names)
            return CitedAnswer.of(answer, session)

    @server.tool(annotations=READ_ONLY)
    def list_documents(collection: Collection = None) -> DocumentList:
        """The documents you can search: source, title, format, pages and passage count."""
        with tool_errors():
            return DocumentList(documents=[Document.of(d) for d in access().documents(collection)])

    @server.tool(annotations=READ_ONLY)
    def get_passage(
        chunk_id: Annotated[
            int, Field(ge=0, le=2**63 - 1, description="A passage's chunk_id from search or ask.")
        ],
    ) -> Passage:
        """One passage in full: its text, source, pages and section."""
        with tool_errors():
            return Passage.of(access().passage(chunk_id))

    @server.resource(
        "citewise://documents", name="documents", mime_type="application/json",
        description="The documents you can search.",
    )  # fmt: skip
    def documents() -> str:
        with resource_errors():
            return DocumentList(
                documents=[Document.of(d) for d in access().documents()]
            ).model_dump_json()

    @server.resource(
        "citewise://documents/{+source}", name="document", mime_type="text/plain",
        description="A document's text in reading order.",
    )  # fmt: skip
    def document(source: str) -> str:
        with resource_errors():
            caller_access = access()
            doc = caller_access.document(source)
            return f"# {doc.title}\n\n{caller_access.document_text(doc)}"

    @server.resource(
        "citewise://passages/{chunk_id}", name="passage", mime_type="application/json",
        description="One passage (a chunk_id from search or ask) with its source and page.",
    )  # fmt: skip
    def passage(chunk_id: str) -> str:
        with resource_errors():
            if not chunk_id.isdigit() or int(chunk_id) >= 2**63:
                raise ResourceError(f"not a passage id: {chunk_id!r}")
            return Passage.of(access().passage(int(chunk_id))).model_dump_json()

    return server


@contextmanager
def tool_errors() -> Iterator[None]:
    """The error tree's messages reach the client as tool errors (anything else is hidden)."""
    try:
        yield
    except CitewiseError as exc:
        raise ToolError(str(exc)) from exc


@contextmanager
def resource_errors() -> Iterator[None]:
    try:
        yield
    except CitewiseError as exc:
        raise ResourceError(str(exc)) from exc
