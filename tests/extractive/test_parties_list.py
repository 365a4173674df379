"""The answer to "Who are the parties to the X agreement(s)?" from the passages the graph found:
each agreement's parties with their roles and the sentence naming them, cited
(`extractive.parties_list`); none when the graph found none."""

from __future__ import annotations

import pytest

from citewise.extractive.documents_list import documents_list
from citewise.extractive.parties_list import distinct, parties_list
from citewise.graph.agreements import parties_subject
from citewise.text.parties import Party
from citewise.types import Hit, Passage


def _passage(n: int, doc_id: int, text: str, *, graph: bool = True) -> Passage:
    ranks = {"keyword": n, **({"graph": n} if graph else {})}
    hit = Hit(n, n, doc_id, f"doc-{doc_id}.md", "", 1, 1, "", 1.0 / n, text, n, ranks)
    return Passage(n, hit, text)


ACME = (
    'This Distributor Agreement is made between Acme Pumps Limited ("Supplier") and '
    'Borealis Trading GmbH ("Distributor"). The Distributor shall sell the pumps.'
)
NORDIC = (
    'Recitals. This Distributor Agreement is made between Acme Pumps Limited ("Supplier") '
    'and Nordic Flow AB ("Distributor").'
)
CLAUSE = "The Distributor shall keep the pumps insured between delivery and sale."


@pytest.mark.parametrize(
    ("question", "subject"),
    [
        ("Who are the parties to the distributor agreements?", "the distributor agreements"),
        ("who is party to the Lease", "the Lease"),
        ("Who signed the distributor agreement?", None),
    ],
)
def test_the_subject_of_a_parties_question(question: str, subject: str | None) -> None:
    assert parties_subject(question) == subject


def test_each_agreement_the_graph_found_is_listed_with_its_parties_and_roles() -> None:
    passages = [_passage(1, 1, ACME), _passage(2, 1, CLAUSE), _passage(3, 2, NORDIC)]
    out = parties_list("Who are the parties to the distributor agreements?", passages)
    assert out is not None and not out.abstained
    assert out.text.splitlines() == [
        "Parties to the distributor agreements (2):",
        '- doc-1.md: Acme Pumps Limited as "Supplier" and Borealis Trading GmbH as "Distributor":'
        ' "This Distributor Agreement is made between Acme Pumps Limited ("Supplier") and'
        ' Borealis Trading GmbH ("Distributor")." [1]',
        '- doc-2.md: Acme Pumps Limited as "Supplier" and Nordic Flow AB as "Distributor":'
        ' "This Distributor Agreement is made between Acme Pumps Limited ("Supplier") and'
        ' Nordic Flow AB ("Distributor")." [3]',
    ]
    assert [p.n for p in out.used_passages] == [1, 3]


def test_without_the_graph_or_its_parties_there_is_no_list() -> None:
    question = "Who are the parties to the distributor agreement?"
    assert parties_list(question, [_passage(1, 1, ACME, graph=False)]) is None
    assert parties_list(question, [_passage(1, 1, CLAUSE)]) is None
    assert parties_list("What does the distributor sell?", [_passage(1, 1, ACME)]) is None
    # the documents-list hook answers it (the one hook in the answerer)
    assert documents_list(question, [_passage(1, 1, ACME)]) is not None


def test_a_party_named_again_shorter_is_listed_once_with_its_role() -> None:
    parties = [
        Party("Theriac of Littlestown, LLC", "", 0, 1),
        Party("Theriac of Littlestown", "Owner", 2, 3),
        Party("Devoto Construction, Inc.", "Devoto", 4, 5),
    ]
    assert [(p.name, p.role) for p in distinct(parties)] == [
        ("Theriac of Littlestown, LLC", "Owner"),
        ("Devoto Construction, Inc.", "Devoto"),
    ]
