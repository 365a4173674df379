from __future__ import annotations

from answer_factories import passage
from citewise.extractive.sentence_fit import documents_named, restates
from fake_embedder import answerer

BIGTABLE = passage(
    1,
    "Each pool connection request has a size of 10 in this system.",
    source="bigtable.pdf",
    title="Bigtable: A Distributed Storage System",
    section="Implementation",
)
SPANNER = passage(
    2,
    "Each pool connection request has a size of 1000 in this system.",
    source="spanner.pdf",
    title="Spanner: Google's Globally-Distributed Database",
    section="Implementation",
)
OTHER = passage(3, "Pools are described elsewhere.", source="other.pdf", title="Other")


def test_documents_named_by_the_question_are_those_whose_title_or_file_holds_the_name() -> None:
    named = documents_named(["spanner"], [BIGTABLE, SPANNER])
    assert named == {1: 0.0, 2: 1.0}
    assert documents_named([], [BIGTABLE]) == {}


def test_the_sentence_from_the_document_the_question_names_wins_a_near_tie() -> None:
    a, _ = answerer(max_sentences=1)
    r = a.answer("What size is a pool connection request in Spanner?", [BIGTABLE, SPANNER, OTHER])
    assert "1000" in r.text
    unnamed = answerer(max_sentences=1, name_weight=0.0)[0]
    plain = unnamed.answer(
        "What size is a pool connection request in Spanner?", [BIGTABLE, SPANNER, OTHER]
    )
    assert "10 " in plain.text  # without the name, the first passage's sentence


MINUTES = passage(
    1,
    "- Only allow secure two-factor methods #1005\n"
    "- Matteo: I don't think we can do this, as the blast radius would be too big.\n"
    "- Release schedule #1010",
    section="Meeting 2026-01-07 > Agenda",
)


def test_a_sentence_restating_the_question_names_the_topic_and_states_nothing() -> None:
    q = "What did the committee say about only allowing secure two-factor methods?"
    assert restates(q, "- Only allow secure two-factor methods #1005")
    assert not restates(q, "- Matteo: I don't think we can do this, as the blast radius is big.")
    # the answer stated beside the question's words: "Mozilla Foundation" is new
    assert not restates(
        "Who is the steward of the Mozilla License?", "Mozilla Foundation is the license steward."
    )


def test_what_follows_a_restated_question_joins_the_answer() -> None:
    a, _ = answerer()
    r = a.answer(
        "What did the committee say about only allowing secure two-factor methods?", [MINUTES]
    )
    assert "blast radius" in r.text
