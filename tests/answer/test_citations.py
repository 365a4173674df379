from __future__ import annotations

from answer_factories import hit, passage
from citewise.answer.citations import (
    CitationMark,
    build_citations,
    canonical_markers,
    dice,
    match_reference,
    parse_references,
    related_docs,
    renumber,
)
from citewise.answer.quotes import best_quote
from citewise.types import Citation


def _numbers(text: str) -> list[int | None]:
    return [r.n for r in parse_references(text)]


def test_parses_single_list_and_adjacent_numeric_references() -> None:
    assert _numbers("A [1]. B [1, 3]. C [2][4]. D [5-7].") == [1, 1, 3, 2, 4, 5, 6, 7]


def test_parses_title_section_label_reference() -> None:
    refs = parse_references("Keys keep their order [Built-in Types > Mapping Types].")
    assert refs == [CitationMark(22, 54, label="Built-in Types > Mapping Types")]


def test_indexing_and_markdown_links_are_not_references() -> None:
    assert parse_references("Use a[0] or dict[str] and see [the docs](https://x.org).") == []


def test_numeric_reference_matches_passage_by_number() -> None:
    ps = [passage(1, "a"), passage(2, "b")]
    assert match_reference(CitationMark(0, 3, n=2), ps) is ps[1]
    assert match_reference(CitationMark(0, 3, n=9), ps) is None


def test_exact_tier_matches_title_and_section() -> None:
    ps = [
        passage(1, "a", title="Logging HOWTO", section="Basic Tutorial"),
        passage(2, "b", title="Built-in Types", section="Mapping Types"),
    ]
    ref = CitationMark(0, 1, label="built-in types › mapping types")
    assert match_reference(ref, ps) is ps[1]


def test_contains_tier_matches_shortened_section() -> None:
    ps = [
        passage(1, "a", title="Logging HOWTO", section="Logging HOWTO > When to use logging"),
        passage(2, "b", title="Sorting HOWTO", section="Sorting HOWTO > Key Functions"),
    ]
    assert match_reference(CitationMark(0, 1, label="Key Functions"), ps) is ps[1]


def test_dice_tier_matches_misspelt_section_reference() -> None:
    ps = [
        passage(1, "a", title="Logging HOWTO", section="Logging HOWTO > Advanced"),
        passage(2, "b", title="Sorting HOWTO", section="Sorting HOWTO > Key Functions"),
    ]
    ref = CitationMark(0, 1, label="Sortng HowTo > Key Functons")
    assert dice("Sortng HowTo > Key Functons", "sorting howto > key functions") > 0.5
    assert match_reference(ref, ps) is ps[1]


def test_unrelated_label_matches_nothing() -> None:
    ps = [passage(1, "a", title="Logging HOWTO", section="Logging HOWTO > Advanced")]
    assert match_reference(CitationMark(0, 1, label="Pizza recipes"), ps) is None


def test_dice_coefficient_bounds() -> None:
    assert dice("night", "night") == 1.0
    assert dice("night", "nacht") == 0.25
    assert dice("a", "b") == 0.0


def test_canonical_markers_rewrite_labels_and_drop_unknown() -> None:
    ps = [passage(1, "a", title="Sorting HOWTO", section="Sorting HOWTO > Key Functions")]
    text = "Sorts are stable [Sorting HOWTO > Key Functions]. Made up [7]."
    assert canonical_markers(text, ps) == "Sorts are stable [1]. Made up."


def test_citations_are_deduped_and_quote_the_supporting_sentence() -> None:
    ps = [
        passage(
            1,
            "Sorting is easy. The sort is guaranteed to be stable. Keys are called once.",
            source="howto/sorting.html",
            page=4,
        ),
        passage(2, "Lists are mutable sequences.", source="library/stdtypes.html"),
    ]
    text = "Sorts are stable [1]. Lists are mutable [2]. Keys are called once per item [1]."
    cits = build_citations(text, ps)
    assert [c.n for c in cits] == [1, 2]
    assert cits[0].source == "howto/sorting.html" and cits[0].page == 4
    assert cits[0].quote in ps[0].context
    assert "stable" in cits[0].quote or "once" in cits[0].quote
    assert cits[1].quote == "Lists are mutable sequences."


def test_quote_is_verbatim_and_short() -> None:
    long = "Word " + "word " * 200
    text = f"The default level is WARNING. {long.strip()}."
    assert best_quote("default level warning", text) == "The default level is WARNING."
    assert len(best_quote("word word", text)) <= 300
    assert best_quote("word word", text) in text


def test_quote_of_lead_in_fragment_takes_the_next_sentence() -> None:
    text = "Other things. Use it like this:\n>>> round(2.5)"
    assert best_quote("use it like this", text) == "Use it like this: >>> round(2.5)"


def test_renumber_orders_citations_by_first_use() -> None:
    cits = (
        Citation(2, "b.html", None, "B", 12, "qb"),
        Citation(5, "e.html", None, "E", 15, "qe"),
    )
    text, out = renumber("First [5]. Second [2, 5]. Ghost [9].", cits)
    assert text == "First [1]. Second [2, 1]. Ghost."
    assert [(c.n, c.source) for c in out] == [(1, "e.html"), (2, "b.html")]


def test_related_docs_are_uncited_sources_in_rank_order() -> None:
    hits = [
        hit(rank=3, source="c.html"),
        hit(rank=1, source="a.html"),
        hit(rank=2, source="b.html"),
        hit(rank=4, source="b.html"),
    ]
    cited = [Citation(1, "a.html", None, "", 1, "q")]
    assert related_docs(hits, cited) == ("b.html", "c.html")


def test_related_docs_leave_out_hits_far_below_the_top() -> None:
    hits = [
        hit(rank=1, source="a.html", score=1.6),
        hit(rank=2, source="b.html", score=1.3),
        hit(rank=3, source="c.html", score=0.8),
    ]
    cited = [Citation(1, "a.html", None, "", 1, "q")]
    assert related_docs(hits, cited, floor=0.7) == ("b.html",)
    assert related_docs(hits, cited) == ("b.html", "c.html")
