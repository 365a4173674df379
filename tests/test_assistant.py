"""`Assistant`, the one facade: documents, search, answers over several collections, and
conversations kept where the store is."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.assistant import Assistant, final_answer
from citewise.assistant.inside import inside
from citewise.config import load_settings
from citewise.errors import NotFoundError
from citewise.types import Done, Token
from support import write_corpus


def test_questions_go_to_the_first_readable_collection_with_documents(tmp_path: Path) -> None:
    assistant = Assistant(data_dir=tmp_path / "data", embedder="hashing")
    assistant.ingest([write_corpus(tmp_path / "docs")], collection="global")
    assert assistant.answer_collection(["user-empty", "global"]) == "global"
    answer = assistant.ask(
        "What is the default request timeout?", session_id="s1",
        collections=["user-empty", "global"],
    )  # fmt: skip
    assert "30 seconds" in answer.answer
    assert [t.question for t in assistant.history("s1")] == ["What is the default request timeout?"]
    assistant.delete_session("s1")
    with pytest.raises(NotFoundError):
        assistant.history("s1")
    assistant.close()


def test_a_question_searches_the_own_collection_then_the_global_one(tmp_path: Path) -> None:
    assistant = Assistant(data_dir=tmp_path / "data", embedder="hashing")
    assistant.ingest([write_corpus(tmp_path / "docs")], collection="global")
    own = write_corpus(
        tmp_path / "own", {"boats.md": "# Boats\n\nThe request boat leaves at noon.\n"}
    )
    assistant.ingest([own], collection="user-a")
    answer = assistant.ask(
        "What is the default request timeout?", session_id=None,
        collections=["user-a", "global"],
    )  # fmt: skip
    assert "30 seconds" in answer.answer  # the own collection has documents, not this answer
    hits = assistant.search("request", k=10, collections=["user-a", "global"]).hits
    assert hits[0].source == "boats.md"  # own first
    assert "reference/limits.txt" in [h.source for h in hits]
    assert [h.rank for h in hits] == list(range(1, len(hits) + 1))
    assistant.close()


def test_the_python_api_keeps_its_documented_shape(tmp_path: Path) -> None:
    with Assistant(data_dir=tmp_path / "data", embedder="hashing") as a:
        a.ingest([write_corpus(tmp_path / "docs")])
        assert a.search("request timeout", k=3).hits
        answer = a.ask("What is the default request timeout?", session_id="py")
        assert "30 seconds" in answer.answer and answer.citations
        assert [t.question for t in a.history("py")] == ["What is the default request timeout?"]
        assert [s.session_id for s in a.sessions()] == ["py"]


def test_running_a_flow_to_done_returns_its_answer_or_says_it_had_none() -> None:
    with pytest.raises(RuntimeError, match="without an answer"):
        final_answer(iter([Token("half")]))
    assert final_answer(iter([Token("x"), Done(_answer())])).answer == "x"


def _answer() -> object:
    from citewise.types import Answer

    return Answer(
        answer="x", intent="question", citations=(), sources=(), grounded=False,
        confidence="none", session_id="s", timings_ms={},
    )  # fmt: skip


@pytest.mark.integration
def test_conversations_live_in_the_postgresql_store_whichever_door(
    tmp_path: Path, postgres_url: str
) -> None:
    from citewise.chat.memory.postgres import PostgresMemory

    settings = load_settings(data_dir=tmp_path / "data", embedder="hashing", store=postgres_url)
    with Assistant(settings=settings) as a:
        a.ingest([write_corpus(tmp_path / "docs")])
        a.ask("What is the default request timeout?", session_id="pg")
        assert isinstance(inside(a).memory, PostgresMemory)
    assert not (tmp_path / "data" / "memory.db").exists()
    with Assistant(data_dir=tmp_path / "other", embedder="hashing", store=postgres_url) as b:
        assert [t.question for t in b.history("pg")] == ["What is the default request timeout?"]
