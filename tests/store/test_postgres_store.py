"""What the PostgreSQL store adds to the contract: migrations applied once, and one visible
version per source even when two writers store the same new file."""

import threading

import numpy as np
import psycopg
import pytest

from citewise.db.postgres import migrate
from citewise.errors import StoreError
from citewise.store.postgres.schema import MIGRATIONS
from citewise.store.postgres.store import PostgresStore
from citewise.testing.label_contract import framed_agreement
from store.documents import new_document

pytestmark = pytest.mark.integration


def test_migrations_are_recorded_and_applied_once(postgres_url: str) -> None:
    PostgresStore(postgres_url).close()
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        names = [r[0] for r in conn.execute("SELECT name FROM citewise_migrations ORDER BY 1")]
        assert names == [name for name, _ in MIGRATIONS]
        assert migrate(conn, MIGRATIONS) == []


def test_two_writers_of_one_source_settle_on_one_visible_version(postgres_url: str) -> None:
    first, second = PostgresStore(postgres_url), PostgresStore(postgres_url)
    try:
        stored = first.add_document(new_document("same.txt", "Stored by the first worker."))
        # the same file (same hash) from a second worker that looked before the first stored
        again = second.add_document(new_document("same.txt", "Stored by the first worker."))
        assert again == stored and second.stats()["documents"] == 1
        # another version becomes a staged replacement of the live one
        newer = second.add_document(new_document("same.txt", "Edited.", digest="h2"))
        assert second.find_staged("default", "same.txt").doc_id == newer  # type: ignore[union-attr]
        assert [d.doc_id for d in second.list_documents("default")] == [stored]
    finally:
        first.close()
        second.close()


def test_the_store_refuses_a_second_visible_version_itself(postgres_url: str) -> None:
    store = PostgresStore(postgres_url)
    try:
        store.add_document(new_document("one.txt", "First."))
        with pytest.raises(StoreError, match="concurrent writer"), store._tx() as conn:
            conn.execute(
                "INSERT INTO documents(collection_id, source, title, format, content_hash,"
                " mtime, size, status, chunk_count, ingested_at)"
                " SELECT collection_id, source, title, format, 'other', 0, 0, 'ready', 0, 0"
                " FROM documents"
            )
    finally:
        store.close()


def test_reads_in_a_snapshot_see_one_state(postgres_url: str) -> None:
    reader, writer = PostgresStore(postgres_url), PostgresStore(postgres_url)
    try:
        writer.add_document(new_document("a.txt", "Alpha text."))
        with reader.snapshot():
            before = reader.stats()
            writer.add_document(new_document("b.txt", "Beta text."))
            assert reader.stats() == before
            assert [d.source for d in reader.list_documents("default")] == ["a.txt"]
        assert reader.stats()["documents"] == 2
    finally:
        reader.close()
        writer.close()


def test_an_unreachable_server_is_a_store_error_without_the_password() -> None:
    with pytest.raises(StoreError, match="cannot open the PostgreSQL store") as caught:
        PostgresStore("postgresql://nobody:secret@127.0.0.1:1/none")
    assert "secret" not in str(caught.value) and "nobody:***@127.0.0.1:1" in str(caught.value)


def test_a_vector_lands_only_where_the_chunk_still_holds_its_text(postgres_url: str) -> None:
    store = PostgresStore(postgres_url)
    try:
        store.add_document(new_document("a.txt", "Alpha text."))
        ((cid, text),) = store.chunks_missing_vectors(10)
        vec = np.ones((1, 4), np.float32) / 2
        store.put_vectors([cid], vec, "e", texts=["something else"])
        assert store.get_vectors([cid]) == {} and store.count_missing_vectors() == 1
        store.put_vectors([cid], vec, "e", texts=[text])
        assert list(store.get_vectors([cid])) == [cid] and store.count_missing_vectors() == 0
    finally:
        store.close()


def test_a_chunk_deleted_while_its_vector_is_stored_drops_the_vector(postgres_url: str) -> None:
    store = PostgresStore(postgres_url)
    try:
        doc_id = store.add_document(new_document("gone.txt", "Gone text."))
        ((cid, text),) = store.chunks_missing_vectors(10)
        vec = np.ones((1, 4), np.float32) / 2
        store.put_vectors([cid], vec, "e", texts=[text])  # the embedder is known: no index build
        store.delete_document(doc_id)
        doc_id = store.add_document(new_document("gone.txt", "Gone text again."))
        ((cid, text),) = store.chunks_missing_vectors(10)
        failed: list[BaseException] = []
        with psycopg.connect(postgres_url) as deleter:  # its transaction holds the delete
            deleter.execute("DELETE FROM documents WHERE id = %s", (doc_id,))

            def put() -> None:
                try:
                    store.put_vectors([cid], vec, "e", texts=[text])
                except BaseException as exc:
                    failed.append(exc)

            writer = threading.Thread(target=put)
            writer.start()
            writer.join(timeout=1)  # waits on the deleted chunk's row
            deleter.commit()
        writer.join(timeout=30)
        assert not writer.is_alive() and failed == []
        assert store.get_vectors([cid]) == {}
    finally:
        store.close()


def test_a_database_written_by_a_newer_release_is_refused(postgres_url: str) -> None:
    PostgresStore(postgres_url).close()
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("INSERT INTO citewise_migrations(name) VALUES ('0999_from_the_future')")
    with pytest.raises(StoreError, match="newer citewise"):
        PostgresStore(postgres_url)


def test_a_database_of_an_earlier_release_gets_the_migrations_it_lacks(postgres_url: str) -> None:
    store = PostgresStore(postgres_url)
    store.add_document(new_document("kept.txt", "Kept across the upgrade."))
    store.close()
    with psycopg.connect(postgres_url, autocommit=True) as conn:  # as release 2f6bcc7 left it
        conn.execute("ALTER TABLE collections DROP COLUMN root")
        conn.execute("DELETE FROM citewise_migrations WHERE name = '0007_source_roots'")
    upgraded = PostgresStore(postgres_url)
    try:
        version, latest = upgraded.schema_version()
        assert version == latest
        assert upgraded.find_document("default", "kept.txt") is not None
        assert upgraded.record_root("default", "/docs") == "/docs"
    finally:
        upgraded.close()


def test_chunks_stored_without_labels_get_them_when_the_store_opens(postgres_url: str) -> None:
    store = PostgresStore(postgres_url)
    try:
        doc_id = store.add_document(framed_agreement(frozenset()))
        with store._tx() as conn:  # as chunks an older release stored after migration 0009
            conn.execute("UPDATE chunks SET label = NULL")
        assert {r.label for r in store.document_chunks(doc_id)} == {None}
    finally:
        store.close()
    reopened = PostgresStore(postgres_url)
    try:
        labels = sorted(r.label or "" for r in reopened.document_chunks(doc_id))
    finally:
        reopened.close()
    assert labels == ["", "contents", "signature"]
