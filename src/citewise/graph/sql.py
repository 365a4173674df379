"""The graph over SQL, shared by the SQLite and PostgreSQL backends: one set of `?`-placeholder
statements, a connection that executes them and a transaction the backend opens."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol, cast

from citewise.graph.crossrefs import explicit_links, implicit_links, profile
from citewise.graph.model import (
    DocumentGraph,
    DocumentLink,
    DocumentProfile,
    Entity,
    EntityKind,
    GraphDocument,
    GraphSnapshot,
    LinkKind,
    Relation,
    RelationKind,
    entity_key,
)

TABLES = (
    "graph_doc_links", "graph_relations", "graph_mentions", "graph_names", "graph_entities",
    "graph_documents",
)  # fmt: skip
BATCH = 500  # keys per IN (...) list: far below either backend's parameter limit


class Rows(Protocol):
    def fetchall(self) -> list[Any]: ...


class SQLConnection(Protocol):
    def execute(self, sql: str, params: Sequence[Any] = ..., /) -> Rows: ...


class SQLGraphStore:
    """`GraphStore` over connections taking `?` placeholders: `connect()` gives the calling
    thread's connection, `transaction()` makes a block atomic on it."""

    def __init__(
        self,
        connect: Callable[[], SQLConnection],
        transaction: Callable[[], AbstractContextManager[Any]],
    ) -> None:
        self._connect = connect
        self._transaction = transaction

    @property
    def _conn(self) -> SQLConnection:
        return self._connect()

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
        names: dict[int, set[str]] = defaultdict(set)
        for other, key in self._select_in(
            "SELECT doc_id, key FROM graph_names WHERE collection = ? AND role = 'document' "
            "AND doc_id <> ? AND key IN ({})",
            (collection, doc.doc_id),
            doc.cites,
        ):
            names[other].add(key)
        cited_by: dict[int, set[str]] = defaultdict(set)
        for other, key in self._select_in(
            "SELECT doc_id, key FROM graph_names WHERE collection = ? AND role <> 'document' "
            "AND doc_id <> ? AND key IN ({})",
            (collection, doc.doc_id),
            doc.names,
        ):
            cited_by[other].add(key)
        shared: dict[int, set[str]] = defaultdict(set)
        for other, key in self._select_in(
            "SELECT doc_id, key FROM graph_entities WHERE collection = ? AND doc_id <> ? "
            "AND kind <> 'section' AND key IN ({})",
            (collection, doc.doc_id),
            doc.shares,
        ):
            shared[other].add(key)
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

    # -- reads ---------------------------------------------------------------------------

    def match_names(self, collection: str, keys: Sequence[str]) -> dict[str, set[str]]:
        out: dict[str, set[str]] = defaultdict(set)
        for key, target in self._select_in(
            "SELECT DISTINCT key, entity_key FROM graph_names WHERE collection = ? "
            "AND role IN ('entity', 'alias') AND key IN ({})",
            (collection,),
            keys,
        ):
            out[key].add(target)
        return dict(out)

    def entities(self, collection: str, keys: Sequence[str]) -> list[Entity]:
        names: dict[str, Counter[tuple[str, str]]] = defaultdict(Counter)
        docs: dict[str, set[int]] = defaultdict(set)
        for key, name, kind, doc_id in self._select_in(
            "SELECT key, name, kind, doc_id FROM graph_entities WHERE collection = ? "
            "AND key IN ({})",
            (collection,),
            keys,
        ):
            names[key][(name, kind)] += 1
            docs[key].add(doc_id)
        chunks: dict[str, set[int]] = defaultdict(set)
        for key, chunk in self._select_in(
            "SELECT key, chunk_id FROM graph_mentions WHERE collection = ? AND key IN ({})",
            (collection,),
            list(names),
        ):
            chunks[key].add(chunk)
        aliases: dict[str, set[str]] = defaultdict(set)
        for target, alias in self._select_in(
            "SELECT DISTINCT entity_key, key FROM graph_names WHERE collection = ? "
            "AND role = 'alias' AND entity_key IN ({})",
            (collection,),
            list(names),
        ):
            aliases[target].add(alias)
        out = []
        for key, counts in sorted(names.items()):
            name, kind = counts.most_common(1)[0][0]
            out.append(
                Entity(
                    key, name, cast(EntityKind, kind), tuple(sorted(aliases[key])),
                    tuple(sorted(chunks[key])), tuple(sorted(docs[key])),
                )
            )  # fmt: skip
        return out

    def frequencies(self, collection: str, keys: Sequence[str]) -> dict[str, int]:
        return {
            key: int(n)
            for key, n in self._select_in(
                "SELECT key, COUNT(*) FROM graph_entities WHERE collection = ? AND key IN ({}) "
                "GROUP BY key",
                (collection,),
                keys,
            )
        }

    def document_count(self, collection: str) -> int:
        rows = self._conn.execute(
            "SELECT COUNT(*) FROM graph_documents WHERE collection = ?", (collection,)
        ).fetchall()
        return int(rows[0][0])

    def edges(
        self, collection: str, keys: Sequence[str], *, sources: Sequence[str] = ()
    ) -> list[Relation]:
        scope = ""
        params: tuple[Any, ...] = (collection,)
        if sources:
            marks = ", ".join("?" * len(sources))
            scope = f"AND doc_id IN (SELECT doc_id FROM graph_documents WHERE source IN ({marks})) "
            params = (collection, *sources)
        merged: dict[tuple[str, str, str], tuple[set[int], float]] = {}
        for column in ("source", "target"):
            for source, target, kind, chunk, weight in self._select_in(
                "SELECT source, target, kind, chunk_id, weight FROM graph_relations "
                f"WHERE collection = ? {scope}AND {column} IN ({{}})",
                params,
                keys,
            ):
                chunks, total = merged.get((source, target, kind), (set(), 0.0))
                if chunk not in chunks:
                    chunks.add(chunk)
                    total += float(weight)
                merged[(source, target, kind)] = (chunks, total)
        return [
            Relation(s, t, cast(RelationKind, k), tuple(sorted(chunks)), round(w, 4))
            for (s, t, k), (chunks, w) in sorted(merged.items())
        ]

    def chunk_documents(self, collection: str, chunk_ids: Sequence[int]) -> dict[int, int]:
        return {
            int(chunk): int(doc)
            for chunk, doc in self._select_in(
                "SELECT DISTINCT chunk_id, doc_id FROM graph_mentions WHERE collection = ? "
                "AND chunk_id IN ({})",
                (collection,),
                chunk_ids,
            )
        }

    def related_documents(
        self, collection: str, doc_id: int, *, min_strength: float = 0.0, limit: int = 10
    ) -> list[DocumentLink]:
        rows = self._conn.execute(
            "SELECT source_doc, target_doc, kind, strength, evidence FROM graph_doc_links "
            "WHERE collection = ? AND (source_doc = ? OR target_doc = ?) AND strength >= ? "
            "ORDER BY strength DESC, kind, source_doc, target_doc LIMIT ?",
            (collection, doc_id, doc_id, min_strength, limit),
        ).fetchall()
        return [_link(row) for row in rows]

    def snapshot(self, collection: str) -> GraphSnapshot:
        c = (collection,)
        documents = tuple(
            GraphDocument(int(d), str(t), str(s))
            for d, t, s in self._conn.execute(
                "SELECT doc_id, title, source FROM graph_documents WHERE collection = ? "
                "ORDER BY doc_id",
                c,
            ).fetchall()
        )
        keys = [
            str(row[0])
            for row in self._conn.execute(
                "SELECT DISTINCT key FROM graph_entities WHERE collection = ? ORDER BY key", c
            ).fetchall()
        ]
        links = tuple(
            _link(row)
            for row in self._conn.execute(
                "SELECT source_doc, target_doc, kind, strength, evidence FROM graph_doc_links "
                "WHERE collection = ? ORDER BY source_doc, target_doc, kind",
                c,
            ).fetchall()
        )
        return GraphSnapshot(
            documents, tuple(self.entities(collection, keys)),
            tuple(self.edges(collection, keys)), links,
        )  # fmt: skip

    # -- helpers -------------------------------------------------------------------------

    def _insert_rows(self, sql: str, rows: Sequence[tuple[Any, ...]]) -> None:
        for row in rows:
            self._conn.execute(sql, row)

    def _select_in(
        self, sql: str, params: tuple[Any, ...], keys: Iterable[str | int]
    ) -> Iterator[tuple[Any, ...]]:
        """Rows of `sql` whose `IN ({})` list takes `keys`, in batches."""
        unique = sorted(set(keys), key=lambda k: (isinstance(k, str), k))
        for start in range(0, len(unique), BATCH):
            batch = unique[start : start + BATCH]
            query = sql.format(", ".join("?" * len(batch)))
            yield from (tuple(r) for r in self._conn.execute(query, (*params, *batch)).fetchall())


def _link(row: Sequence[Any]) -> DocumentLink:
    source, target, kind, strength, evidence = row
    return DocumentLink(
        (int(source), int(target)), cast(LinkKind, kind), float(strength),
        tuple(json.loads(evidence)),
    )  # fmt: skip


def _distinct(links: Iterable[DocumentLink]) -> list[DocumentLink]:
    seen: dict[tuple[int, int, str], DocumentLink] = {}
    for link in links:
        seen.setdefault((*link.documents, link.kind), link)
    return list(seen.values())
