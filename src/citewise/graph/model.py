"""The knowledge graph's values: entities, relations, references and document links.

Entities are identified by a `key` (`entity_key(name)`): the same name in two documents of a
collection is one entity. Every entity, relation and reference keeps the chunk ids it was read
from, so an answer can cite the passage behind each edge.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, get_args

EntityKind = Literal[
    "name", "acronym", "code", "section", "term", "product",
    "hardware", "software", "configuration", "error",
    "command", "path", "option", "party", "concept", "agreement",
]  # fmt: skip
RelationKind = Literal[
    "uses", "depends_on", "requires", "built_on", "part_of", "replaces", "updates",
    "configures", "connects_to", "mentions_with",
    "is_a", "defines", "party_to", "governed_by",
]  # fmt: skip
LinkKind = Literal["explicit", "implicit"]

ENTITY_KINDS: frozenset[str] = frozenset(get_args(EntityKind))
RELATION_KINDS: frozenset[str] = frozenset(get_args(RelationKind))
WEAK_RELATION: RelationKind = "mentions_with"
# kinds that name a place inside one document, not a thing documents share
LOCAL_KINDS: frozenset[str] = frozenset({"section"})

_NON_ALNUM = re.compile(r"[^0-9a-z]+")
_PREFIX_DIGIT = re.compile(r"(?<=[a-z]) (?=\d)")
_LEADING_ARTICLE = re.compile(r"^(?:the|a|an) ")


def entity_key(name: str) -> str:
    """The identity of a name: case, punctuation and articles ignored, a code's letters joined
    to its number ("RFC 2119", "rfc-2119" and "RFC2119" are one key)."""
    key = _NON_ALNUM.sub(" ", name.casefold()).strip()
    key = _LEADING_ARTICLE.sub("", key)
    return _PREFIX_DIGIT.sub("", key)


@dataclass(frozen=True, slots=True)
class ChunkText:
    """What extraction reads: one stored chunk."""

    chunk_id: int
    text: str
    section: str = ""


@dataclass(frozen=True, slots=True)
class Entity:
    key: str
    name: str
    kind: EntityKind
    aliases: tuple[str, ...] = ()
    chunk_ids: tuple[int, ...] = ()
    doc_ids: tuple[int, ...] = ()  # filled when read back from a store


@dataclass(frozen=True, slots=True)
class Relation:
    """A directed edge between two entity keys (`mentions_with` is undirected: source < target)."""

    source: str
    target: str
    kind: RelationKind
    chunk_ids: tuple[int, ...] = ()
    weight: float = 1.0


@dataclass(frozen=True, slots=True)
class CrossReference:
    """A document naming something elsewhere ("see X", "as described in Y", a cited code)."""

    key: str
    text: str
    chunk_ids: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class DocumentGraph:
    """What one document contributes to the graph."""

    entities: tuple[Entity, ...] = ()
    relations: tuple[Relation, ...] = ()
    references: tuple[CrossReference, ...] = ()
    headings: tuple[str, ...] = ()  # its section headings: others may cite it by them
    citations: tuple[CrossReference, ...] = ()  # the titles its reference list cites


@dataclass(frozen=True, slots=True)
class DocumentProfile:
    """What cross-referencing needs of one stored document: how others may name it (title,
    file name, codes in its title) and what it names."""

    doc_id: int
    names: frozenset[str]  # keys others may use to cite it
    cites: frozenset[str]  # keys of everything it names (entities, aliases, references)
    shares: frozenset[str]  # keys of its entities that other documents may share (no sections)


@dataclass(frozen=True, slots=True)
class DocumentLink:
    """`documents` = (citing, cited) for an explicit link; (lower id, higher id) for implicit."""

    documents: tuple[int, int]
    kind: LinkKind
    strength: float
    evidence: tuple[str, ...]

    def __post_init__(self) -> None:
        if not 0.0 <= self.strength <= 1.0:
            raise ValueError(f"link strength must be in [0, 1], not {self.strength}")

    def other(self, doc_id: int) -> int:
        a, b = self.documents
        return b if a == doc_id else a


@dataclass(frozen=True, slots=True)
class GraphDocument:
    doc_id: int
    title: str
    source: str


@dataclass(frozen=True, slots=True)
class GraphSnapshot:
    """A collection's whole graph, for export."""

    documents: tuple[GraphDocument, ...]
    entities: tuple[Entity, ...]
    relations: tuple[Relation, ...]
    links: tuple[DocumentLink, ...]
