"""Merging per-collection results: the client's collection first, each passage once."""

from __future__ import annotations

from pathlib import Path

from citewise.retrieve.priority import merge_by_priority, search_collections
from citewise.types import Hit, SearchFilter


def _hit(chunk_id: int, text: str, rank: int = 1) -> Hit:
    return Hit(
        rank=rank, chunk_id=chunk_id, doc_id=chunk_id, source=f"d{chunk_id}.md", title="",
        page=None, page_end=None, section="", score=1.0, text=text, parent_id=chunk_id,
    )  # fmt: skip


def test_earlier_collection_comes_first_and_duplicates_are_dropped() -> None:
    own = [_hit(1, "Alpha  beta."), _hit(2, "Gamma.")]
    shared = [_hit(3, "alpha beta."), _hit(4, "Delta.")]
    merged = merge_by_priority([own, shared], k=10)
    assert [h.chunk_id for h in merged] == [1, 2, 4]
    assert [h.rank for h in merged] == [1, 2, 3]
    assert [h.chunk_id for h in merge_by_priority([own, shared], k=2)] == [1, 2]


def test_each_collection_is_searched_in_the_store(assistant: object, tmp_path: Path) -> None:
    from citewise.app import Assistant

    assert isinstance(assistant, Assistant)
    for name, fact in (("client-a", "The zephyr valve opens at 41 bar."),
                       ("global", "The zephyr valve is serviced yearly.")):  # fmt: skip
        folder = tmp_path / name
        folder.mkdir()
        (folder / f"{name}.md").write_text(f"# Valve\n\n{fact}\n", encoding="utf-8")
        assistant.ingest([folder], collection=name)
    retriever = assistant.retriever()
    result = search_collections(
        lambda flt: retriever.search("zephyr valve", k=5, flt=flt),
        ["client-a", "global"],
        SearchFilter(),
        k=5,
    )
    assert [h.source for h in result.hits] == ["client-a.md", "global.md"]
    alone = search_collections(
        lambda flt: retriever.search("zephyr valve", k=5, flt=flt), ["global"], SearchFilter(), 5
    )
    assert [h.source for h in alone.hits] == ["global.md"]
