from __future__ import annotations

from answer_factories import passage
from citewise.question.terms import facets, focus, headed_by, key_terms, mentions, names
from citewise.text.sentences import stem


def test_key_terms_are_the_code_identifiers_of_the_question() -> None:
    assert key_terms("What does typing.override do with exist_ok in PYTHONPATH?") == [
        "typing.override",
        "exist_ok",
        "pythonpath",
    ]
    assert key_terms("How do I sort a list of tuples?") == []


def test_file_names_are_not_key_terms() -> None:
    assert key_terms("How do I read a pyproject.toml file with tomllib.load?") == ["tomllib.load"]


def test_version_is_the_key_term_only_without_an_identifier() -> None:
    assert key_terms("When is Python 3.13 released?") == ["3.13"]
    assert key_terms("What is pickle.DEFAULT_PROTOCOL in Python 3.11?") == [
        "pickle.default_protocol"
    ]


def test_names_are_capitalised_words_inside_the_question() -> None:
    assert names("How do I add a dependency with Poetry on Windows?") == ["poetry", "windows"]
    assert names("Does Python's round() go to even? Is it False?") == ["python"]


def test_two_part_question_has_two_facets() -> None:
    assert facets("What command creates a venv, and how do I activate it on Windows?") == [
        "What command creates a venv",
        "how do I activate it on Windows",
    ]
    assert facets("Read the file using tomllib, and in which mode must it be opened?") == [
        "Read the file using tomllib",
        "in which mode must it be opened",
    ]


def test_continuation_with_and_is_not_a_second_facet() -> None:
    q = "What happens when I append to a deque that was created with maxlen and is full?"
    assert facets(q) == [q.rstrip("?")]


def test_comparison_has_one_facet_per_item() -> None:
    assert facets("What is the difference between copy.copy() and copy.deepcopy()?") == [
        "What is copy.copy()?",
        "What is copy.deepcopy()?",
    ]
    assert facets("How do str() and repr() differ?") == ["What is str()?", "What is repr()?"]
    assert len(facets("When should I use a tuple instead of a list?")) == 2


def test_focus_is_the_attribute_asked_for_unless_generic() -> None:
    assert focus("What is the default size of the connection pool?") == stem("size")
    assert focus("How many bytes of randomness are enough?") == stem("bytes")
    assert focus("What is the value of pickle.DEFAULT_PROTOCOL?") is None
    assert focus("Does heapq.heappop() return the smallest item?") is None


def test_mentions_matches_whole_names_and_documented_functions() -> None:
    p = passage(
        1,
        "heappop(heap): Pop and return the smallest item. See also reducer_override.",
        section="heapq — Heap queue algorithm",
    )
    assert mentions(p, "heapq.heappop")
    assert mentions(p, "heappop")
    assert not mentions(p, "heapq.override")
    assert not mentions(p, "heap.pop")
    assert not mentions(passage(1, "Changed in version 3.13.1."), "3.13")


def test_a_version_after_a_names_hyphen_is_mentioned_but_not_after_a_minus() -> None:
    licence = passage(1, "Permission is granted to copy this library.", source="lgpl-2.1.txt")
    assert mentions(licence, "2.1")
    assert not mentions(passage(1, "The offset may be -2.1 or more."), "2.1")
    assert not mentions(passage(1, "Pages 1-2.1 list them."), "2.1")


def test_a_heading_spelling_an_identifier_with_spaces_names_it() -> None:
    # Texinfo manuals head the entry for asn1_der_coding "asn1 der coding"
    p = passage(1, "Creates the DER encoding.", section="Reference > DER > asn1 der coding")
    assert mentions(p, "asn1_der_coding") and headed_by(p, "asn1_der_coding")
    assert not mentions(p, "asn1_der_decoding")
    other = passage(2, "See asn1_der_coding for the encoder.", section="Reference > asn1 read")
    assert mentions(other, "asn1_der_coding") and not headed_by(other, "asn1_der_coding")
    entry = passage(3, "Return a JSON string.", section="json > json.dumps(obj, *, indent=None)")
    assert headed_by(entry, "json.dumps") and not headed_by(entry, "json")


def test_later_parts_that_say_it_carry_the_first_parts_subject() -> None:
    from citewise.question.terms import carry_subject

    parts = ["What is functools.lru_cache's default size", "how do I make it unbounded"]
    assert carry_subject(parts)[1] == "how do I make it unbounded (functools.lru_cache)"
    assert carry_subject(["What is a list", "when is it copied"]) == [
        "What is a list",
        "when is it copied",
    ]
