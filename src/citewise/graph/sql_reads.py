"""Reads of the graph over SQL (`?` placeholders), shared by both backends: one
collection's entities, names, edges and links, merged over its documents."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Protocol, cast

from citewise.graph.model import (
    DocumentLink,
    Entity,
    EntityKind,
    GraphDocument,
    GraphSnapshot,
    LinkKind,
    Relation,
    RelationKind,
)

BATCH = 500  # keys per IN (...) list: far below either backend's parameter limit


class Rows(Protocol):
    def fetchall(self) -> list[Any]: ...


class SQLConnection(Protocol):
    def execute(self, sql: str, params: Sequence[Any] = ..., /) -> Rows: ...


class GraphReads:
    """The read half of `GraphStore`; `connect()` gives the calling thread's connection."""

    def __init__(self, connect: Callable[[], SQLConnection]) -> None:
        self._connect = connect

    @property
    def _conn(self) -> SQLConnection:
        return self._connect()

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

    def document_entities(self, collection: str, doc_id: int) -> dict[str, int]:
        rows = self._conn.execute(
            "SELECT key, COUNT(*) FROM graph_mentions WHERE collection = ? AND doc_id = ? "
            "GROUP BY key",
            (collection, doc_id),
        ).fetchall()
        return {str(key): int(n) for key, n in rows}

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

    def documents(self, collection: str, doc_ids: Sequence[int]) -> list[GraphDocument]:
        rows = self._select_in(
            "SELECT doc_id, title, source FROM graph_documents WHERE collection = ? "
            "AND doc_id IN ({})",
            (collection,),
            doc_ids,
        )
        found = [GraphDocument(int(d), str(t), str(src)) for d, t, src in rows]
        return sorted(found, key=lambda d: d.doc_id)

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
