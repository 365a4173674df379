"""Merging per-collection results: one ranking by score, the client's collection first on
ties and duplicates, each passage once."""

from __future__ import annotations

from pathlib import Path

from citewise.assistant.inside import inside
from citewise.retrieve.collections import merge_by_priority, search_collections
from citewise.types import Hit, SearchFilter


def _hit(chunk_id: int, text: str, score: float) -> Hit:
    return Hit(
        rank=1, chunk_id=chunk_id, doc_id=chunk_id, source=f"d{chunk_id}.md", title="",
        page=None, page_end=None, section="", score=score, text=text, parent_id=chunk_id,
    )  # fmt: skip


def test_duplicates_are_kept_once_as_the_own_collections_copy() -> None:
    own = [_hit(1, "Alpha  beta.", 0.5), _hit(2, "Gamma.", 0.4)]
    shared = [_hit(3, "alpha beta.", 0.9), _hit(4, "Delta.", 0.4)]
    merged = merge_by_priority([own, shared], k=10)
    assert [(h.chunk_id, h.score) for h in merged] == [(1, 0.9), (2, 0.4), (4, 0.4)]
    assert [h.rank for h in merged] == [1, 2, 3]
    assert [h.chunk_id for h in merge_by_priority([own, shared], k=2)] == [1, 2]


def test_a_strong_global_passage_outranks_weak_own_ones() -> None:
    own = [_hit(i, f"own {i}", 0.1) for i in range(1, 11)]
    shared = [_hit(99, "the global answer", 0.8)]
    assert merge_by_priority([own, shared], k=10)[0].chunk_id == 99


def test_each_collection_is_searched_in_the_store(assistant: object, tmp_path: Path) -> None:
    from citewise.assistant import Assistant

    assert isinstance(assistant, Assistant)
    for name, fact in (("client-a", "The zephyr valve opens at 41 bar."),
                       ("global", "The zephyr valve is serviced yearly.")):  # fmt: skip
        folder = tmp_path / name
        folder.mkdir()
        (folder / f"{name}.md").write_text(f"# Valve\n\n{fact}\n", encoding="utf-8")
        assistant.ingest([folder], collection=name)
    retriever = inside(assistant).retriever()
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
