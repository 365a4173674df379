"""A sentence without a marker leans on the previous sentence's citation; when that sentence
is re-cited elsewhere, the leaning sentence keeps a citation of its own (no claim without one)."""

from __future__ import annotations

from pathlib import Path

from citewise.assistant import Assistant
from citewise.assistant.inside import inside
from citewise.testing.fakes import FakeLLM
from citewise.types import Answer
from support import write_corpus

# the model's numbering: [2] is the Levels passage, shown second for this question
DRAFT = (
    "Tokens expire after 12 hours [1].\n"
    "Rotate the log files every night with logrotate [2].\n"
    "The default level is WARNING, so info messages are hidden until you configure the root"
    " logger."
)


def answered(draft: str, tmp_path: Path) -> Answer:
    """The answer to a token question when the model writes `draft`."""
    with Assistant(data_dir=tmp_path / "d", embedder="hashing") as a:
        a.ingest([write_corpus(tmp_path / "docs")])
        chat = Assistant(
            settings=a.settings, embedder=inside(a).embedder(), llm=FakeLLM(draft, draft)
        )
        try:
            return chat.ask("How long are API tokens valid?")
        finally:
            chat.close()


def test_a_sentence_leaning_on_a_recited_one_cites_the_passage_that_holds_it(
    tmp_path: Path,
) -> None:
    answer = answered(DRAFT, tmp_path)
    by_n = {c.n: c for c in answer.citations}
    last = answer.answer.splitlines()[-1]
    assert last.startswith("The default level is WARNING") and "[" in last
    n = int(last.rsplit("[", 1)[1].split("]")[0])
    assert by_n[n].section.endswith("Levels")
    rotation = next(line for line in answer.answer.splitlines() if line.startswith("Rotate"))
    m = int(rotation.rsplit("[", 1)[1].split("]")[0])
    assert by_n[m].section.endswith("Rotation")


def test_a_sentence_leaning_on_a_dropped_one_keeps_the_citation_that_holds_it(
    tmp_path: Path,
) -> None:
    draft = (
        "Tokens expire after 12 hours [1].\n"
        "Info messages are kept for ninety years [2].\n"
        "The default level is WARNING, so info messages are hidden until you configure the"
        " root logger."
    )
    answer = answered(draft, tmp_path)
    assert "ninety" not in answer.answer
    last = answer.answer.splitlines()[-1]
    assert last.startswith("The default level is WARNING") and "[" in last
    n = int(last.rsplit("[", 1)[1].split("]")[0])
    assert {c.n: c for c in answer.citations}[n].section.endswith("Levels")
