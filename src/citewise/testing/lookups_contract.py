"""The contract of the optional `store.lookups.HeadingLookups` capability: a page found by its
title's prefix, an entry found by the option heading it. A backend that implements the
protocol runs this suite beside `StoreContractTests` (`testing.store_contract`)."""

from __future__ import annotations

from citewise.store.base import Store
from citewise.store.lookups import HeadingLookups
from citewise.testing.store_documents import document_of, new_document
from citewise.types import Block, NewDocument, SearchFilter

__all__ = ["HeadingLookupsContractTests"]


def _with_headings(
    source: str, entries: list[tuple[str, str]], collection: str = "default"
) -> NewDocument:
    blocks = [Block(text, ("Command line", heading)) for heading, text in entries]
    return document_of(source, blocks, collection=collection)


class HeadingLookupsContractTests:
    """`documents_titled` and `heading_search`; the `store` fixture is the backend's."""

    def test_documents_titled_by_prefix(self, store: Store) -> None:
        assert isinstance(store, HeadingLookups)
        store.add_document(new_document("asyncio.html", "Event loops and tasks."))
        store.add_document(new_document("dev.html", "Developing with care."))
        store.add_document(new_document("odd_%.html", "A title with wildcards."))
        assert [d.source for d in store.documents_titled("default", "ASYNC")] == ["asyncio.html"]
        assert [d.source for d in store.documents_titled("default", "odd_%")] == ["odd_%.html"]
        assert store.documents_titled("default", "odd__") == []
        store.add_document(new_document("9. Massif: a heap profiler", "Heap profiling."))
        # after a chapter number, and only at the start
        massif = store.documents_titled("default", "massif")
        assert [d.source for d in massif] == ["9. Massif: a heap profiler"]
        assert store.documents_titled("default", "heap") == []
        assert len(store.list_documents("default")) == 4

    def test_heading_search_finds_the_entries_headed_by_an_option(self, store: Store) -> None:
        assert isinstance(store, HeadingLookups)
        store.add_document(
            _with_headings(
                "cmdline.txt",
                [
                    ("-m <module-name>", "Search sys.path for the named module and run it."),
                    ("-M", "A different option, in upper case."),
                    ("-mx", "A longer option that only starts the same."),
                    ("-c, --check", "Syntax check the script without executing."),
                    ("Modules", "The -m option runs a module; this heading is prose."),
                ],
            )
        )
        store.add_document(_with_headings("other.txt", [("-m", "Elsewhere.")], collection="c2"))

        def found(name: str, k: int = 10) -> list[str]:
            cands = store.heading_search(name, SearchFilter(), k)
            assert [c.rank for c in cands] == list(range(1, len(cands) + 1))
            return [r.text for r in store.get_chunks([c.chunk_id for c in cands])]

        assert found("-m") == ["Search sys.path for the named module and run it."]
        assert found("--check") == ["Syntax check the script without executing."]
        assert found("-c") == found("--check")
        assert found("--mx") == [] and found("-x") == [] and found("--") == []
        assert [r.source for r in store.get_chunks(
            [c.chunk_id for c in store.heading_search("-m", SearchFilter(collection="c2"), 5)]
        )] == ["other.txt"]  # fmt: skip
