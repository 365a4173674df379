"""Checks that a store is consistent, through its tables and through every index a user
queries (document listing, keyword search, vector search), and a corpus whose files each
hold one unique word, so every index can be asked for every document."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable
from pathlib import Path

from citewise.assistant import Assistant

ORPHANS = {
    "chunks without a document": "SELECT count(*) FROM chunks c"
    " WHERE NOT EXISTS (SELECT 1 FROM documents d WHERE d.id = c.doc_id)",
    "parents without a document": "SELECT count(*) FROM parents p"
    " WHERE NOT EXISTS (SELECT 1 FROM documents d WHERE d.id = p.doc_id)",
    "keyword rows without a chunk": "SELECT count(*) FROM chunks_fts f"
    " WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = f.rowid)",
    "chunks without a keyword row": "SELECT count(*) FROM chunks c"
    " WHERE NOT EXISTS (SELECT 1 FROM chunks_fts f WHERE f.rowid = c.id)",
    "vectors without a chunk": "SELECT count(*) FROM vectors v"
    " WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = v.chunk_id)",
    "chunks marked embedded without a vector": "SELECT count(*) FROM chunks c"
    " WHERE has_vector = 1 AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.chunk_id = c.id)",
    "vectors of chunks marked unembedded": "SELECT count(*) FROM chunks c"
    " WHERE has_vector = 0 AND EXISTS (SELECT 1 FROM vectors v WHERE v.chunk_id = c.id)",
    "ready documents with unembedded chunks": "SELECT count(*) FROM documents d"
    " WHERE status = 'ready' AND EXISTS"
    " (SELECT 1 FROM chunks c WHERE c.doc_id = d.id AND has_vector = 0)",
    "documents whose chunk count is wrong": "SELECT count(*) FROM documents d"
    " WHERE chunk_count != (SELECT count(*) FROM chunks c WHERE c.doc_id = d.id)",
    "sources listed twice": "SELECT count(*) FROM (SELECT 1 FROM documents"
    " WHERE status != 'staged' GROUP BY collection_id, source HAVING count(*) > 1)",
}


def word_for(name: str, version: int) -> str:
    """The unique word of one version of one file (letters only: one keyword token, and
    unlike the other files' words in every trigram the hashing embedder sees)."""
    digest = hashlib.sha256(f"{name}/{version}".encode()).hexdigest()[:10]
    return "zq" + digest.translate(str.maketrans("0123456789", "ghijklmnop"))


def write_file(root: Path, index: int, version: int) -> str:
    name = f"note{index:03d}"
    word = word_for(f"{index:03d}", version)
    paras = "\n\n".join(
        f"Paragraph {j}: the {word} setting of note {index} controls limit {j} and is "
        "read when the service starts, so change it before a restart." * 2
        for j in range(6)
    )
    (root / f"{name}.md").write_text(f"# Note {index}\n\n{paras}\n", encoding="utf-8")
    return word


def table_problems(db: Path) -> list[str]:
    problems: list[str] = []
    with sqlite3.connect(db) as conn:
        if conn.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
            problems.append("integrity_check failed")
        if conn.execute("PRAGMA foreign_key_check").fetchall():
            problems.append("foreign keys broken")
        for what, sql in ORPHANS.items():
            n = conn.execute(sql).fetchone()[0]
            if n:
                problems.append(f"{n} {what}")
    return problems


def vector_problems(db: Path) -> list[str]:
    """Each stored vector is the hashing embedding of its chunk's text (not of a chunk that
    held the same id before)."""
    import numpy as np

    from citewise.embed.hashing import HashingEmbedder

    embedder = HashingEmbedder()
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT c.id, c.embed_text, v.vec FROM chunks c JOIN vectors v ON v.chunk_id = c.id"
        ).fetchall()
    if not rows:
        return []
    expected = embedder.embed_documents([str(r[1]) for r in rows])
    wrong = [
        int(r[0])
        for r, ref in zip(rows, expected, strict=True)
        if float(np.frombuffer(r[2], dtype=np.float32) @ ref) < 0.999
    ]
    return [f"{len(wrong)} vectors of another text (chunks {wrong[:5]})"] if wrong else []


def index_problems(
    data: Path, expected: dict[str, str] | None = None, *, stored: dict[str, str] | None = None
) -> list[str]:
    """Every listed document is found by its word through keyword search (and vector search
    once ready); no hit names a document the listing lacks; no chunk comes back twice.
    With `expected` ({source: word}), the listing must be exactly those documents; `stored`
    gives the words otherwise (default: read from the SQLite file in `data`)."""
    problems: list[str] = []
    with Assistant(data_dir=data, embedder="hashing") as a:
        docs = {d.source: d for d in a.documents()}
        if expected is not None and set(docs) != set(expected):
            problems.append(f"listing {sorted(docs)} != files {sorted(expected)}")
        words = expected if expected is not None else stored
        if words is None:
            words = _stored_words(data)
        for source, doc in docs.items():
            word = words.get(source)
            if word is None:
                problems.append(f"{source}: no word known")
                continue
            modes = ("keyword", "vector") if doc.status == "ready" else ("keyword",)
            for mode in modes:
                hits = a.search(f"{word} setting", k=5, mode=mode).hits
                ids = [h.chunk_id for h in hits]
                if len(ids) != len(set(ids)):
                    problems.append(f"{mode} search returned a chunk twice")
                if not hits or hits[0].source != source:
                    top = hits[0].source if hits else None
                    problems.append(f"{mode} search for {source}'s word found {top}")
                strays = {h.source for h in hits} - set(docs)
                if strays:
                    problems.append(f"{mode} search returned unlisted {sorted(strays)}")
    return problems


STORED_TEXT_SQL = (
    "SELECT d.source, c.text FROM documents d JOIN chunks c ON c.doc_id = d.id"
    " WHERE d.status <> 'staged' AND c.ordinal = 0"
)


def words_of(rows: Iterable[tuple[object, object]]) -> dict[str, str]:
    """Each listed document's word, from (source, first chunk's text) rows."""
    words: dict[str, str] = {}
    for source, text in rows:
        found = [w for w in str(text).split() if w.startswith("zq")]
        if found:
            words[str(source)] = found[0]
    return words


def _stored_words(data: Path) -> dict[str, str]:
    """Each listed document's word, read from its stored text (when the files moved on)."""
    with sqlite3.connect(data / "citewise.db") as conn:
        return words_of(conn.execute(STORED_TEXT_SQL).fetchall())
