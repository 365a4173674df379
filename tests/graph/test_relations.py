"""Typed relations from sentence patterns and document structure: concept objects, is-a,
defines, agreements with their parties and governing law, part_of from a path's directory."""

from __future__ import annotations

from citewise.graph.extract import extract
from citewise.graph.model import ChunkText, DocumentGraph
from citewise.graph.rules.parties import find_agreement, find_parties


def graph_of(*texts: str) -> DocumentGraph:
    return extract([ChunkText(i + 1, text, "") for i, text in enumerate(texts)])


def typed(graph: DocumentGraph) -> set[tuple[str, str, str]]:
    return {(r.source, r.target, r.kind) for r in graph.relations if r.kind != "mentions_with"}


def test_a_name_is_a_or_uses_a_noun_phrase_concept() -> None:
    g = graph_of(
        "We built Paxos for students. Paxos is a consensus algorithm for logs.",
        "Paxos uses a heartbeat mechanism to trigger elections.",
    )
    assert {("paxos", "consensus algorithm", "is_a"), ("paxos", "heartbeat mechanism", "uses")} <= (
        typed(g)
    )
    assert {e.key: e.kind for e in g.entities}["heartbeat mechanism"] == "concept"


def test_vague_noun_phrases_are_no_concepts() -> None:
    g = graph_of("We built Paxos for students. Paxos uses a variety of tricks and one table.")
    assert typed(g) == set()


def test_a_defined_term_is_a_concept_it_means() -> None:
    g = graph_of('"Licensor" shall mean the copyright owner granting the License.')
    assert ("licensor", "copyright owner", "is_a") in typed(g)


def test_defined_in_is_a_defines_relation() -> None:
    g = graph_of("The key words are defined in RFC 2119 for the Debian Policy Manual.")
    assert ("rfc2119", "key words", "defines") not in typed(g)  # "key words" is no name
    g = graph_of("In short, the Pump Protocol is specified by RFC 2119 in full.")
    assert any(kind == "defines" and s == "rfc2119" for s, _, kind in typed(g))


def test_agreement_parties_and_governing_law() -> None:
    g = graph_of(
        'This Distribution Agreement is made between Acme Pumps Limited ("Supplier") and '
        'Borealis Trading GmbH ("Distributor").',
        "This Agreement shall be governed by the laws of the State of New York.",
    )
    assert typed(g) >= {
        ("acme pumps limited", "distribution agreement", "party_to"),
        ("borealis trading gmbh", "distribution agreement", "party_to"),
        ("distribution agreement", "new york", "governed_by"),
    }
    acme = next(e for e in g.entities if e.key == "acme pumps limited")
    assert acme.kind == "party" and acme.aliases == ("Supplier",)


def test_parties_function_reads_roles_and_a_bare_agreement_names_none() -> None:
    parties = find_parties('entered into by and between Google LLC ("Google") and the Customer.')
    # "the Customer" is a role, not a party's name
    assert [(p.name, p.role) for p in parties] == [("Google LLC", "Google")]
    assert find_agreement("This Agreement is made between A Corp and B Corp.") is None


def test_a_path_is_part_of_the_directory_the_document_names() -> None:
    g = graph_of("Passwords live in /etc/shadow.", "Configuration lives in /etc on every host.")
    assert ("etc shadow", "etc", "part_of") in typed(g)
