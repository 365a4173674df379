"""The knowledge graph as JSON: an entity, a document's linked documents, the whole graph of
a collection. Scoped like documents: only collections the caller may read, searched in order
(the requested or own collection, then the global one)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from fastapi import APIRouter, Query, Response

from citewise.api.deps import AssistantDep, readable
from citewise.api.security import Reader
from citewise.errors import InputError, NotFoundError
from citewise.graph.ego import EGO_LIMIT
from citewise.graph.export import export

router = APIRouter(tags=["graph"])
MEDIA_TYPES = {"graphml": "application/graphml+xml", "json": "application/json"}


def first_found(collections: list[str], view: Callable[[str], dict[str, Any]]) -> dict[str, Any]:
    """The view from the first readable collection that has it."""
    missing: NotFoundError | None = None
    for name in collections:
        try:
            return {"collection": name, **view(name)}
        except NotFoundError as exc:
            missing = missing or exc
    raise missing or NotFoundError("not found")


@router.get("/graph/entities/{name:path}")
def get_entity(
    name: str, principal: Reader, assistant: AssistantDep, collection: str | None = None
) -> dict[str, Any]:
    """An entity: its aliases, relations with the passages behind them, its documents."""
    return first_found(
        readable(principal, collection, assistant),
        lambda c: assistant.graph_entity(name, collection=c),
    )


@router.get("/graph/documents/{source:path}/related")
def get_related(
    source: str, principal: Reader, assistant: AssistantDep, collection: str | None = None
) -> dict[str, Any]:
    """Documents linked to `source`, each with the reason and strength of the link."""
    return first_found(
        readable(principal, collection, assistant),
        lambda c: assistant.graph_related(source, collection=c),
    )


@router.get("/graph/ego")
def get_ego(
    principal: Reader,
    assistant: AssistantDep,
    entity: str | None = None,
    document: str | None = None,
    collection: str | None = None,
    limit: int = Query(EGO_LIMIT, ge=1, le=100),
) -> dict[str, Any]:
    """One entity or document and its strongest neighbours (at most `limit`), as nodes and
    edges for a readable picture; `hidden` counts the neighbours left out."""
    if (entity is None) == (document is None):
        raise InputError("name either an entity or a document")
    return first_found(
        readable(principal, collection, assistant),
        lambda c: assistant.graph_ego(entity=entity, document=document, collection=c, limit=limit),
    )


@router.get("/graph/export")
def export_graph(
    principal: Reader,
    assistant: AssistantDep,
    collection: str | None = None,
    format: Literal["graphml", "json"] = "json",
) -> Response:
    """A readable collection's whole graph (the requested one, else the first readable)."""
    name = readable(principal, collection, assistant)[0]
    body = export(assistant.graph_snapshot(collection=name), format)
    return Response(body, media_type=MEDIA_TYPES[format])
