"""A query naming a command-line option also ranks the entries headed by that option."""

from __future__ import annotations

from pathlib import Path

from citewise.assistant import Assistant
from citewise.assistant.inside import inside
from citewise.types import SearchFilter

CLI = """# Command line

## Options in general

An option changes what the command line does. Every option on the command line is
optional; options come before the script. Option, option, option.

## -m module-name

Search sys.path for the named module and execute its contents as the main module.

## -c command

Execute the code in command.
"""


def test_a_query_naming_an_option_ranks_its_entry_first(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "cli.md").write_text(CLI)
    with Assistant(data_dir=tmp_path / "data", embedder="hashing", profile="cli_options") as a:
        a.ingest([docs])
        retriever = inside(a).retriever()
        hits = retriever.search("What does the -m option do?", k=3, flt=SearchFilter()).hits
        assert hits[0].section.endswith("-m module-name")
        assert hits[0].retriever_ranks.get("entries") == 1
        # the words alone rank the prose about options first
        plain = retriever.search("What does the option do?", k=3, flt=SearchFilter()).hits
        assert plain[0].section.endswith("Options in general")


def test_of_several_entries_for_an_option_the_one_on_the_page_search_finds_ranks_first(
    tmp_path: Path,
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a_compiler.md").write_text(
        "# Compiler\n\n## -m mode\n\nPick what kind of code is compiled.\n"
    )
    (docs / "b_interpreter.md").write_text(
        "# Interpreter command line\n\nThe interpreter reads its command line options first.\n\n"
        "## Interpreter options\n\nEach interpreter option changes how the interpreter starts.\n\n"
        "## -m module\n\nRun the named module.\n"
    )
    with Assistant(data_dir=tmp_path / "data", embedder="hashing", profile="cli_options") as a:
        a.ingest([docs])
        query = "What does the interpreter option -m do?"
        hits = inside(a).retriever().search(query, k=5, flt=SearchFilter()).hits
        entries = [h for h in hits if "entries" in h.retriever_ranks]
        assert [h.source for h in entries] == ["b_interpreter.md", "a_compiler.md"]
        assert [h.retriever_ranks["entries"] for h in entries] == [1, 2]
