from __future__ import annotations

from answer_factories import passage
from citewise.answer.citations import parse_references
from citewise.extractive.key_sentences import summarize_extractive
from citewise.text.sentences import split_sentences, strip_citation_marks

SORTING = [
    passage(
        1,
        "Python lists have a built-in list.sort() method that modifies the list in-place. "
        "There is also a sorted() built-in function that builds a new sorted list from an "
        "iterable.",
        section="Sorting HOWTO > Sorting Basics",
    ),
    passage(
        2,
        "Note: this is short. Both list.sort() and sorted() have a key parameter to specify "
        "a function to be called on each list element prior to making comparisons. The value "
        "of the key parameter should be a function that takes a single argument and returns a "
        "key to use for sorting purposes. A common pattern is to sort complex objects using "
        "some of the object's indices as keys.",
        section="Sorting HOWTO > Key Functions",
    ),
    passage(
        3,
        "Sorts are guaranteed to be stable. That means that when multiple records have the "
        "same key, their original order is preserved.",
        section="Sorting HOWTO > Sort Stability",
    ),
]


def test_summary_opens_each_section_in_page_order_with_citations() -> None:
    text = summarize_extractive(SORTING, max_sentences=3)
    paragraphs = text.split("\n\n")
    assert len(paragraphs) == 3
    assert paragraphs[0].startswith("Python lists have a built-in list.sort() method")
    assert paragraphs[1].startswith("Both list.sort() and sorted() have a key parameter")
    assert paragraphs[2].startswith("Sorts are guaranteed to be stable")
    assert [r.n for r in parse_references(text)] == [1, 2, 3]


def test_short_fragments_and_notes_are_skipped() -> None:
    assert "Note: this is short" not in summarize_extractive(SORTING, max_sentences=6)


def test_with_room_the_central_sentence_of_a_section_is_added_in_reading_order() -> None:
    text = summarize_extractive(SORTING, max_sentences=6)
    key = text.split("\n\n")[1]
    assert "The value of the key parameter" in key
    assert key.index("Both list.sort()") < key.index("The value of the key parameter")


def test_budget_prefers_every_section_over_a_second_sentence_of_one() -> None:
    text = summarize_extractive(SORTING, max_sentences=2)
    assert [r.n for r in parse_references(text)] == [1, 2]


def test_every_sentence_is_verbatim_from_the_passage_it_cites() -> None:
    text = summarize_extractive(SORTING, max_sentences=6)
    by_n = {p.n: p.context for p in SORTING}
    sentences = split_sentences(text)
    assert len(sentences) >= 4
    for sentence in sentences:
        (ref,) = parse_references(sentence)
        assert ref.n is not None
        assert strip_citation_marks(sentence) in by_n[ref.n]


def test_nothing_to_summarise_gives_empty_text() -> None:
    assert summarize_extractive([], max_sentences=5) == ""
