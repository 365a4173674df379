"""Definitional questions and the sentences that answer them (pure)."""

from __future__ import annotations

from answer_factories import passage
from citewise.extractive.definitions import (
    defines,
    opening_index,
    promote_definitions,
    subject_heading,
)
from citewise.question.subject import definition_subject
from citewise.rules.packs import API_REFERENCE
from citewise.text.sentences import stem
from citewise.types import Hit
from fake_embedder import answerer, one_sentence_answer


def test_definitional_questions_name_their_subject() -> None:
    assert definition_subject("What is a descriptor in Python?") == ("descriptor",)
    assert definition_subject("What does functools.lru_cache do?")[-1] == stem("cache")
    assert definition_subject("How do generators work?") == ("generator",)
    assert definition_subject("Why is my build slow?") == ()
    assert definition_subject("What is the default timeout of the pool in seconds?") == ()
    assert definition_subject("What does the bisect module do?") == ("bisect",)
    assert definition_subject("What does the heapq module provide?") == ("heapq",)
    assert definition_subject("What do the itertools offer?") == ("itertool",)
    assert definition_subject("What does Counter.most_common() return?")[-1] == stem("common")
    assert definition_subject("What is the purpose of the __slots__ declaration?") == ("slot",)
    assert definition_subject("What does the module do?") == (stem("module"),)


def test_the_opening_sentence_comes_after_source_lines_parameters_and_returns() -> None:
    assert opening_index("Source code: Lib/bisect.py\nThis module keeps a list sorted.") == 1
    assert opening_index("Delete an entire tree. Then more.") == 0
    assert opening_index("Source code: Lib/bisect.py") is None
    # an option's other names on a line of their own (Texinfo: "-v" heads "--verbose")
    assert opening_index("--verbose\nUse the built-in verbose format.") == 1
    assert opening_index("-o FILE, --output=FILE\nWrite to FILE.") == 1
    assert opening_index("--leak-check=<no|full> [default: no]: When enabled, search.") == 0
    # a C entry opens with its declaration
    declared = "typedef struct {\n  char *next_in;\n} bz_stream;\nint f ( bz_stream *strm,\n"
    assert opening_index(declared + "   int small );\nPrepares for decompression. It is fast.") == 3
    node = (
        "- options {Object}\n"
        "  - cache {boolean} By default, it caches. To skip it, set it. Default: false.\n"
        "- Returns: {string}\n"
        "Generates a random version 4 UUID. It is random."
    )
    assert opening_index(node) == 5


def test_the_heading_that_names_the_subject_shows_as_an_answer_would() -> None:
    subject = definition_subject("What does shutil.rmtree() do?")
    long_entry = "shutil > shutil.rmtree(path, ignore_errors=False, onerror=None, *, dir_fd=None)"
    assert subject_heading(subject, long_entry) == "shutil.rmtree()"
    assert subject_heading(subject, "shutil > shutil.rmtree(path)") == "shutil.rmtree(path)"
    assert subject_heading(("bisect",), "bisect — Array bisection algorithm") == (
        "bisect — Array bisection algorithm"
    )
    assert subject_heading(subject, "shutil > shutil.copytree(src, dst)") is None


def test_an_entry_that_never_names_its_subject_answers_what_it_does() -> None:
    entry = passage(
        2,
        "Delete an entire directory tree. Files are removed one by one.",
        source="library/shutil.html",
        section="shutil > shutil.rmtree(path)",
    )
    mention = passage(
        1,
        "Tests call shutil.rmtree() to delete files, remove directory trees and remove files.",
        source="library/test.html",
        section="test > Helpers",
    )
    a, emb = answerer(
        max_sentences=1,
        rank_weight=0.0,
        document_weight=0.0,
        definition_weight=0.0,
        rules=API_REFERENCE,
    )
    r = a.answer("What does shutil.rmtree() do?", [mention, entry])
    assert emb.batches == [4]  # three sentences and the framed one, in one batch
    # scored as "shutil.rmtree(path): Delete …", the heading it stands under
    assert r.text == "shutil.rmtree(path): Delete an entire directory tree [2]."


def test_a_sentence_that_opens_with_the_subject_and_a_defining_verb_defines_it() -> None:
    subject = ("descriptor",)
    assert defines(subject, "In general, a descriptor is an attribute value.", False, "Intro")
    assert defines(subject, "Descriptors are a powerful protocol.", False, "Intro")
    assert not defines(subject, "Understanding descriptors is a key to Python.", False, "Intro")
    assert not defines(subject, "Learning about descriptors helps.", False, "Intro")
    opening = "Any object which defines __get__()."
    assert defines(subject, opening, True, "Glossary > descriptor")
    assert not defines(subject, opening, False, "Glossary > descriptor")
    assert not defines(subject, opening, True, "Glossary > generator")


def test_a_definition_list_defines_and_a_passive_use_does_not() -> None:
    subject = ("enumeration",)
    listed = "An enumeration: - is a set of symbolic names bound to unique values"
    assert defines(subject, listed, False, "enum")
    assert not defines(subject, "Enumerations are created by using class syntax:", False, "enum")
    assert defines(subject, "Enumerations are called enums for short.", False, "enum")


def _hit(rank: int, title: str, section: str, score: float) -> Hit:
    return Hit(rank, rank, rank, f"{rank}.html", title, None, None, section, score, "t", rank)


def test_pages_about_the_subject_move_up_for_definitional_questions() -> None:
    hits = [
        _hit(1, "What's New In Python 3.8", "What's New > Improved Modules > logging", 2.0),
        _hit(2, "Developing with asyncio", "Developing with asyncio", 1.9),
        _hit(3, "asyncio — Asynchronous I/O", "asyncio — Asynchronous I/O", 1.7),
    ]
    promoted = promote_definitions(hits, ("asyncio",))
    assert [h.rank for h in promoted] == [1, 2, 3]
    assert promoted[0].title.startswith("asyncio")
    assert promote_definitions(hits, ()) == hits


def test_a_chapter_number_does_not_hide_what_a_page_is_about() -> None:
    hits = [
        _hit(1, "8. Cachegrind: a cache profiler", "Cachegrind > Options", 2.0),
        _hit(2, "9. Massif: a heap profiler", "9. Massif: a heap profiler", 1.6),
    ]
    assert promote_definitions(hits, ("massif",))[0].title.startswith("9. Massif")


def test_a_command_line_option_is_the_subject_it_names() -> None:
    assert definition_subject("What does the -m command line option do?") == ("-m",)
    assert definition_subject("What does python -B do?") == ("-B",)
    assert definition_subject("What is the --leak-check option?") == ("--leak-check",)
    assert subject_heading(("-m",), "Command line > -m <module-name>") == "-m <module-name>"
    assert subject_heading(("-m",), "Command line > -M") is None
    assert subject_heading(("-m",), "Modules > Running modules") is None


def test_what_documents_an_option_ranks_first_for_a_question_about_it() -> None:
    mention = Hit(1, 1, 1, "m.html", "Manual", None, None, "Leaks", 2.0,
                  "A leak counts as an error if --leak-check=full is given.", 1)  # fmt: skip
    item = Hit(2, 2, 1, "m.html", "Manual", None, None, "Options", 1.0,
               "--leak-check=<no|full>: When enabled, search for leaks.", 2)  # fmt: skip
    entry = Hit(3, 3, 2, "c.html", "CLI", None, None, "CLI > -m <module-name>", 0.5, "Run.", 3)
    promoted = promote_definitions([mention, item], ("--leak-check",))
    assert [h.chunk_id for h in promoted] == [2, 1] and promoted[0].score > 2.0
    assert promote_definitions([mention, entry], ("-m",))[0].chunk_id == 3


def test_a_terse_entry_opening_answers_what_the_entry_does() -> None:
    text = "Kills the child. On Windows kill() is an alias for terminate()."
    answer = one_sentence_answer(
        "What does Popen.kill() do?", text, "subprocess > Popen.kill()", rules=API_REFERENCE
    )
    assert answer == "Popen.kill(): Kills the child [1]."
