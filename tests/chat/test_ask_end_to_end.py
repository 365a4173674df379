"""`ask` end to end on a small real corpus with the bundled model: extractive answers with
citations, abstention, summaries, errors, and an LLM behind the scripted HTTP server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.answer.prompts import UNVERIFIED
from citewise.assistant import Assistant
from citewise.assistant.inside import inside
from citewise.chat.memory import SQLiteMemory, Turn
from citewise.errors import InputError, MemoryBackendError, NotFoundError
from citewise.types import CitationEvent, Done, Sources, Status, Token
from llm_clients.scripted_server import ScriptedServer
from llm_clients.wire import OllamaWire, OpenAIWire
from support import write_corpus

pytestmark = pytest.mark.slow
NOT_FOUND = "The documents do not contain this information."


@pytest.fixture(scope="module")
def assistant(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Assistant]:
    root = tmp_path_factory.mktemp("ask")
    corpus = write_corpus(root / "docs")
    with Assistant(data_dir=root / "data") as a:
        a.ingest([corpus])
        yield a


@pytest.fixture
def chat(assistant: Assistant) -> Assistant:
    return assistant  # the conversation is the assistant's own


def test_extractive_answer_cites_the_passage_that_states_it(chat: Assistant) -> None:
    answer = chat.ask("What is the default request timeout?")
    assert "30 seconds" in answer.answer and "[1]" in answer.answer
    assert answer.citations[0].source == "reference/limits.txt"
    assert "30 seconds" in answer.citations[0].quote
    assert answer.grounded and answer.confidence in {"high", "medium", "low"}
    payload = answer.to_json()
    assert {"answer", "intent", "citations", "sources", "grounded", "confidence",
            "session_id", "timings_ms"} <= set(payload)  # fmt: skip
    assert set(payload["citations"][0]) == {  # type: ignore[index]
        "n", "source", "page", "section", "chunk_id", "quote", "doc_hash", "boxes"
    }  # fmt: skip


def test_question_the_documents_cannot_answer_abstains_without_citations(
    chat: Assistant,
) -> None:
    answer = chat.ask("Which Kubernetes version does the cluster run?")
    assert answer.answer == NOT_FOUND
    assert answer.citations == () and answer.confidence == "none"


def test_events_stream_sources_tokens_citations_then_done(chat: Assistant) -> None:
    events = list(chat.stream("How often is a database snapshot taken?"))
    kinds = [type(e) for e in events]
    assert kinds.index(Sources) < kinds.index(Token) < kinds.index(CitationEvent)
    assert isinstance(events[-1], Done) and "six hours" in events[-1].answer.answer


def test_summary_of_a_named_document_cites_it(chat: Assistant) -> None:
    answer = chat.ask("Summarize the logging guide")
    assert answer.citations and {c.source for c in answer.citations} == {"guides/logging.md"}
    assert "logrotate" in answer.answer or "WARNING" in answer.answer


def test_bad_questions_and_sessions_get_clear_errors(chat: Assistant) -> None:
    with pytest.raises(InputError, match="empty"):
        chat.ask("   ")
    with pytest.raises(InputError, match="1,000"):
        chat.ask("why " * 400)
    with pytest.raises(InputError, match="session"):
        chat.ask("hello", session_id="no spaces allowed")
    with pytest.raises(NotFoundError, match="nope"):
        inside(chat).memory.require("nope")


def _llm_chat(assistant: Assistant, wire: OpenAIWire | OllamaWire) -> Assistant:
    return Assistant(
        settings=assistant.settings, embedder=inside(assistant).embedder(), llm=wire.client()
    )


def test_llm_answer_is_streamed_verified_and_cited(assistant: Assistant) -> None:
    server = ScriptedServer()
    wire = OllamaWire(server)
    try:
        server.script(wire.stream(["Tokens expire ", "after 12 hours ", "[1]."]))
        chat = _llm_chat(assistant, wire)
        events = list(chat.stream("How long are API tokens valid?"))
        tokens = "".join(e.text for e in events if isinstance(e, Token))
        answer = events[-1].answer  # type: ignore[union-attr]
        assert tokens == "Tokens expire after 12 hours [1]."
        assert answer.grounded and answer.citations[0].source == "reference/api.html"
        assert "12 hours" in answer.citations[0].quote
    finally:
        wire.close()
        server.close()


def test_grounding_check_catches_a_value_the_cited_passage_does_not_state(
    assistant: Assistant,
) -> None:
    server = ScriptedServer()
    wire = OpenAIWire(server)
    try:
        server.script(
            wire.stream(["Tokens expire after 48 hours [1]."]),  # not what [1] says
            wire.completion("Tokens expire after 12 hours [1]."),  # the stricter retry
        )
        answer = _llm_chat(assistant, wire).ask("How long are API tokens valid?")
        assert "48" not in answer.answer and "12 hours" in answer.answer
        assert answer.grounded and answer.timings_ms["attempts"] == 2
        retry_prompt = server.requests[1].json["messages"][-1]["content"]
        assert "48 hours" in retry_prompt  # the retry names the failing sentence

        server.script(
            wire.stream(["Tokens expire after 48 hours [1]."]),
            wire.completion("They expire after 48 hours [1]."),  # no progress: no 3rd try
        )
        answer = _llm_chat(assistant, wire).ask("How long are API tokens valid?")
        # everything the model wrote was dropped: "could not verify", no claim, no fallback
        # (the LLM answered: a fallback is for transport failures)
        assert answer.answer == UNVERIFIED and "48" not in answer.answer
        assert not answer.citations and answer.answer_kind == "none"
        assert answer.confidence == "none" and answer.to_json()["fallback"] is None
        assert "llm_fallback" not in answer.timings_ms and len(server.requests) == 4
    finally:
        wire.close()
        server.close()


def test_no_relevant_passage_means_no_llm_call(assistant: Assistant) -> None:
    server = ScriptedServer()
    wire = OpenAIWire(server)
    try:
        answer = _llm_chat(assistant, wire).ask("Which Kubernetes version does the cluster run?")
        assert answer.answer == NOT_FOUND and server.requests == []
    finally:
        wire.close()
        server.close()


def test_json_cli_contract(assistant: Assistant, tmp_path: Path) -> None:
    import json

    from typer.testing import CliRunner

    from citewise.cli import app

    result = CliRunner().invoke(
        app,
        ["ask", "What is the default request timeout?", "--json",
         "--data-dir", str(assistant.settings.data_dir)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["citations"][0]["source"] == "reference/limits.txt"
    empty = CliRunner().invoke(
        app, ["ask", "", "--json", "--data-dir", str(assistant.settings.data_dir)]
    )
    assert empty.exit_code == 2 and "empty" in empty.stdout


def test_session_continues_across_cli_invocations(assistant: Assistant) -> None:
    import json

    from typer.testing import CliRunner

    from citewise.cli import app

    base = ["--json", "--data-dir", str(assistant.settings.data_dir)]
    runner = CliRunner()
    first = runner.invoke(
        app, ["ask", "How often is a database snapshot taken?", "-s", "cli1", *base]
    )
    assert first.exit_code == 0, first.output
    again = runner.invoke(app, ["ask", "Simplify that.", "-s", "cli1", *base])
    payload = json.loads(again.stdout)
    assert payload["intent"] == "simplify" and payload["session_id"] == "cli1"
    assert payload["rewritten_query"] == "How often is a database snapshot taken?"
    assert "six hours" in payload["answer"]
    shown = runner.invoke(app, ["history", "show", "cli1", *base])
    assert [t["question"] for t in json.loads(shown.stdout)["turns"]] == [
        "How often is a database snapshot taken?",
        "Simplify that.",
    ]
    missing = runner.invoke(app, ["history", "show", "never-started", *base])
    assert missing.exit_code == 4 and "never-started" in missing.stdout


def test_chit_chat_tools_and_commands_answer_without_retrieval(chat: Assistant) -> None:
    hello = chat.ask("hello!", session_id="small-talk")
    assert hello.intent == "greeting" and hello.citations == () and hello.sources == ()
    calc = chat.ask("what is 17% of 2,340?", session_id="small-talk")
    assert calc.intent == "tool" and "397.8" in calc.answer and calc.citations == ()
    docs = chat.ask("list documents", session_id="small-talk")
    assert docs.intent == "command" and "guides/logging.md" in docs.answer
    chat.ask("clear history", session_id="small-talk")
    assert inside(chat).memory.turns("small-talk")[-1].question == "clear history"
    assert len(inside(chat).memory.turns("small-talk")) == 1


def test_interactive_chat_streams_answers_until_exit(assistant: Assistant) -> None:
    from typer.testing import CliRunner

    from citewise.cli import app

    result = CliRunner().invoke(
        app,
        ["chat", "--data-dir", str(assistant.settings.data_dir)],
        input="What is the default request timeout?\nexit\n",
    )
    assert result.exit_code == 0, result.output
    assert "30 seconds" in result.output and "reference/limits.txt" in result.output


def test_questions_before_any_ingest_say_what_to_do(tmp_path: Path) -> None:
    with Assistant(data_dir=tmp_path / "empty") as empty:
        chat = empty
        try:
            assert chat.ask("hello").intent == "greeting"
            with pytest.raises(NotFoundError, match="citewise ingest"):
                chat.ask("What is the default request timeout?")
        finally:
            chat.close()


def test_tell_me_more_with_nothing_more_says_so(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "keys.md").write_text("# Keys\n\nThe encryption keys are rotated every 90 days.\n")
    with Assistant(data_dir=tmp_path / "data") as a:
        a.ingest([docs])
        chat = a
        try:
            first = chat.ask("How often are the encryption keys rotated?", session_id="k")
            assert "90 days" in first.answer
            more = chat.ask("Tell me more.", session_id="k")
            assert more.answer == "The documents say nothing more about this."
            assert more.citations == () and more.confidence == "none"
        finally:
            chat.close()


def test_a_question_about_an_option_is_answered_from_its_entry(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "cli.md").write_text(
        "# Command line\n\n## Options\n\nEvery command line option starts with a dash; an"
        " option may take an argument. Options can be combined on the command line.\n\n"
        "## -m module\n\nSearch the path for the named module and run it as a script.\n\n"
        "## -q\n\nDo not print the version and copyright messages on start.\n"
    )
    (docs / "tool.md").write_text(
        "# Tool manual\n\nThe tool prints a report when the program exits.\n\n"
        "- --leak-check=<no|full> [default: no]: When enabled, search for memory leaks when"
        " the program finishes.\n- --verbose: Print more details.\n\n"
        "A leak is only counted as an error if --leak-check=full is given on the command line.\n"
    )
    with Assistant(data_dir=tmp_path / "data", profile="software_docs") as a:
        a.ingest([docs])
        chat = a
        try:
            run = chat.ask("What does the -m command line option do?")
            assert run.answer.startswith("-m module: Search the path for the named module")
            leak = chat.ask("What does the --leak-check option do?")
            assert "search for memory leaks when the program finishes" in leak.answer
        finally:
            chat.close()


class _MemoryThatCannotSave(SQLiteMemory):
    """Reads work; saving a turn fails as a memory server going away mid-answer would."""

    def append(self, turn: Turn) -> None:
        raise MemoryBackendError("conversation memory redis://127.0.0.1:1/0 failed: gone")


def test_an_answer_whose_turn_cannot_be_saved_is_still_given(
    assistant: Assistant, tmp_path: Path
) -> None:
    chat = Assistant(
        settings=assistant.settings,
        embedder=inside(assistant).embedder(),
        memory=_MemoryThatCannotSave(tmp_path / "memory.db"),
    )
    try:
        events = list(chat.stream("What is the default request timeout?", session_id="s1"))
        answer = chat.ask("What is the default request timeout?", session_id="s2")
    finally:
        chat.close()
    done = next(i for i, e in enumerate(events) if isinstance(e, Done))
    warned = [e for e in events[done:] if isinstance(e, Status) and e.stage == "memory"]
    assert warned and "not saved" in warned[0].message
    assert "30 seconds" in answer.answer and answer.citations
