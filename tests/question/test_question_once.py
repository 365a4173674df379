"""Through the whole ask flow (router, query router, retrieval, rerank, gate, answerer), a
two-part question is embedded once as a whole and once per part, and a follow-up is analysed
and embedded once per distinct text: what it was typed as, and its standalone form."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from citewise.assistant import Assistant
from citewise.embed.hashing import HashingEmbedder
from citewise.question import analysis
from citewise.question.question import Question, part_text
from citewise.testing.fakes import CountingEmbedder
from support import write_corpus

TWO_PARTS = "What is the default logging level, and how do I rotate the log files?"
PARTS = ["What is the default logging level", "how do I rotate the log files"]


@pytest.fixture(scope="module")
def embedder() -> CountingEmbedder:
    return CountingEmbedder(HashingEmbedder(dim=64))


@pytest.fixture(scope="module")
def assistant(
    tmp_path_factory: pytest.TempPathFactory, embedder: CountingEmbedder
) -> Iterator[Assistant]:
    root = tmp_path_factory.mktemp("question-once")
    with Assistant(data_dir=root / "data", embedder=embedder) as a:
        a.ingest([write_corpus(root / "docs")])
        a.ask("warm up the exemplars")  # the router's exemplar bank is embedded once
        yield a


def _analysed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text `analyse` is called with from now on, in whichever module calls it."""
    real = analysis.analyse
    seen: list[str] = []

    def counting(text: str) -> analysis.Analysis:
        seen.append(text)
        return real(text)

    for name, module in list(sys.modules.items()):
        if name.startswith("citewise.") and getattr(module, "analyse", None) is real:
            monkeypatch.setattr(module, "analyse", counting)
    return seen


def _repeated(texts: list[str]) -> list[str]:
    return sorted({t for t in texts if texts.count(t) > 1})


def test_a_two_part_question_is_embedded_once_whole_and_once_per_part(
    assistant: Assistant, embedder: CountingEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    analysed = _analysed(monkeypatch)
    embedder.reset()
    answer = assistant.ask(TWO_PARTS)
    assert answer.intent == "question" and answer.citations
    assert embedder.queries == [TWO_PARTS, *PARTS]
    assert not _repeated(analysed), f"analysed more than once: {_repeated(analysed)}"


def test_a_follow_up_is_analysed_and_embedded_once_per_distinct_text(
    assistant: Assistant, embedder: CountingEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = assistant.ask("How long are rotated log files kept?", session_id="once-follow")
    assert first.citations
    analysed = _analysed(monkeypatch)
    embedder.reset()
    follow = assistant.ask("And how are they compressed?", session_id="once-follow")
    assert follow.intent == "followup" and follow.rewritten_query
    assert embedder.queries == ["And how are they compressed?", follow.rewritten_query]
    assert not _repeated(analysed), f"analysed more than once: {_repeated(analysed)}"


def test_a_part_is_spelt_as_the_analysis_spells_its_facets() -> None:
    routed = ["What is the default logging level,", "how do I rotate the log files?"]
    asked = Question(TWO_PARTS, parts=routed)
    assert list(asked.parts) == PARTS == list(analysis.analyse(TWO_PARTS).parts)
    assert part_text("  Where is it kept ?  ") == "Where is it kept"
    assert Question("q", parts=["a b?", "a  b", " "]).parts == ("a b",)
