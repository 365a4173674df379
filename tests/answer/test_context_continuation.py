"""A passage that ends mid-thought is continued by the first lines of the chunk after it."""

from __future__ import annotations

from dataclasses import replace

from answer_factories import hit
from citewise.answer.context import (
    assemble,
    assemble_within_budget,
    continuation,
    ends_mid_thought,
    passage_header,
)
from citewise.types import ChunkRecord, Passage


def count_words(text: str) -> int:
    return len(text.split())


NOTICES = (
    "Notices shall be sent by registered mail to the addresses below.\n"
    "To the Builder:\nHarbour Works Ltd.\n14 Quay Street, Leith Attn:"
)
NEXT = "Mara Quist Phone: 0131 555 0100\n2.5 Consents. Consent shall not be unreasonably withheld."


def _after(text: str = NEXT, *, chunk_id: int = 102, **changes: object) -> ChunkRecord:
    record = ChunkRecord(chunk_id, 1, "guide.html", "Guide", "Guide > Intro", None, None, text, 2)
    return replace(record, **changes)  # type: ignore[arg-type]


def test_what_ends_mid_thought() -> None:
    assert ends_mid_thought("14 Quay Street, Leith Attn:")
    assert ends_mid_thought("The Supplier shall:")
    assert ends_mid_thought("(a) deliver the goods; and")
    assert ends_mid_thought("The fee is payable within thirty")
    assert not ends_mid_thought("The fee is payable within thirty days.")
    assert not ends_mid_thought('He said "stop."\n')
    assert not ends_mid_thought("Is it payable (see clause 4.)")


def test_a_dangling_attn_is_continued_by_the_name_on_the_next_chunk() -> None:
    ps = assemble([hit(NOTICES)], {}, 10_000, count_words, "simple", following={101: _after()})
    assert ps[0].context == NOTICES + "\nMara Quist Phone: 0131 555 0100\n2.5 Consents."


def test_a_finished_passage_is_not_continued() -> None:
    done = "The fee is payable within thirty days of the invoice."
    ps = assemble([hit(done)], {}, 10_000, count_words, "simple", following={101: _after()})
    assert ps[0].context == done


def test_no_continuation_from_another_document_section_or_page() -> None:
    h = hit(NOTICES)
    assert continuation(h, _after(doc_id=2), NOTICES, count_words) == ""
    assert continuation(h, _after(section="Guide > Fees"), NOTICES, count_words) == ""
    assert continuation(h, _after(page_start=3), NOTICES, count_words) == ""
    paged = hit(NOTICES, page=2, page_end=3)
    assert continuation(paged, _after(page_start=3), NOTICES, count_words) != ""


def test_the_continuation_skips_what_the_passage_repeats_and_stays_short() -> None:
    overlapping = _after("14 Quay Street, Leith Attn:\nMara Quist\nPhone: 0131 555 0100\nMore.")
    assert continuation(hit(NOTICES), overlapping, NOTICES, count_words) == (
        "Mara Quist\nPhone: 0131 555 0100"
    )
    long_line = _after(" ".join(["word"] * 200) + ".")
    assert continuation(hit(NOTICES), long_line, NOTICES, count_words) == ""


def test_an_expanded_parent_is_continued_by_the_chunk_after_the_parent() -> None:
    child = "Leith Attn:"
    parent = NOTICES
    ps = assemble(
        [hit(child, parent_id=7)],
        {7: parent},
        10_000,
        count_words,
        "simple",
        following={101: _after("Not this one.")},
        after_parents={7: _after()},
    )
    assert ps[0].context == parent + "\nMara Quist Phone: 0131 555 0100\n2.5 Consents."


def test_the_continuation_is_left_out_when_the_budget_is_spent() -> None:
    first = hit(NOTICES)
    tight = count_words(passage_header(Passage(1, first, ""))) + 1 + count_words(NOTICES)
    ps = assemble_within_budget(
        [first], {}, tight, count_words, "simple", following={101: _after()}
    )
    assert ps[0].context == NOTICES


def test_the_chunk_after_is_continued_into_even_when_shown_itself() -> None:
    hits = [hit(NOTICES, rank=1), hit(NEXT, rank=2, chunk_id=102)]
    ps = assemble_within_budget(hits, {}, 10_000, count_words, "simple", following={101: _after()})
    assert "Attn:\nMara Quist" in ps[0].context
    assert ps[1].context == NEXT


def test_a_cut_sentence_is_continued_to_its_end_only() -> None:
    cut = "Since weak chains are not consistent, there would seem to"
    after = _after("be few settings where they are preferred.\nFinally, note the throughput.")
    assert continuation(hit(cut), after, cut, count_words) == (
        "be few settings where they are preferred."
    )
