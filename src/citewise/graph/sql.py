"""The graph over SQL, shared by the SQLite and PostgreSQL backends: one set of `?`-placeholder
statements, a connection that executes them and a transaction the backend opens. This module
writes (replace, delete, links); `sql_reads` reads."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from typing import Any

from citewise.graph.crossrefs import explicit_links, implicit_links, profile
from citewise.graph.model import (
    DocumentGraph,
    DocumentLink,
    DocumentProfile,
    entity_key,
)
from citewise.graph.sql_reads import GraphReads, SQLConnection

TABLES = (
    "graph_doc_links", "graph_relations", "graph_mentions", "graph_names", "graph_entities",
    "graph_documents",
)  # fmt: skip


class SQLGraphStore(GraphReads):
    """`GraphStore` over connections taking `?` placeholders: `connect()` gives the calling
    thread's connection, `transaction()` makes a block atomic on it."""

    def __init__(
        self,
        connect: Callable[[], SQLConnection],
        transaction: Callable[[], AbstractContextManager[Any]],
    ) -> None:
        super().__init__(connect)
        self._transaction = transaction

    def replace_document(
        self, doc_id: int, collection: str, title: str, source: str, graph: DocumentGraph
    ) -> list[DocumentLink]:
        doc = profile(doc_id, title, source, graph)
        with self._transaction():
            self._delete(doc_id)
            self._insert(doc_id, collection, title, source, graph, doc)
            links = self._links(collection, doc)
            self._insert_rows(
                "INSERT INTO graph_doc_links (collection, source_doc, target_doc, kind, "
                "strength, evidence) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (
                        collection,
                        *link.documents,
                        link.kind,
                        link.strength,
                        json.dumps(link.evidence),
                    )
                    for link in _distinct(links)
                ],
            )
        return links

    def delete_document(self, doc_id: int) -> None:
        with self._transaction():
            self._delete(doc_id)

    def _delete(self, doc_id: int) -> None:
        self._conn.execute(
            "DELETE FROM graph_doc_links WHERE source_doc = ? OR target_doc = ?", (doc_id, doc_id)
        )
        for table in TABLES[1:]:
            self._conn.execute(f"DELETE FROM {table} WHERE doc_id = ?", (doc_id,))

    def _insert(
        self,
        doc_id: int,
        collection: str,
        title: str,
        source: str,
        graph: DocumentGraph,
        doc: DocumentProfile,
    ) -> None:
        c = collection
        self._conn.execute(
            "INSERT INTO graph_documents (doc_id, collection, title, source) VALUES (?, ?, ?, ?)",
            (doc_id, c, title, source),
        )
        self._insert_rows(
            "INSERT INTO graph_entities (doc_id, collection, key, name, kind) "
            "VALUES (?, ?, ?, ?, ?)",
            [(doc_id, c, e.key, e.name, e.kind) for e in graph.entities],
        )
        self._insert_rows(
            "INSERT INTO graph_mentions (doc_id, collection, key, chunk_id) VALUES (?, ?, ?, ?)",
            [(doc_id, c, e.key, chunk) for e in graph.entities for chunk in e.chunk_ids],
        )
        names: dict[tuple[str, str], str] = {}
        for e in graph.entities:
            names[(e.key, "entity")] = e.key
            for alias in e.aliases:
                names.setdefault((entity_key(alias), "alias"), e.key)
        for key in doc.cites:  # references, and the chapters of cited sections
            names.setdefault((key, "reference"), key)
        for name in doc.names:
            names[(name, "document")] = name
        self._insert_rows(
            "INSERT INTO graph_names (doc_id, collection, key, role, entity_key) "
            "VALUES (?, ?, ?, ?, ?)",
            [(doc_id, c, key, role, target) for (key, role), target in names.items() if key],
        )
        self._insert_rows(
            "INSERT INTO graph_relations (doc_id, collection, source, target, kind, chunk_id, "
            "weight) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (doc_id, c, r.source, r.target, r.kind, chunk, r.weight / len(r.chunk_ids))
                for r in graph.relations
                for chunk in r.chunk_ids
            ],
        )

    def _links(self, collection: str, doc: DocumentProfile) -> list[DocumentLink]:
        names = self._peer_keys(
            "graph_names WHERE collection = ? AND role = 'document'", collection, doc, doc.cites
        )
        cited_by = self._peer_keys(
            "graph_names WHERE collection = ? AND role <> 'document'", collection, doc, doc.names
        )
        shared = self._peer_keys(
            "graph_entities WHERE collection = ? AND kind <> 'section'", collection, doc, doc.shares
        )
        explicit_peers = [
            DocumentProfile(d, frozenset(names[d]), frozenset(cited_by[d]), frozenset())
            for d in sorted(set(names) | set(cited_by))
        ]
        implicit_peers = [
            DocumentProfile(d, frozenset(), frozenset(), frozenset(keys))
            for d, keys in sorted(shared.items())
        ]
        n_docs = self.document_count(collection)
        df = self.frequencies(collection, sorted({k for ks in shared.values() for k in ks}))
        return [
            *explicit_links(doc, explicit_peers),
            *implicit_links(doc, implicit_peers, df, n_docs),
        ]

    def _peer_keys(
        self, rows: str, collection: str, doc: DocumentProfile, keys: Iterable[str]
    ) -> defaultdict[int, set[str]]:
        """The keys among `keys` each other document of the collection holds in `rows` (a
        table and its conditions on the collection and role or kind)."""
        found: defaultdict[int, set[str]] = defaultdict(set)
        for other, key in self._select_in(
            f"SELECT doc_id, key FROM {rows} AND doc_id <> ? AND key IN ({{}})",
            (collection, doc.doc_id),
            keys,
        ):
            found[other].add(key)
        return found

    def _insert_rows(self, sql: str, rows: Sequence[tuple[Any, ...]]) -> None:
        for row in rows:
            self._conn.execute(sql, row)


def _distinct(links: Iterable[DocumentLink]) -> list[DocumentLink]:
    seen: dict[tuple[int, int, str], DocumentLink] = {}
    for link in links:
        seen.setdefault((*link.documents, link.kind), link)
    return list(seen.values())
