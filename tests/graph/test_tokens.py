"""How rules see words: tokens, where a clause opens, and each word's shape."""

from __future__ import annotations

from citewise.graph.rules.names import capitalised_runs, find_names, inside_phrases
from citewise.graph.rules.tokens import (
    Sentence,
    WordEvidence,
    is_heading_like,
    singular_acronym,
    tokenize,
    word_shape,
)


def _sentence(text: str) -> Sentence:
    tokens = tokenize(text)
    return Sentence(1, text, tokens, is_heading_like(text, tokens))


def test_tokenize_drops_a_possessive_and_keeps_offsets() -> None:
    tokens = tokenize("Use PostgreSQL’s planner and Debian's tools.")
    assert [t.text for t in tokens] == ["Use", "PostgreSQL", "planner", "and", "Debian", "tools"]
    assert all(
        "Use PostgreSQL’s planner and Debian's tools."[t.start : t.end] == t.text for t in tokens
    )


def test_a_word_opens_after_a_dot_word_or_an_opening_mark() -> None:
    tokens = tokenize("See etc. Then this: More (Inside) words")
    opens = {t.text: t.opens for t in tokens}
    assert opens == {
        "See": True,
        "etc": False,
        "Then": False,
        "this": False,
        "More": True,
        "Inside": True,
        "words": False,
    }
    # a word never ends in a dot unless a possessive is taken off ("U.S.'s")
    assert [(t.text, t.opens) for t in tokenize("the U.S.'s Next")] == [
        ("the", True),
        ("U.S.", False),
        ("Next", True),
    ]


def test_word_shapes() -> None:
    assert word_shape("CPUs").allcaps and word_shape("TCP").allcaps
    assert not word_shape("IPv6").allcaps and not word_shape("tcp").allcaps
    assert word_shape("Debian").title and not word_shape("DEBIAN").title
    assert word_shape("PostgreSQL").camel and not word_shape("iOS").camel
    assert word_shape("WAL-related").compound and not word_shape("UTF-8").compound
    assert word_shape("os.path").identifier and word_shape("max_size").identifier
    assert not word_shape("v1").identifier


def test_singular_acronym_only_strips_a_plural_of_capitals() -> None:
    assert singular_acronym("CPUs") == "CPU"
    assert [singular_acronym(w) for w in ("Bus", "As", "bugs", "s", "")] == [
        "Bus",
        "As",
        "bugs",
        "s",
        "",
    ]


def test_names_read_from_given_runs_equal_names_found_alone() -> None:
    sentence = _sentence(
        "Then the Filesystem Hierarchy Standard and GNU General Public License apply."
    )
    evidence = WordEvidence()
    evidence.add(sentence)
    runs = capitalised_runs(sentence)
    assert find_names(sentence, evidence, runs) == find_names(sentence, evidence)
    assert inside_phrases(sentence, runs) == inside_phrases(sentence)
    assert [m.name for m in find_names(sentence, evidence)] == [
        "Filesystem Hierarchy Standard",
        "GNU General Public License",
    ]
