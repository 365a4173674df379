from __future__ import annotations

import pytest

from answer_factories import passage
from citewise.answer.citations import build_citations, parse_references
from citewise.answer.grounding import check_answer
from citewise.extractive.answerer import ExtractiveAnswerer
from citewise.extractive.options import (
    ABSTAIN_BELOW,
    MISSING_NAME_PENALTY,
    ExtractiveOptions,
)
from citewise.rules.packs import API_REFERENCE
from fake_embedder import FAKE_THRESHOLD, answerer, one_sentence_answer

LOGGING = passage(
    1,
    "Logging provides a set of convenience functions for simple logging usage. "
    "The default level is WARNING, which means that only events of this level and above "
    "will be tracked, unless the logging package is configured to do otherwise. "
    "Events that are tracked can be handled in different ways.",
    source="howto/logging.html",
    section="Logging HOWTO > When to use logging",
)
DICT = passage(
    2,
    "Dictionaries compare equal if and only if they have the same key-value pairs. "
    "Dictionaries preserve insertion order. Note that updating a key does not affect the "
    "order. Keys added after deletion are inserted at the end.",
    source="library/stdtypes.html",
    section="Built-in Types > Mapping Types — dict",
)
TYPING = passage(
    3,
    "The @overload decorator allows describing functions and methods that support multiple "
    "different combinations of argument types. A decorator to indicate to type checkers "
    "that the decorated method cannot be overridden.",
    source="library/typing.html",
    section="typing > Functions and decorators",
)


def test_answers_with_the_best_supported_sentence_and_its_citation() -> None:
    a, _ = answerer()
    r = a.answer("Why are my logging info messages not tracked by default?", [DICT, LOGGING])
    assert not r.abstained
    assert "The default level is WARNING" in r.text
    assert {ref.n for ref in parse_references(r.text)} == {1}
    assert r.used_passages == (LOGGING,)
    assert r.best_score >= FAKE_THRESHOLD


def test_extractive_answer_is_grounded_and_cites_verbatim_quotes() -> None:
    a, _ = answerer()
    question = "What is the default logging level, and do dictionaries preserve insertion order?"
    r = a.answer(question, [LOGGING, DICT])
    report = check_answer(r.text, [LOGGING, DICT])
    assert report.grounded
    assert report.supported_text == r.text
    cits = build_citations(r.text, [LOGGING, DICT])
    assert sorted(c.n for c in cits) == [1, 2]
    by_n = {1: LOGGING, 2: DICT}
    for c in cits:
        assert c.source == by_n[c.n].hit.source
        assert c.quote and c.quote in by_n[c.n].context


def test_answer_is_short_not_a_dump_of_the_passage() -> None:
    a, _ = answerer()
    r = a.answer("Does a dictionary preserve insertion order?", [DICT, LOGGING])
    assert "Dictionaries preserve insertion order [2]." in r.text
    assert "compare equal" not in r.text
    assert len(r.support) <= 3


def test_abstains_when_question_identifier_is_absent() -> None:
    a, emb = answerer()
    r = a.answer("What does the typing.override decorator do?", [TYPING, LOGGING])
    assert r.abstained
    assert "typing.override" in r.reason
    assert parse_references(r.text) == []
    assert r.used_passages == ()
    assert emb.batches == []  # decided before any embedding work


def test_abstains_when_nothing_relevant_passes_the_threshold() -> None:
    a, _ = answerer()
    r = a.answer("Does the connection pool keep connections open?", [DICT, LOGGING])
    assert r.abstained
    assert r.best_score < FAKE_THRESHOLD
    assert r.support == ()


def test_the_top_passage_alone_does_not_carry_an_answer() -> None:
    question = "Which status code does the server send for a missing route?"
    exits = passage(1, "The following status codes are used: 1 means an uncaught exception.")
    a, _ = answerer(rank_weight=0.5)
    assert not a.answer(question, [exits]).abstained  # the rank bonus clears the threshold
    strict, _ = answerer(rank_weight=0.5, content_share=0.76)
    r = strict.answer(question, [exits])
    assert r.abstained
    assert r.reason.startswith("best sentence matches")


def test_threshold_is_a_parameter() -> None:
    question = "Does the connection pool keep connections open?"
    a, _ = answerer(threshold=0.0)
    assert not a.answer(question, [DICT, LOGGING]).abstained
    assert ExtractiveOptions().threshold == ABSTAIN_BELOW


def test_abstains_when_no_sentence_names_the_attribute_asked_for() -> None:
    pool = passage(
        1,
        "The request opener keeps one connection per host. Connections are closed after each "
        "request by default.",
        source="library/urllib.request.html",
    )
    a, _ = answerer(threshold=0.0)
    r = a.answer("What is the default size of the connection pool used by the opener?", [pool])
    assert r.kind != "answer"  # the closest passage at most, labelled as not stating it
    assert "siz" in r.reason


def test_question_about_a_version_no_passage_mentions_abstains() -> None:
    news = passage(1, "Python 3.5 was released on September 13, 2015.", source="whatsnew/3.5.html")
    a, _ = answerer(threshold=0.0)
    r = a.answer("On what date is Python 3.13 scheduled to be released?", [news])
    assert r.abstained
    assert "3.13" in r.reason


def test_name_no_passage_mentions_lowers_the_score() -> None:
    deps = passage(1, "Add each dependency of the project to the requirements file of the project.")
    a, _ = answerer(threshold=0.0)
    named = a.answer("How do I add a dependency to my project with Poetry?", [deps])
    plain = a.answer("How do I add a dependency to my project with poetry?", [deps])
    assert named.best_score == pytest.approx(plain.best_score - MISSING_NAME_PENALTY)


def test_the_entry_headed_by_the_asked_identifier_beats_a_neighbours_like_sentence() -> None:
    # two reference entries with the same "Returns:" line; the question names the second
    neighbour = passage(
        1, "Returns: the pool size if the request is OK.", section="Reference > open pool"
    )
    entry = passage(
        2, "Returns: the pool size if the request is OK.", section="Reference > pool size"
    )
    a, _ = answerer(threshold=0.0, rank_weight=0.0, document_weight=0.0, max_sentences=1)
    r = a.answer("What does pool_size return when the request is OK?", [neighbour, entry])
    assert r.text.endswith("[2].")
    flat, _ = answerer(
        threshold=0.0, rank_weight=0.0, document_weight=0.0, max_sentences=1, heading_weight=0.0
    )
    assert flat.answer(
        "What does pool_size return when the request is OK?", [neighbour, entry]
    ).text.endswith("[1].")


def test_no_passages_abstains() -> None:
    a, _ = answerer()
    assert a.answer("What is the default level?", []).abstained


def test_lead_in_fragment_brings_the_sentence_that_completes_it() -> None:
    p = passage(
        1,
        "Rounding of values exactly halfway between two integers goes to the even integer, "
        "as in this example:\nround(2.5) gives 2 and round(3.5) gives 4.\nOther text.",
    )
    a, _ = answerer(max_sentences=1)
    r = a.answer("How does rounding handle a value halfway between integers?", [p])
    assert r.text.endswith("as in this example: round(2.5) gives 2 and round(3.5) gives 4 [1].")


def test_sentence_starting_with_this_brings_its_predecessor_in_reading_order() -> None:
    p = passage(
        1,
        "Default values are computed when the function definition is executed. "
        "This means the same list value is shared by every call of the function.",
    )
    a, _ = answerer(max_sentences=1)
    r = a.answer("Is a list default value shared by every function call?", [p])
    assert r.text == (
        "Default values are computed when the function definition is executed [1]. "
        "This means the same list value is shared by every call of the function [1]."
    )


def test_a_source_line_is_no_antecedent() -> None:
    text = (
        "Source code: Lib/heapq.py\n"
        "This module provides an implementation of the heap queue algorithm for lists."
    )
    question = "Does the heap queue module provide a heap queue algorithm for lists?"
    assert one_sentence_answer(question, text) == (
        "This module provides an implementation of the heap queue algorithm for lists [1]."
    )


def test_a_sentence_referring_to_code_above_it_is_no_answer() -> None:
    text = (
        "Calling the callback synchronously is hazardous.\n"
        "someAsyncApiCall(() => { log(bar); }); bar();\n"
        "It is not clear whether the callback or the rest runs first."
    )
    question = "Is it clear whether the callback or the rest runs first?"
    a, _ = answerer(max_sentences=1)
    r = a.answer(question, [passage(1, text)])
    assert r.kind != "answer" or ("It is not clear" not in r.text and "bar();" not in r.text)


def test_two_part_question_takes_each_part_from_its_passage() -> None:
    a, _ = answerer()
    question = "What is the default logging level, and do dictionaries preserve insertion order?"
    r = a.answer(question, [LOGGING, DICT])
    assert "WARNING" in r.text and "insertion order" in r.text
    assert {ref.n for ref in parse_references(r.text)} == {1, 2}


def test_a_part_whose_best_sentence_is_below_the_threshold_gets_none() -> None:
    tuples = passage(
        2, "Tuples are immutable sequences, typically used to store heterogeneous data."
    )
    question = "What is the default logging level, and are tuples mutable?"
    flat = {"rank_weight": 0.0, "document_weight": 0.0, "type_weight": 0.0}
    low, _ = answerer(threshold=0.0, **flat)
    both = low.answer(question, [LOGGING, tuples])
    assert both.support[0] == both.best_score and len(both.support) == 2
    part = both.support[1]
    assert part < both.best_score  # the tuple part is the weaker one
    a, _ = answerer(threshold=(part + both.best_score) / 2, **flat)
    r = a.answer(question, [LOGGING, tuples])
    assert r.support == (both.best_score,)
    assert "Tuples" not in r.text


def test_a_later_part_is_answered_in_the_whole_questions_context() -> None:
    """ "… and what happens when the list is empty?" asks about the chosen sequence, not about
    any empty list: scored partly by the whole question, the part's answer stays on topic."""
    choice = passage(
        1,
        "random.choice(seq): Return a random element from the sequence seq. "
        "An empty sequence makes choice raise an error.",
        source="library/random.html",
    )
    other = passage(
        2, "An empty list of files removes the entire directory tree.", source="library/os.html"
    )
    question = (
        "How do I pick a random element from a sequence, and what happens when the list is empty?"
    )
    flat = {"threshold": 0.0, "rank_weight": 0.0, "document_weight": 0.0}
    alone, _ = answerer(later_part_context=0.0, **flat)
    assert "directory tree [2]" in alone.answer(question, [choice, other]).text
    in_context, _ = answerer(later_part_context=0.6, **flat)
    r = in_context.answer(question, [choice, other])
    assert "An empty sequence makes choice raise an error [1]." in r.text
    assert "directory" not in r.text


def test_comparison_takes_a_sentence_about_each_item() -> None:
    seq = passage(
        1,
        "Tuples are immutable sequences, typically used to store heterogeneous data. "
        "Lists are mutable sequences, typically used to store homogeneous items. "
        "Dictionaries preserve insertion order.",
        source="library/stdtypes.html",
    )
    a, _ = answerer()
    r = a.answer("What is the difference between a tuple and a list?", [seq, DICT])
    assert "Tuples are immutable" in r.text and "Lists are mutable" in r.text
    assert "Dictionaries" not in r.text


def test_near_duplicate_sentences_are_given_once() -> None:
    p = passage(
        1,
        "Dictionaries preserve insertion order. Dictionaries preserve the insertion order. "
        "Keys added after deletion are inserted at the end.",
    )
    a, _ = answerer()
    r = a.answer("Do dictionaries preserve insertion order?", [p])
    assert r.text.count("preserve") == 1


def test_candidates_are_embedded_in_one_capped_batch() -> None:
    many = passage(3, " ".join(f"Logging event number {i} is tracked here." for i in range(90)))
    a, emb = answerer(max_candidates=16)
    a.answer("Which logging events are tracked?", [many, LOGGING])
    assert emb.batches == [16]


def test_identifier_documented_without_its_module_prefix_is_found() -> None:
    p = passage(
        1,
        "heappop(heap): Pop and return the smallest item from the heap.",
        section="heapq — Heap queue algorithm",
        source="library/heapq.html",
    )
    a, _ = answerer(threshold=0.0)
    assert not a.answer("Does heapq.heappop() return the smallest item?", [p]).abstained


@pytest.mark.slow
def test_real_model_answers_a_paraphrase_and_refuses_a_near_miss() -> None:
    try:
        from citewise.embed import create_embedder

        embedder = create_embedder("minilm")
    except Exception as exc:  # the bundled model is optional in dev installs
        pytest.skip(f"bundled model unavailable: {type(exc).__name__}: {exc}")
    a = ExtractiveAnswerer(embedder)  # the calibrated default threshold
    r = a.answer("Does a dict keep the order keys were inserted in?", [LOGGING, DICT])
    assert not r.abstained
    assert r.text.startswith("Dictionaries preserve insertion order [2].")
    miss = a.answer("How do I add a dependency to my project with Poetry?", [LOGGING, DICT])
    assert miss.abstained
    pool = a.answer("What is the default size of the connection pool?", [LOGGING, DICT])
    assert pool.abstained


def test_a_question_in_the_passages_is_never_the_answer() -> None:
    from citewise.extractive.units import is_prose as _is_prose

    assert not _is_prose("Q: Is there a JIT compiler for Python?", 4)
    assert _is_prose("There is no JIT compiler in CPython 3.11.", 4)


def test_sentences_already_said_compare_equal_whatever_their_markers() -> None:
    from citewise.extractive.units import norm_sentence

    said = "It is used as a foundation for frameworks, servers, etc [1]."
    assert norm_sentence(said) == norm_sentence(
        "It is used as a foundation for frameworks, servers, etc."
    )


def test_version_notes_yield_to_the_current_value_unless_changes_are_asked_for() -> None:
    notes = passage(
        1,
        "Changed in version 3.10: the default pickle protocol is now used. "
        "The default protocol version is 4 for pickle.",
        source="library/pickle.html",
    )
    question = "What is the default pickle protocol version value?"
    unpenalised, _ = answerer(max_sentences=1, version_note_penalty=0.0, rules=API_REFERENCE)
    assert unpenalised.answer(question, [notes]).text.startswith("Changed in version 3.10")
    a, _ = answerer(max_sentences=1, rules=API_REFERENCE)
    assert a.answer(question, [notes]).text.startswith("The default protocol version is 4")
    changed = a.answer("What changed in the default pickle protocol version value?", [notes])
    assert changed.text.startswith("Changed in version 3.10")


def test_version_notes_in_other_spellings_yield_too() -> None:
    question = "What is the default pickle protocol version value?"
    a, _ = answerer(max_sentences=1, rules=API_REFERENCE)
    unpenalised, _ = answerer(max_sentences=1, version_note_penalty=0.0, rules=API_REFERENCE)
    current = "The default protocol version is 4 for pickle."
    node = passage(
        1, f"Added in: v8.2.0 the default pickle protocol version is now used. {current}"
    )
    assert unpenalised.answer(question, [node]).text.startswith("Added in: v8.2.0")
    assert a.answer(question, [node]).text.startswith("The default protocol version is 4")
    kept = passage(1, f"Added 3 to the default pickle protocol version value. {current}")
    not_a_note = a.answer(question, [kept])
    assert not_a_note.text.startswith("Added 3 to the default")
    assert not_a_note.best_score == unpenalised.answer(question, [kept]).best_score


def test_a_short_sentence_stating_the_value_beats_long_ones_repeating_the_question() -> None:
    text = (
        "The maximum size of the write buffer of the logging handler is configurable in the "
        "handler configuration of the logging system. "
        "The default is 10."
    )
    a, _ = answerer(max_sentences=2)
    answer = a.answer("What is the default maximum size of the write buffer?", [passage(1, text)])
    assert "The default is 10" in answer.text


def test_a_flattened_table_row_answers_only_a_question_naming_it() -> None:
    row = "specific_name sql_identifier routine_name character_data routine_schema"
    prose = "The routines view lists every function the current user may call."
    a, _ = answerer(max_sentences=1)
    passages = [passage(1, f"{row}\n{prose}")]
    assert "sql_identifier" not in a.answer("What does the routines view list?", passages).text


def test_a_flattened_table_row_answers_a_question_naming_one_of_its_cells() -> None:
    row = "Platform: Windows; Shell: cmd.exe; Command to activate: Scripts\\activate.bat"
    a, _ = answerer(max_sentences=1)
    answer = a.answer("How do I activate the environment on Windows?", [passage(1, row)])
    assert "activate.bat" in answer.text


def test_the_sentence_after_the_best_joins_it_when_only_it_states_the_value() -> None:
    text = (
        "The retry limit of the upload client controls how often an upload is repeated. "
        "It is 5. Uploads are logged."
    )
    question = "What is the retry limit of the upload client?"
    on, _ = answerer(max_sentences=2, stated_neighbour=True, min_words=2)
    off, _ = answerer(max_sentences=2, min_words=2)
    assert "It is 5" in on.answer(question, [passage(1, text)]).text
    assert "It is 5" not in off.answer(question, [passage(1, text)]).text


def test_the_sentence_right_after_the_best_joins_it_on_a_lower_bar() -> None:
    text = (
        "The pool size of the connection pool is set when the opener is made. "
        "It is ten connections per handler unless a request asks for more. "
        "The weight of a glob pattern is unrelated to lists."
    )
    question = "What is the pool size of the connection pool?"
    near, _ = answerer(max_sentences=3, min_words=2, adjacent_floor=0.1)
    far, _ = answerer(max_sentences=3, min_words=2, adjacent_floor=0.85)
    assert "ten connections" in near.answer(question, [passage(1, text)]).text
    assert "ten connections" not in far.answer(question, [passage(1, text)]).text


def test_an_answer_the_answer_calibration_doubts_is_shown_as_the_labelled_passage(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from citewise.extractive import outcome as outcome_module

    a, _ = answerer()
    sure = a.answer("What is the default logging level?", [LOGGING, DICT])
    assert sure.kind == "answer" and sure.evidence
    monkeypatch.setattr(outcome_module, "states_confidently", lambda *_: False)
    unsure = a.answer("What is the default logging level?", [LOGGING, DICT])
    assert unsure.kind == "passage" and not unsure.abstained
    assert unsure.text == sure.text and unsure.used_passages == sure.used_passages


def test_answers_stay_answers_when_doubting_is_switched_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from citewise.extractive import outcome as outcome_module

    monkeypatch.setattr(outcome_module, "states_confidently", lambda *_: False)
    a, _ = answerer(doubt_answers=False)
    assert a.answer("What is the default logging level?", [LOGGING, DICT]).kind == "answer"


def test_a_sentence_leaning_back_is_embedded_after_its_heading_path_when_asked() -> None:
    from citewise.extractive.candidates import CandidateSentence, embedded_text

    release = passage(4, "This release adds a JIT compiler.", section="What's New In 3.13")
    leaning = CandidateSentence(release, 0, "This release adds a JIT compiler.", 1.0, frozenset())
    plain = CandidateSentence(LOGGING, 0, "Logging provides a set of functions.", 1.0, frozenset())
    expected = "What's New In 3.13: This release adds a JIT compiler."
    assert embedded_text(leaning, anaphor_heading=True) == expected
    assert embedded_text(plain, anaphor_heading=True) == plain.text
    assert embedded_text(leaning, anaphor_heading=False) == leaning.text
