"""Every store backend runs the store contract kit (`citewise.testing.store_contract`): a
subclass per backend gives it an empty store of that backend and names the suites of the
capabilities it has; a store with the core protocol alone passes the core suites."""

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from citewise.store.base import Store
from citewise.store.lookups import documents_titled, heading_entries
from citewise.store.sqlite.store import SQLiteStore
from citewise.testing.graph_contract import GraphHolderContractTests
from citewise.testing.hybrid_contract import HybridSearchContractTests
from citewise.testing.label_contract import ChunkLabelContractTests
from citewise.testing.lookups_contract import HeadingLookupsContractTests
from citewise.testing.schema_contract import SchemaContractTests, SourceIdentityContractTests
from citewise.testing.store_contract import (
    StoreContractTests,
    StreamingStoreContractTests,
    capability_suites,
)
from citewise.testing.store_documents import new_document
from citewise.types import SearchFilter


class ChunkRecordTests:
    """What every backend's chunk reads carry (the reads are written once, in `store.sql`)."""

    def test_chunks_carry_their_documents_content_hash(self, store: Store) -> None:
        new = new_document("a.txt", "Rotate the logs every night. " * 5)
        doc_id = store.add_document(new)
        (first, *_) = store.document_chunks(doc_id)
        assert first.doc_hash == new.content_hash
        assert [r.doc_hash for r in store.get_chunks([first.chunk_id])] == [new.content_hash]


class TestSQLiteStore(
    StoreContractTests, StreamingStoreContractTests, HeadingLookupsContractTests,
    GraphHolderContractTests, ChunkRecordTests, SchemaContractTests, SourceIdentityContractTests,
    ChunkLabelContractTests,
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
    StoreContractTests, StreamingStoreContractTests, HeadingLookupsContractTests,
    GraphHolderContractTests, HybridSearchContractTests, ChunkRecordTests, SchemaContractTests,
    SourceIdentityContractTests, ChunkLabelContractTests,
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


class CoreOnly:
    """A store seen through the `Store` protocol alone: no optional capability shows."""

    def __init__(self, inner: Store) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> object:
        if name.startswith("_") or name not in vars(Store):
            raise AttributeError(name)
        return getattr(self._inner, name)


class TestCoreOnlyStore(StoreContractTests):
    """The core suites ask for no optional capability (a third backend starts here)."""

    @pytest.fixture
    def store(self, tmp_path: Path) -> Iterator[Store]:
        made = SQLiteStore(tmp_path / "store.db")
        yield CoreOnly(made)  # type: ignore[misc]
        made.close()

    def test_it_shows_no_optional_capability(self, store: Store) -> None:
        assert capability_suites(store) == []
        assert capability_suites(store._inner) != []  # type: ignore[attr-defined]

    def test_genre_lookups_fall_back_without_the_capability(self, store: Store) -> None:
        store.add_document(new_document("asyncio.html", "Event loops and tasks."))
        assert [d.source for d in documents_titled(store, "default", "async")] == ["asyncio.html"]
        assert heading_entries(store, "-m", SearchFilter(), 5) == []
