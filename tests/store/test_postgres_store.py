"""What the PostgreSQL store adds to the contract: migrations applied once, and one visible
version per source even when two writers store the same new file."""

import psycopg
import pytest

from citewise.errors import StoreError
from citewise.store.postgres import PostgresStore
from citewise.store.postgres_schema import MIGRATIONS, migrate
from store.documents import new_document

pytestmark = pytest.mark.integration


def test_migrations_are_recorded_and_applied_once(postgres_url: str) -> None:
    PostgresStore(postgres_url).close()
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        names = [r[0] for r in conn.execute("SELECT name FROM citewise_migrations ORDER BY 1")]
        assert names == [name for name, _ in MIGRATIONS]
        assert migrate(conn) == []


def test_a_second_visible_version_of_a_source_is_refused(postgres_url: str) -> None:
    first, second = PostgresStore(postgres_url), PostgresStore(postgres_url)
    try:
        first.add_document(new_document("same.txt", "Stored by the first worker."))
        with pytest.raises(StoreError, match="concurrent writer"):
            second.add_document(new_document("same.txt", "Stored by the second worker."))
        assert [d.source for d in second.list_documents("default")] == ["same.txt"]
        assert second.stats()["chunks"] == 1
    finally:
        first.close()
        second.close()


def test_an_unreachable_server_is_a_store_error_without_the_password() -> None:
    with pytest.raises(StoreError, match="cannot open the PostgreSQL store") as caught:
        PostgresStore("postgresql://nobody:secret@127.0.0.1:1/none")
    assert "secret" not in str(caught.value) and "nobody@127.0.0.1:1" in str(caught.value)
