"""A sentence set on the day, month or year asked about is preferred to one set on another;
a message's header line is no answer."""

from __future__ import annotations

import math

import numpy as np

from answer_factories import passage
from citewise.extractive.calendar_fit import calendar_fit, calendar_values
from citewise.extractive.candidates import CandidateSentence, stems_of
from citewise.extractive.options import ExtractiveOptions
from citewise.extractive.sentence_scores import score_sentences
from citewise.extractive.units import is_header_line
from citewise.question.analysis import analyse
from fake_embedder import answerer


def test_weekdays_months_and_years_are_read_by_kind() -> None:
    assert calendar_values("What does the canteen serve on Mondays?", asked=True) == {
        "weekday": frozenset({"monday"})
    }
    found = calendar_values("Signed on May 1, 2011; renewed in March 2014 for $2015.00.")
    assert found == {"month": frozenset({"may", "march"}), "year": frozenset({"2011", "2014"})}
    assert calendar_values("You may leave at 4.") == {}
    # the year the question is set in, not the one that picks the deck
    asked = calendar_values("How many downloads in 2011, per the 2013 changes deck?", asked=True)
    assert asked == {"year": frozenset({"2011"})}
    assert calendar_fit(asked, "29 MILLION vulnerable downloads in 2011") == 1.0


def test_a_sentence_on_the_asked_day_fits_and_one_on_another_day_does_not() -> None:
    asked = calendar_values("What does the canteen serve on Mondays?")
    assert calendar_fit(asked, "And lentil stew on Mondays.") == 1.0
    assert calendar_fit(asked, "The canteen serves fish soup on Fridays.") == -1.0
    assert calendar_fit(asked, "The canteen opens at noon.") == 0.0
    assert calendar_fit({}, "Fish soup on Fridays.") == 0.0


def _ranked(question: str, texts: list[str], cosines: list[float], weight: float) -> list[str]:
    """The sentences best first as `score_sentences` ranks them, at the given cosines."""
    cands = [
        CandidateSentence(passage(n, t, source="harbour.mbox"), 0, t, 1.0, frozenset(stems_of(t)))
        for n, t in enumerate(texts, start=1)
    ]
    vectors = np.array([[c, math.sqrt(1 - c * c)] for c in cosines])
    opts = ExtractiveOptions(calendar_weight=weight, document_names=frozenset({"Mondays"}))
    scored = score_sentences(analyse(question), cands, vectors, np.array([1.0, 0.0]), opts)
    return [x.text for x in scored]


def test_the_reply_naming_the_asked_day_is_preferred() -> None:
    # the first message shares the question's other words and matches it better (MiniLM's
    # cosines); "Mondays" named the thread's document, so it is no ask word of its own
    texts = ["The canteen serves fish soup on Fridays.", "And lentil stew on Mondays."]
    question = "What does the canteen serve on Mondays?"
    assert _ranked(question, texts, [0.66, 0.51], 0.0)[0] == texts[0]
    assert _ranked(question, texts, [0.66, 0.51], 0.3)[0] == texts[1]


def test_a_header_line_is_metadata_unless_the_question_asks_about_it() -> None:
    line = "From: Bo <bo@x> · To: Crew <crew@x> · Date: Mon, 02 Mar 2026 · Subject: Re: Canteen"
    assert is_header_line(line, "What does the canteen serve on Mondays?")
    assert not is_header_line(line, "Who sent the message about the canteen?")
    assert not is_header_line("From: the quay to the pier is 40 metres.")
    a, _ = answerer(max_sentences=3)
    mail = passage(1, f"{line}\nAnd lentil stew on Mondays.", source="harbour.mbox")
    r = a.answer("What does the canteen serve on Mondays?", [mail])
    assert "lentil" in r.text and "From:" not in r.text
