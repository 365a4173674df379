"""How a sentence fits its question, beyond its score (pure): the question's words no passage
holds, the sentence right after the best one when only it states the asked value, whether a
flattened table row is named by the question, whether a sentence leans on code an answer
cannot show, and a later part's scores blended with the whole question's."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from citewise.extractive.candidates import stems_of
from citewise.extractive.compose import ANAPHOR, ScoredSentence
from citewise.extractive.scoring import type_fit
from citewise.extractive.units import is_code_line
from citewise.question.analysis import Analysis
from citewise.text.sentences import content_words, stem, topic_stem
from citewise.types import Passage


def in_context(
    ranked: Sequence[ScoredSentence], by_whole: dict[tuple[int, int], float], share: float
) -> list[ScoredSentence]:
    """`ranked` rescored `share` by the whole question's scores, best first."""
    blended = [
        replace(
            x, score=(1 - share) * x.score + share * by_whole.get((x.passage.n, x.index), x.score)
        )
        for x in ranked
    ]
    return sorted(blended, key=lambda x: x.score, reverse=True)


def unseen_words(question: str, passages: Sequence[Passage]) -> list[str]:
    """The question's content words (topic stems) that no passage holds in its text, heading
    or title."""
    held: set[str] = set()
    for p in passages:
        h = p.hit
        held |= stems_of(f"{p.context}\n{h.section}\n{h.title}")
    asked = dict.fromkeys(topic_stem(w) for w in content_words(question) if w not in _SHAPING)
    return [w for w in asked if w not in held]


# words that shape a question rather than name what it asks about
_SHAPING = frozenset({"many", "much", "kind", "sort", "way", "ways", "happen", "happens"})


def stating_neighbour(
    question: Analysis, best: ScoredSentence, scored: Sequence[ScoredSentence]
) -> ScoredSentence | None:
    """For a question wanting a value, number, decision, date or cause that the best sentence
    does not state, the sentence right after it in its passage when that one does: "The
    buffer holds the pending output." is followed by "The default is 10." (a contiguous span
    of the passage, not a sentence stitched from elsewhere)."""
    kind = question.answer_type
    if kind not in STATED or type_fit(kind, best.text):
        return None
    return next(
        (
            x
            for x in scored
            if x.passage.n == best.passage.n
            and x.index == best.index + 1
            and type_fit(kind, x.text)
        ),
        None,
    )


def restates(question: str, sentence: str) -> bool:
    """Whether `sentence` only restates the question: nearly all its content words are the
    question's ("- Only allow secure two-factor methods #1005" for "What did they say about
    only allowing secure two-factor methods?"). It names the topic; what follows says it."""
    said = {topic_stem(w) for w in content_words(sentence)}
    asked = {topic_stem(w) for w in content_words(question)}
    return len(said) >= RESTATED_WORDS and len(said & asked) >= RESTATING_SHARE * len(said)


RESTATED_WORDS = 2
RESTATING_SHARE = 0.8


def answering_neighbour(
    question: str, best: ScoredSentence, scored: Sequence[ScoredSentence]
) -> ScoredSentence | None:
    """The sentence right after the best one in its passage, when the best one only
    restates the question (`restates`)."""
    if not restates(question, best.text):
        return None
    return next(
        (x for x in scored if x.passage.n == best.passage.n and x.index == best.index + 1), None
    )


STATED = frozenset({"number", "value", "time", "reason"})
# a question asking how many or how much is answered only by a sentence stating a quantity
MUST_STATE = frozenset({"number"})


def documents_named(names: Sequence[str], passages: Sequence[Passage]) -> dict[int, float]:
    """By passage number, the share of `names` (lower-cased proper names the question asks
    about) its document's title, file name or heading path holds."""
    if not names:
        return {}
    out = {}
    for p in passages:
        h = p.hit
        where = f"{h.title}\n{h.source}\n{h.section}".lower()
        out[p.n] = sum(1 for n in names if n in where) / len(names)
    return out


def asked_focus(a: Analysis) -> str | None:
    """The attribute a one-part question asks for, unless it is one of the question's names
    ("Rock" in "How many Rock Energy shares …?"): a name picks the document, not the sentence."""
    if len(a.parts) != 1 or a.focus is None:
        return None
    return None if a.focus in {stem(n) for n in a.names} else a.focus


def names_row(question: str, row: str) -> bool:
    """Whether the question names a flattened table row: its first cell, or a cell holding a
    name or code the question spells ("Windows", "cmd.exe"). Only then is the row an answer."""
    cells = [c.lower().strip(":|;,") for c in row.split()]
    asked = [w.strip("?.,'\"") for w in question.split()]
    named = {w.lower() for w in asked if w[:1].isupper() or not w.isalpha()} - {""}
    return bool(cells) and (cells[0] in {w.lower() for w in asked} or bool(named & set(cells)))


def speaks_of_unseen_code(sentences: Sequence[str], i: int) -> bool:
    """Whether sentence `i` makes sense only with code an answer cannot show: "It is not
    clear whether foo() or bar() will be called first." after a code line."""
    return bool(i and ANAPHOR.match(sentences[i]) and is_code_line(sentences[i - 1]))


def anchored(
    picks: list[ScoredSentence],
    scored: Sequence[ScoredSentence],
    top: Passage,
    answers: Callable[[ScoredSentence], bool],
    limit: int,
) -> list[ScoredSentence]:
    """`picks` (at most `limit` > 1) holding the top passage's best sentence when none comes
    from it, it answers on its own and comes from the best pick's document: the passage
    ranked first is the likeliest to hold the fact, and one document keeps citations precise."""
    if any(x.passage.n == top.n for x in picks) or not picks:
        return picks
    if top.hit.source != picks[0].passage.hit.source:
        return picks
    mine = next((x for x in scored if x.passage.n == top.n), None)
    if mine is None or not answers(mine):
        return picks
    return [*picks[: limit - 1], mine]
