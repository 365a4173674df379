"""Every store backend runs the store contract kit (`citewise.testing.store_contract`): a
subclass per backend gives it an empty store of that backend."""

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from citewise.store.base import Store
from citewise.store.sqlite.store import SQLiteStore
from citewise.testing.graph_contract import GraphHolderContractTests
from citewise.testing.schema_contract import SchemaContractTests, SourceIdentityContractTests
from citewise.testing.store_contract import StoreContractTests, StreamingStoreContractTests
from citewise.testing.store_documents import new_document


class ChunkRecordTests:
    """What every backend's chunk reads carry (the reads are written once, in `store.sql`)."""

    def test_chunks_carry_their_documents_content_hash(self, store: Store) -> None:
        new = new_document("a.txt", "Rotate the logs every night. " * 5)
        doc_id = store.add_document(new)
        (first, *_) = store.document_chunks(doc_id)
        assert first.doc_hash == new.content_hash
        assert [r.doc_hash for r in store.get_chunks([first.chunk_id])] == [new.content_hash]


class TestSQLiteStore(
    StoreContractTests, StreamingStoreContractTests, GraphHolderContractTests, ChunkRecordTests,
    SchemaContractTests, SourceIdentityContractTests,
):  # fmt: skip
    @pytest.fixture
    def store(self, tmp_path: Path) -> Iterator[Store]:
        made = SQLiteStore(tmp_path / "store.db")
        yield made
        made.close()

    @pytest.fixture
    def reopen(self, tmp_path: Path) -> Callable[[], Store]:
        return lambda: SQLiteStore(tmp_path / "store.db")


@pytest.mark.integration
class TestPostgresStore(
    StoreContractTests, StreamingStoreContractTests, GraphHolderContractTests, ChunkRecordTests,
    SchemaContractTests, SourceIdentityContractTests,
):  # fmt: skip
    @pytest.fixture
    def store(self, postgres_url: str) -> Iterator[Store]:
        """A fresh, empty database on the session's server (`tests/pg_server.py`)."""
        from citewise.store.postgres.store import PostgresStore  # psycopg: the scale extra

        made = PostgresStore(postgres_url)
        yield made
        made.close()

    @pytest.fixture
    def reopen(self, postgres_url: str) -> Callable[[], Store]:
        from citewise.store.postgres.store import PostgresStore

        return lambda: PostgresStore(postgres_url, pool_size=1)
