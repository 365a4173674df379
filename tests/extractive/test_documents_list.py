"""The answer to "Which of my documents discuss X?": each document that names X, with the
sentence that names it, cited (`extractive.documents_list`)."""

from __future__ import annotations

import pytest

from citewise.assistant import Assistant
from citewise.extractive.documents_list import asked_subject, documents_list
from citewise.types import Hit, Passage


def _passage(n: int, doc_id: int, text: str) -> Passage:
    hit = Hit(n, n, doc_id, f"doc-{doc_id}.pdf", "", 1, 1, "", 1.0 / n, text, n)
    return Passage(n, hit, text)


PASSAGES = [
    _passage(1, 1, "Bigtable relies on Chubby for master election. It stores tablets in GFS."),
    _passage(2, 1, "Chubby also stores the bootstrap location of Bigtable data."),
    _passage(3, 2, "The lock service is small. Clients of Chubby cache file data."),
    _passage(4, 3, "Raft is a consensus algorithm for managing a replicated log."),
    _passage(5, 4, "Logs go in /var/log. The FHS, version 3, places them there."),
]


@pytest.mark.parametrize(
    ("question", "subject"),
    [
        ("Which of my documents discuss Chubby?", "Chubby"),
        ("Which papers mention Paxos?", "Paxos"),
        ("Which agreements are governed by the laws of Delaware?",
         "are governed by the laws of Delaware"),
        ("What depends on Chubby?", None),
        ("Which lock does CREATE INDEX take?", None),
    ],
)  # fmt: skip
def test_the_subject_of_a_which_documents_question(question: str, subject: str | None) -> None:
    assert asked_subject(question) == subject


def test_each_document_naming_the_subject_is_listed_once_with_its_sentence_cited() -> None:
    out = documents_list("Which of my documents discuss Chubby?", PASSAGES)
    assert out is not None and not out.abstained
    lines = out.text.splitlines()
    assert lines[0] == "Documents that discuss Chubby (2):"
    assert lines[1:] == [
        '- doc-1.pdf: "Bigtable relies on Chubby for master election." [1]',
        '- doc-2.pdf: "Clients of Chubby cache file data." [3]',
    ]
    assert [p.n for p in out.used_passages] == [1, 3]


def test_a_name_is_found_by_its_initials_and_nothing_named_gives_no_list() -> None:
    out = documents_list("Which documents discuss the Filesystem Hierarchy Standard?", PASSAGES)
    assert (
        out is not None
        and out.text.splitlines()[1] == '- doc-4.pdf: "The FHS, version 3, places them there." [5]'
    )
    assert documents_list("Which documents discuss ZooKeeper?", PASSAGES) is None
    assert documents_list("What is Chubby?", PASSAGES) is None


def test_a_long_sentence_is_quoted_around_the_name() -> None:
    words = " ".join(f"w{i}" for i in range(60))
    long = [_passage(1, 1, f"{words} Chubby {words}.")]
    out = documents_list("Which documents mention Chubby?", long)
    assert out is not None
    quote = out.text.splitlines()[1]
    assert "Chubby" in quote and quote.count(" w") < 45 and "…" in quote


@pytest.mark.integration
def test_the_answer_lists_each_document_with_a_cited_passage(linked_assistant: Assistant) -> None:
    answer = linked_assistant.ask(
        "Which of my documents mention the Sensor Bus Interface?", session_id=None
    )
    cited = {c.source for c in answer.citations}
    assert cited == {"pump-manual.md", "wiring-guide.md", "valve-notes.md"}
    assert answer.answer.count("\n- ") >= 2  # one line a document


def test_a_sentence_naming_the_subject_as_the_user_wrote_it_counts_too() -> None:
    passages = [
        _passage(1, 1, "The Sensor Bus Interface joins the pump."),
        _passage(2, 2, "The SBI is slow."),
    ]
    out = documents_list(
        "Which documents mention the SBI?",
        passages,
        asked="Which documents mention the Sensor Bus Interface?",
    )
    assert out is not None and [p.n for p in out.used_passages] == [1, 2]
    alone = documents_list("Which documents mention the SBI?", passages)
    assert alone is not None and [p.n for p in alone.used_passages] == [2]
