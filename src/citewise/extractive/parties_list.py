"""The answer to "Who are the parties to the consulting agreement(s)?" when the knowledge graph
found the passages: every agreement of that kind, each with its parties and the roles it
defines for them, and the sentence naming them, cited (issue #40 item 5).

Only the passages the graph's source returned count (`Hit.retriever_ranks`): on this route
the graph returns the passages its party_to relations were read from, for every agreement the
question names (`graph.agreements.party_passages`); the parties are read from them by the
reader that built those relations (`graph.rules.parties.find_parties`). Without the graph no
list: the usual answerer answers from one passage.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from citewise.extractive.compose import ExtractiveResult
from citewise.graph.agreements import SOURCE_NAME, parties_subject
from citewise.graph.rules.parties import find_parties
from citewise.text.parties import Party
from citewise.text.sentences import split_sentences
from citewise.types import Passage

QUOTE_CHARS = 300  # a longer preamble sentence is cut after the parties
MORE_SENTENCES = 2  # sentences read on for a party the first one does not name


def parties_list(question: str, passages: Sequence[Passage]) -> ExtractiveResult | None:
    """One line per agreement document the graph found: its parties, each with its role, and
    the sentence naming them, cited; None when `question` does not ask who the parties are or
    no passage the graph found names parties."""
    subject = parties_subject(question)
    if subject is None:
        return None
    lines: list[str] = []
    used: list[Passage] = []
    seen: set[int] = set()
    for p in passages:
        if p.hit.doc_id in seen or SOURCE_NAME not in p.hit.retriever_ranks:
            continue
        parties = distinct(find_parties(p.context))
        if not parties:
            continue
        seen.add(p.hit.doc_id)
        used.append(p)
        quote = _sentence(p.context, parties)
        lines.append(f'- {p.hit.source}: {_named(parties)}: "{quote}" [{p.n}]')
    if not lines:
        return None
    return ExtractiveResult(
        text="\n".join([f"Parties to {subject} ({len(lines)}):", *lines]),
        used_passages=tuple(used),
        support=tuple(1.0 for _ in lines),  # each line quotes the sentence naming its parties
        abstained=False,
        best_score=1.0,
    )


def distinct(parties: Sequence[Party]) -> list[Party]:
    """Each party once: "Theriac of Littlestown" is the party "Theriac of Littlestown, LLC"
    names again (a shorter name opening a longer one goes, its role kept if the longer has
    none)."""
    out: list[Party] = []
    for p in parties:
        longer = next((o for o in parties if o is not p and _opens(p.name, o.name)), None)
        if longer is None:
            out.append(p)
        elif not longer.role and p.role:
            parties = [replace(o, role=p.role) if o is longer else o for o in parties]
    return [next(o for o in parties if o.name == p.name) for p in out]


def _opens(short: str, long: str) -> bool:
    return len(long) > len(short) and long.startswith(short) and not long[len(short)].isalnum()


def _named(parties: Sequence[Party]) -> str:
    """'Acme Pumps Limited as "Supplier" and Borealis GmbH as "Distributor"' (not in brackets:
    "CO. (" ends a sentence for the grounding check, which would drop the name before it)"""
    named = [f'{p.name} as "{p.role}"' if p.role else p.name for p in parties]
    return ", ".join(named[:-1]) + " and " + named[-1] if len(named) > 1 else named[0]


def _sentence(text: str, parties: Sequence[Party]) -> str:
    """The first sentence naming a party, with the next ones while a party is still unnamed
    ("… CO." ends a sentence early), cut at a word after the last party when long."""
    sentences = split_sentences(text)
    at = next((i for i, s in enumerate(sentences) if parties[0].name in s), None)
    if at is None:
        return parties[0].name
    quote = sentences[at]
    for more in sentences[at + 1 : at + MORE_SENTENCES + 1]:
        if all(p.name in quote for p in parties):
            break
        quote = f"{quote} {more}"
    quote = " ".join(quote.split())
    if len(quote) <= QUOTE_CHARS:
        return quote
    ends = [quote.find(p.name) + len(p.name) for p in parties if p.name in quote]
    cut = quote.rfind(" ", 0, max([QUOTE_CHARS, *ends]) + 1)
    return quote[: cut if cut > 0 else QUOTE_CHARS].rstrip(" ,;") + " …"
