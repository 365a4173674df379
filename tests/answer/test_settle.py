"""`settle`: a text with no cited claim is no answer; a no-answer reply keeps its words."""

from __future__ import annotations

from answer_factories import passage
from citewise.answer.prompts import NOTHING_MORE, UNVERIFIED
from citewise.answer.settle import settle
from citewise.types import NOT_FOUND

PASSAGES = [passage(1, "Tokens expire after 12 hours.")]


def test_an_uncited_text_becomes_not_in_the_documents() -> None:
    settled = settle("Tokens last a day.", PASSAGES, [], [0.9], grounded=False)
    assert settled.text == NOT_FOUND and not settled.citations and settled.confidence == "none"


def test_the_could_not_verify_reply_keeps_its_words_without_citations() -> None:
    for reply in (UNVERIFIED, NOTHING_MORE):
        settled = settle(reply, PASSAGES, [], [0.9], grounded=False)
        assert settled.text == reply and not settled.citations and settled.confidence == "none"


def test_a_cited_text_keeps_its_citation() -> None:
    settled = settle("Tokens expire after 12 hours [1].", PASSAGES, [1.0], [0.9], grounded=True)
    assert settled.text == "Tokens expire after 12 hours [1]." and len(settled.citations) == 1
