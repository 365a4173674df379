"""Repairs before a drop, over the real wire format against the stand-in: a faithful answer
with a clause the passages do not hold keeps the rest (the sentence as streamed is retracted,
saying what was cut), an invented value goes with its clause, and a wrongly cited sentence
with such a clause is cut and re-cited."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citewise.answer.generate import Generated, answer_with_fallback
from citewise.llm.base import Timeouts
from citewise.llm.openai_compat import OpenAICompatLLM
from citewise.llm.retry import RetryPolicy
from citewise.testing.standin_llm import Behaviour, Knowledge, StandinServer
from citewise.types import Passage, Retraction
from llm_clients.test_standin_answer_path import run
from testing.standin_support import passages

pytestmark = pytest.mark.integration

LEASE_Q = "By how much does the master extend a session lease unless it is overloaded?"
RECORDS = [
    {
        "id": "r-l01", "type": "lookup", "question": LEASE_Q,
        "answer": "The default extension is 12s; an overloaded master may use higher values "
        "(up to around 60s).",
        "must_contain": ["12s"],
        "gold": [{"file": "chubby.pdf", "quote": "The default extension is 12s, but an "
                  "overloaded master may use higher values"}],
    },
]  # fmt: skip
CHUBBY = (
    "The master may extend the timeout by any amount. The default extension is 12s, but an "
    "overloaded master may use higher values to reduce the number of KeepAlive calls."
)
UNRELATED = "Uploads larger than 25 MB are rejected with status 413."
LEASE = passages(("uploads.html", UNRELATED), ("chubby.pdf", CHUBBY))


@pytest.fixture
def knowledge(tmp_path: Path) -> Knowledge:
    path = tmp_path / "set.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in RECORDS) + "\n", encoding="utf-8")
    return Knowledge.load(path)


def ask(
    knowledge: Knowledge, mode: str, question: str, shown: list[Passage]
) -> tuple[list[object], Generated, StandinServer]:
    with StandinServer(knowledge, Behaviour(mode)) as server:
        timeouts = Timeouts(connect=2.0, read=5.0)
        with OpenAICompatLLM(
            "standin", server.base_url, retry=RetryPolicy(retries=0), timeout=timeouts
        ) as llm:
            events, made = run(answer_with_fallback(llm, question, shown, lambda: "unused"))
    return events, made, server


def test_a_clause_the_passages_lack_is_cut_and_the_fact_kept(knowledge: Knowledge) -> None:
    events, made, _ = ask(knowledge, "faithful", LEASE_Q, LEASE)
    assert made.fallback is None
    assert made.text == (
        "The default extension is 12s; an overloaded master may use higher values [2]."
    )
    # the sentence as streamed is withdrawn, saying what was cut; the final text replaces it
    withdrawn = [e for e in events if isinstance(e, Retraction)]
    assert len(withdrawn) == 1 and "60s" in withdrawn[0].sentence and "60s" in withdrawn[0].reason


def test_an_invented_value_goes_with_its_clause(knowledge: Knowledge) -> None:
    _, made, server = ask(knowledge, "invented-value", LEASE_Q, LEASE)
    invented = server.model.records[0]["invented"][0]
    assert invented not in made.text and "60s" not in made.text


def test_a_wrongly_cited_sentence_with_a_foreign_clause_is_cut_and_recited(
    knowledge: Knowledge,
) -> None:
    _, made, server = ask(knowledge, "wrong-citation", LEASE_Q, LEASE)
    assert server.model.records[0]["wrong_citation"]
    assert made.fallback is None
    assert made.text == (
        "The default extension is 12s; an overloaded master may use higher values [2]."
    )
