"""Who the parties to an agreement are, from the graph: every agreement of the kind asked, its
party_to passages kept among the hits and first in their document, listed with the parties'
roles on the graph's route only."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.assistant import Assistant
from citewise.assistant.inside import inside
from citewise.retrieve.rerank.documents_first import graph_first
from citewise.retrieve.sources.base import kept_in
from citewise.retrieve.sources.graph import GraphSource
from citewise.types import Hit
from support import ingested

_CLAUSES = " ".join(
    f"{n}. The Distributor shall report its sales of the Products for quarter {n} in writing."
    for n in range(1, 40)
)
AGREEMENTS = {
    "acme-borealis.md": (
        "# Distributor Agreement\n\nThis Distributor Agreement is made between Acme Pumps "
        'Limited ("Supplier") and Borealis Trading GmbH ("Distributor").\n\n' + _CLAUSES
    ),
    "acme-nordic.md": (
        "# Distributor Agreement\n\nThis Distributor Agreement is made between Acme Pumps "
        'Limited ("Supplier") and Nordic Flow AB ("Distributor").\n\n' + _CLAUSES
    ),
    "supply.md": (
        "# Supply Agreement\n\nThis Supply Agreement is made between Kestrel Metals plc "
        '("Seller") and Acme Pumps Limited ("Buyer").\n\nThe Seller shall deliver steel.'
    ),
}


def _hit(rank: int, chunk: int, doc: int, graph: int | None = None) -> Hit:
    ranks = {"keyword": rank, **({"graph": graph} if graph is not None else {})}
    return Hit(rank, chunk, doc, f"d{doc}", "", None, None, "", 1.0, "", chunk, ranks)


def test_kept_hits_take_the_last_places_of_the_cut() -> None:
    hits = [_hit(r, r, 1) for r in range(1, 6)]
    assert [h.chunk_id for h in kept_in(hits, [5], 3)] == [1, 2, 5]
    assert [h.chunk_id for h in kept_in(hits, [2], 3)] == [1, 2, 3]


def test_the_graphs_passages_lead_in_its_order() -> None:
    hits = [_hit(1, 1, 1), _hit(2, 2, 1, graph=2), _hit(3, 3, 2, graph=1)]
    assert [h.chunk_id for h in graph_first(hits)] == [3, 2, 1]


@pytest.fixture
def agreements(tmp_path: Path) -> Iterator[Assistant]:
    with ingested(tmp_path, AGREEMENTS) as made:
        yield made


def test_the_parties_of_every_agreement_of_the_kind_are_listed_on_the_graphs_route_only(
    agreements: Assistant,
) -> None:
    question = "Who are the parties to the distributor agreements?"
    on = agreements.ask(question, session_id=None)
    assert {c.source for c in on.citations} == {"acme-borealis.md", "acme-nordic.md"}
    assert 'Borealis Trading GmbH as "Distributor"' in on.answer
    assert 'Nordic Flow AB as "Distributor"' in on.answer
    assert "Kestrel" not in on.answer

    retrievers = (inside(agreements).retriever(), inside(agreements).retriever(candidates=True))
    for r in retrievers:
        r.sources = [s for s in r.sources if not isinstance(s, GraphSource)]
    off = agreements.ask(question, session_id=None)
    assert 'Borealis Trading GmbH as "Distributor"' not in off.answer
    assert 'Nordic Flow AB as "Distributor"' not in off.answer
