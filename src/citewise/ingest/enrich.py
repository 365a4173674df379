"""The enrichment hook: steps that see each document after chunking, before it is stored
(entities and cross-references for a knowledge graph, extra metadata). None by default."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from citewise.types import NewDocument


class Enricher(Protocol):
    @property
    def name(self) -> str: ...

    def enrich(self, document: NewDocument) -> NewDocument:
        """The document to store: the same one, or a copy with more in it."""
        ...


def enrich(document: NewDocument, enrichers: Sequence[Enricher]) -> NewDocument:
    for enricher in enrichers:
        document = enricher.enrich(document)
    return document
