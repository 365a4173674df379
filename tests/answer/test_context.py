from __future__ import annotations

from dataclasses import replace

from answer_factories import hit
from citewise.answer.context import (
    assemble,
    assemble_within_budget,
    passage_header,
    render_context,
    select_hits,
)
from citewise.answer.policy import POLICIES
from citewise.types import ChunkRecord, Passage


def count_words(text: str) -> int:
    return len(text.split())


LONG = "Rotation keeps seven files and compresses the older ones with gzip. " * 8  # 88 words


def test_header_shows_source_section_and_page_range() -> None:
    p = Passage(3, hit("x", source="guide.pdf", section="Ops > Logs", page=4, page_end=5), "x")
    assert passage_header(p) == "[3] guide.pdf › Ops > Logs (p. 4–5)"
    single = Passage(1, hit("x", source="a.md", section="", page=2, page_end=2), "x")
    assert passage_header(single) == "[1] a.md (p. 2)"
    assert passage_header(Passage(2, hit("x", source="a.md", section="A"), "x")) == "[2] a.md › A"


def test_render_context_numbers_passages_in_order() -> None:
    ps = [
        Passage(1, hit("a", source="a.md", section=""), "Alpha."),
        Passage(2, hit("b", source="b.md", section=""), "Beta."),
    ]
    assert render_context(ps) == "[1] a.md\nAlpha.\n\n[2] b.md\nBeta."


def test_adaptive_k_gives_simple_questions_fewer_passages() -> None:
    hits = [hit(LONG, rank=r, score=1.0) for r in range(1, 11)]
    assert len(select_hits(hits, "simple")) == POLICIES["simple"].passages == 3
    assert len(select_hits(hits, "complex")) == POLICIES["complex"].passages
    assert POLICIES["complex"].passages > POLICIES["simple"].passages


def test_hits_far_below_the_top_score_are_filtered() -> None:
    hits = [hit("a", rank=1, score=0.9), hit("b", rank=2, score=0.6), hit("c", rank=3, score=0.2)]
    assert [h.rank for h in select_hits(hits, "complex")] == [1, 2]
    # a list one passage a document first is not ordered by score: nothing is cut by it
    assert [h.rank for h in select_hits(hits, "complex", min_relative=0.0)] == [1, 2, 3]
    kept = assemble(hits, {}, 10_000, count_words, "complex", min_relative=0.0)
    assert [p.hit.rank for p in kept] == [1, 2, 3]


def test_passages_are_numbered_from_one_in_rank_order() -> None:
    hits = [hit(LONG, rank=2, source="b.md"), hit(LONG, rank=1, source="a.md")]
    ps = assemble(hits, {}, 10_000, count_words, "complex")
    assert [(p.n, p.hit.source) for p in ps] == [(1, "a.md"), (2, "b.md")]


def test_short_child_is_expanded_to_its_parent_when_budget_allows() -> None:
    child = "Keep seven rotated files."
    parent = f"Rotate the logs nightly. {child} Compress the older ones with gzip."
    ps = assemble([hit(child, parent_id=7)], {7: parent}, 1000, count_words, "simple")
    assert ps[0].context == parent


def test_short_child_stays_a_child_when_the_parent_does_not_fit() -> None:
    child = "Keep seven rotated files."
    parent = f"{child} " + "More words here. " * 100
    ps = assemble([hit(child, parent_id=7)], {7: parent}, 60, count_words, "simple")
    assert ps[0].context == child


def test_long_self_contained_child_is_not_expanded() -> None:
    parent = LONG + " Other topics follow."
    ps = assemble([hit(LONG, parent_id=7)], {7: parent}, 10_000, count_words, "simple")
    assert ps[0].context == LONG


def test_child_starting_mid_thought_is_expanded() -> None:
    child = "This means the expression is evaluated once. " * 10
    parent = "Default values are evaluated when the function is defined. " + child
    ps = assemble([hit(child, parent_id=7)], {7: parent}, 10_000, count_words, "simple")
    assert ps[0].context == parent


def test_child_opening_on_a_nested_item_is_expanded_to_the_slide() -> None:
    # the slide's first bullet, which the nested items hang under, is in the chunk before
    child = "  - Can have a unique token for each function for every sensitive request\n" * 8
    parent = "- Add a secret token to ALL sensitive requests\n" + child
    ps = assemble([hit(child, parent_id=7)], {7: parent}, 10_000, count_words, "simple")
    assert ps[0].context == parent


def test_two_children_of_one_parent_become_one_passage() -> None:
    parent = LONG + " " + LONG
    hits = [hit(LONG, rank=1, parent_id=7), hit(LONG, rank=2, parent_id=7), hit(LONG, rank=3)]
    ps = assemble(hits, {7: parent}, 10_000, count_words, "complex")
    assert [p.hit.rank for p in ps] == [1, 3]
    assert ps[0].context == parent
    assert [p.n for p in ps] == [1, 2]


def test_assembly_stops_at_the_budget() -> None:
    hits = [hit(LONG, rank=r) for r in range(1, 6)]
    ps = assemble(hits, {}, 200, count_words, "complex")
    used = sum(count_words(passage_header(p)) + 1 + count_words(p.context) for p in ps)
    assert len(ps) == 2
    assert used <= 200


def test_first_passage_is_cut_to_the_budget_by_sentences() -> None:
    ps = assemble([hit(LONG)], {}, 40, count_words, "simple")
    assert len(ps) == 1
    assert ps[0].context.startswith("Rotation keeps seven files")
    assert count_words(ps[0].context) < 40
    assert ps[0].context.endswith(".")


def _before(text: str, *, chunk_id: int = 100, section: str = "Guide > Intro") -> ChunkRecord:
    return ChunkRecord(chunk_id, 1, "guide.html", "Guide", section, None, None, text, 999)


POINT = "Intro words. Setup is short. The str() form is for people, repr() for the interpreter."


def test_child_is_led_in_by_the_end_of_the_chunk_before_it() -> None:
    ps = assemble([hit(LONG)], {}, 10_000, count_words, "simple", {101: _before(POINT)})
    assert ps[0].context == (
        "Setup is short. The str() form is for people, repr() for the interpreter.\n" + LONG
    )


def test_no_lead_in_from_another_section_or_page() -> None:
    other = {101: _before(POINT, section="Guide > Setup")}
    assert assemble([hit(LONG)], {}, 10_000, count_words, "simple", other)[0].context == LONG
    paged = hit(LONG, page=5, page_end=5)
    page4 = {101: _before(POINT)}  # page_end None: not on page 5
    assert assemble([paged], {}, 10_000, count_words, "simple", page4)[0].context == LONG


def test_no_lead_in_from_the_same_parent_or_of_what_the_child_repeats() -> None:
    sibling = {101: replace(_before(POINT), parent_id=1001)}  # hit()'s parent for rank 1
    assert assemble([hit(LONG)], {}, 10_000, count_words, "simple", sibling)[0].context == LONG
    overlapping = hit("The str() form is for people, repr() for the interpreter. " + LONG)
    ps = assemble([overlapping], {}, 10_000, count_words, "simple", {101: _before(POINT)})
    assert ps[0].context == "Intro words. Setup is short.\n" + overlapping.text


def test_no_lead_in_when_the_chunk_before_is_a_passage_itself_or_the_parent_is_used() -> None:
    both = [hit(LONG, rank=1), hit(POINT, rank=2, chunk_id=100)]
    ps = assemble(both, {}, 10_000, count_words, "complex", {101: _before(POINT)})
    assert ps[0].context == LONG
    child = "This means the expression is evaluated once. " * 10
    parent = "Default values are evaluated when the function is defined. " + child
    expanded = assemble(
        [hit(child, parent_id=7)], {7: parent}, 10_000, count_words, "simple", {101: _before(POINT)}
    )
    assert expanded[0].context == parent


def test_lead_in_is_left_out_when_the_budget_is_spent() -> None:
    tight = count_words(passage_header(Passage(1, hit(LONG), ""))) + 1 + count_words(LONG)
    ps = assemble([hit(LONG)], {}, tight, count_words, "simple", {101: _before(POINT)})
    assert ps[0].context == LONG


def test_complex_questions_read_the_whole_parent() -> None:
    parent = "A descriptor is any object defining __get__(). " + LONG
    ps = assemble([hit(LONG, parent_id=7)], {7: parent}, 10_000, count_words, "complex")
    assert ps[0].context == parent
    simple = assemble([hit(LONG, parent_id=7)], {7: parent}, 10_000, count_words, "simple")
    assert simple[0].context == LONG


def test_an_expanded_parent_is_led_in_by_the_chunk_before_it() -> None:
    parent = "A descriptor is any object defining __get__(). " + LONG
    before = {7: _before(POINT)}
    ps = assemble([hit(LONG, parent_id=7)], {7: parent}, 10_000, count_words, "complex", {}, before)
    assert ps[0].context == (
        "Setup is short. The str() form is for people, repr() for the interpreter.\n" + parent
    )


def test_the_llm_context_takes_every_ranked_hit_the_budget_allows() -> None:
    hits = [hit(f"Fact number {r} about logs.", rank=r, score=1.0 / r) for r in range(1, 11)]
    ps = assemble_within_budget(hits, {}, 10_000, count_words, "simple")
    assert [p.hit.rank for p in ps] == list(range(1, 11))  # no count per kind, no score floor
    tight = assemble_within_budget(hits, {}, 30, count_words, "simple")
    assert 1 < len(tight) < 10
    assert sum(count_words(p.context) + count_words(passage_header(p)) for p in tight) <= 30


def test_the_llm_context_leaves_out_duplicate_texts_and_skips_one_too_long() -> None:
    hits = [
        hit("Keep seven rotated files.", rank=1, source="a.md"),
        hit("Keep  seven rotated files.", rank=2, source="copy.md"),
        hit(LONG, rank=3, source="long.md"),
        hit("Compress the older ones.", rank=4, source="b.md"),
    ]
    ps = assemble_within_budget(hits, {}, 80, count_words, "simple")
    assert [p.hit.source for p in ps] == ["a.md", "b.md"]
    assert [p.n for p in ps] == [1, 2]
