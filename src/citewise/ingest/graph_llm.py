"""An optional LLM pass: typed entities and relations (the seed's types) read from each chunk
as one JSON object, added to what the rules found. Never required: a reply that is not the
JSON asked for, or a failed call, is logged as a warning and that chunk keeps the rules' graph.

Only names that occur in the chunk's text are kept, so the model cannot invent entities.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from citewise.errors import BackendError
from citewise.graph.model import (
    ChunkText,
    DocumentGraph,
    Entity,
    EntityKind,
    Relation,
    RelationKind,
    entity_key,
)
from citewise.llm.base import LLM, Message

log = logging.getLogger(__name__)

LLM_ENTITY_TYPES: tuple[EntityKind, ...] = ("hardware", "software", "configuration", "error")
LLM_RELATION_TYPES: dict[str, RelationKind] = {
    "depends_on": "depends_on",
    "configures": "configures",
    "connects_to": "connects_to",
    "is_part_of": "part_of",
}
SCHEMA: dict[str, object] = {
    "type": "object",
    "required": ["entities", "relations"],
    "properties": {
        "entities": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["name", "type"],
                "properties": {
                    "name": {"type": "string"},
                    "type": {"enum": list(LLM_ENTITY_TYPES)},
                },
            },
        },
        "relations": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["source", "target", "type"],
                "properties": {
                    "source": {"type": "string"},
                    "target": {"type": "string"},
                    "type": {"enum": list(LLM_RELATION_TYPES)},
                },
            },
        },
    },
}
PROMPT = (
    "Extract the technical entities and the relations between them from the passage. Reply "
    "with one JSON object and nothing else, matching this JSON schema:\n"
    + json.dumps(SCHEMA)
    + "\nUse names exactly as the passage writes them. Leave out anything the passage does "
    "not state."
)


@dataclass(frozen=True, slots=True)
class LLMExtractor:
    llm: LLM
    max_tokens: int = 800

    def extract(self, chunks: Iterable[ChunkText]) -> DocumentGraph:
        entities: list[Entity] = []
        relations: list[Relation] = []
        for chunk in chunks:
            reply = self._ask(chunk)
            if reply is not None:
                found = read_reply(reply, chunk)
                entities.extend(found.entities)
                relations.extend(found.relations)
        return DocumentGraph(tuple(entities), tuple(relations))

    def _ask(self, chunk: ChunkText) -> str | None:
        messages = [Message("system", PROMPT), Message("user", chunk.text)]
        try:
            return self.llm.complete(messages, max_tokens=self.max_tokens, json_mode=True).text
        except BackendError as exc:
            log.warning("graph LLM extraction skipped chunk %d: %s", chunk.chunk_id, exc)
            return None


def read_reply(reply: str, chunk: ChunkText) -> DocumentGraph:
    """The entities and relations of one reply that follow the schema and name text of the
    chunk; the rest is dropped with a warning."""
    try:
        data = json.loads(reply)
    except json.JSONDecodeError as exc:
        log.warning("graph LLM reply for chunk %d is not JSON (%s); ignored", chunk.chunk_id, exc)
        return DocumentGraph()
    if not isinstance(data, dict):
        log.warning("graph LLM reply for chunk %d is not a JSON object; ignored", chunk.chunk_id)
        return DocumentGraph()
    text = chunk.text.casefold()
    rejected = 0
    entities: dict[str, Entity] = {}
    for item in _items(data.get("entities")):
        name, kind = item.get("name"), item.get("type")
        if not (isinstance(name, str) and kind in LLM_ENTITY_TYPES and _grounded(name, text)):
            rejected += 1
            continue
        key = entity_key(name)
        entities[key] = Entity(key, name.strip(), cast(EntityKind, kind), (), (chunk.chunk_id,))
    relations: list[Relation] = []
    for item in _items(data.get("relations")):
        source, target, kind = item.get("source"), item.get("target"), item.get("type")
        if not (
            isinstance(source, str)
            and isinstance(target, str)
            and kind in LLM_RELATION_TYPES
            and _grounded(source, text)
            and _grounded(target, text)
        ):
            rejected += 1
            continue
        s, t = entity_key(source), entity_key(target)
        for key, name in ((s, source), (t, target)):
            entities.setdefault(key, Entity(key, name.strip(), "name", (), (chunk.chunk_id,)))
        relations.append(Relation(s, t, LLM_RELATION_TYPES[str(kind)], (chunk.chunk_id,)))
    if rejected:
        log.warning(
            "graph LLM reply for chunk %d: %d items off the schema or not in the text; ignored",
            chunk.chunk_id, rejected,
        )  # fmt: skip
    return DocumentGraph(tuple(entities.values()), tuple(relations))


def merge(rules: DocumentGraph, extra: DocumentGraph) -> DocumentGraph:
    """The rules' graph with the LLM's typed entities and relations added: a shared entity
    takes the LLM's type over a generic one and the union of chunk ids; a shared relation the
    union of chunk ids and the sum of weights."""
    entities = {e.key: e for e in rules.entities}
    for e in extra.entities:
        have = entities.get(e.key)
        if have is None:
            entities[e.key] = e
            continue
        kind = (
            e.kind
            if have.kind in ("name", "product", "acronym") and e.kind != "name"
            else have.kind
        )
        entities[e.key] = Entity(
            have.key, have.name, kind, have.aliases, _union(have.chunk_ids, e.chunk_ids)
        )
    relations = {(r.source, r.target, r.kind): r for r in rules.relations}
    for r in extra.relations:
        have_r = relations.get((r.source, r.target, r.kind))
        relations[(r.source, r.target, r.kind)] = (
            r if have_r is None
            else Relation(r.source, r.target, r.kind, _union(have_r.chunk_ids, r.chunk_ids),
                          have_r.weight + r.weight)
        )  # fmt: skip
    return DocumentGraph(
        tuple(sorted(entities.values(), key=lambda e: e.key)),
        tuple(sorted(relations.values(), key=lambda r: (r.source, r.target, r.kind))),
        rules.references,
    )


def _items(value: object) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _grounded(name: str, text: str) -> bool:
    return bool(name.strip()) and name.strip().casefold() in text


def _union(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    return tuple(sorted(set(a) | set(b)))
