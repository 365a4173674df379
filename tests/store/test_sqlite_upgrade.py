"""SQLite stores made by earlier versions keep working after an upgrade."""

import sqlite3
from pathlib import Path

from citewise.retrieve.query import query_terms
from citewise.store.sqlite.store import SQLiteStore
from citewise.testing.label_contract import framed_agreement
from citewise.types import SearchFilter
from store.documents import new_document


def test_a_store_from_before_the_keyword_scope_index_gets_it_on_open(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    store = SQLiteStore(path)
    store.add_document(new_document("logs.txt", "Rotate the logs every night with logrotate."))
    store.close()
    db = sqlite3.connect(path)
    db.execute("DROP INDEX chunks_scope")  # as a store made before the index existed
    db.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")  # (version 1)
    db.commit()
    db.close()

    reopened = SQLiteStore(path)
    try:
        found = reopened.keyword_search(query_terms("logrotate"), SearchFilter(), 5)
        sources = [r.source for r in reopened.get_chunks([c.chunk_id for c in found])]
    finally:
        reopened.close()
    assert sources == ["logs.txt"]


def test_a_store_from_before_chunk_labels_gets_them_by_backfill(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    store = SQLiteStore(path)
    doc_id = store.add_document(framed_agreement(frozenset()))
    store.close()
    db = sqlite3.connect(path)
    db.execute("ALTER TABLE chunks DROP COLUMN label")  # as a store of schema version 4
    db.execute("UPDATE meta SET value = '4' WHERE key = 'schema_version'")
    db.commit()
    db.close()

    reopened = SQLiteStore(path)
    try:
        assert reopened.schema_version() == (5, 5)
        labels = sorted(r.label or "" for r in reopened.document_chunks(doc_id))
    finally:
        reopened.close()
    assert labels == ["", "contents", "signature"]
