"""Code-like names in text: identifiers a claim or a query spells as code, command-line
options, quoted literals."""

from __future__ import annotations

from citewise.text.identifiers import command_options, identifiers, query_identifiers, quoted


def test_identifiers_find_code_names_but_not_abbreviations() -> None:
    found = identifiers("Use os.path.join(), exist_ok, __main__, FileExistsError, -O, e.g. Foo.")
    assert found == ["os.path.join", "exist_ok", "__main__", "FileExistsError", "-O"]


def test_quoted_literals() -> None:
    assert quoted('Open it in `rb` mode, not "r".') == ["rb", "r"]


def test_query_identifiers_finds_code_like_tokens_only() -> None:
    q = "Does functools.lru_cache() differ from str.split, __slots__, PYTHONPATH, -X or TaskGroup?"
    assert query_identifiers(q) == [
        "functools.lru_cache",
        "str.split",
        "__slots__",
        "PYTHONPATH",
        "-X",
        "TaskGroup",
    ]
    assert query_identifiers("How are built-in lists sorted in Python?") == []


def test_command_options_are_the_dashed_names_of_a_query() -> None:
    assert command_options("What does the -m command line option do?") == ["-m"]
    assert command_options("Is -O like --optimize or -O?") == ["-O", "--optimize"]
    assert command_options("Run valgrind --leak-check=full on it") == ["--leak-check"]
    assert command_options("Send an e-mail to a non-ASCII user - or not -") == []
