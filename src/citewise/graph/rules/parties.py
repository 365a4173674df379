"""The parties to an agreement and the law that governs it, read from its opening and its
governing-law clause:

    This Distribution Agreement is made between Acme Pumps Limited, a company …
    ("Supplier") and Borealis Trading GmbH ("Distributor").
    This Agreement shall be governed by the laws of the State of New York.

The parties themselves are read by `citewise.text.parties.find_parties`, which the alias
extractor (`citewise.text.aliases`) shares.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citewise.graph.model import entity_key
from citewise.text.aliases import definitions
from citewise.text.parties import Party

_AGREEMENT_WORDS = r"Agreement|Contract|Lease|Licen[cs]e|Deed|Memorandum|Addendum|Amendment|Terms"
_AGREEMENT = re.compile(
    rf"\b(?i:this|the)\s+(?P<name>(?:[A-Z][\w&-]*\s+(?:(?i:and)\s+)?){{0,5}}(?i:{_AGREEMENT_WORDS}))\b"
)
_GOVERNED = re.compile(
    r"\bgoverned\s+by[^.;]{0,60}?\blaws?\s+of\s+(?:the\s+)?(?:(?:State|Commonwealth|Province"
    r"|Republic|Kingdom)\s+of\s+)?(?P<place>[A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,3})"
)


@dataclass(frozen=True, slots=True)
class Agreement:
    """An agreement a sentence names, with its parties and governing law when it gives them."""

    name: str
    start: int
    end: int
    parties: tuple[Party, ...] = ()
    governing_law: str = ""


def find_agreement(text: str) -> Agreement | None:
    """The agreement a sentence names ("This Distribution Agreement …") with the parties it
    is made between and the law that governs it; None when it names none."""
    named = _AGREEMENT.search(text)
    if named is None or len(entity_key(named.group("name")).split()) < 2:
        return None  # a bare "This Agreement" names no agreement another document shares
    parties = find_parties(text)
    governed = _GOVERNED.search(text)
    law = governed.group("place").strip() if governed else ""
    name = named.group("name")
    if name.isupper():  # "EMPLOYMENT AGREEMENT" in a title line
        name = name.title()
    return Agreement(name, named.start("name"), named.end("name"), parties, law)


def find_parties(text: str) -> tuple[Party, ...]:
    """The parties `text` names, each once with the first role it defines for them (the alias
    extractor's parties: a "between A and B" clause, or a name defined in brackets there)."""
    out: dict[str, Party] = {}
    for d in definitions(text):
        if d.kind == "party" and entity_key(d.name) not in out:
            out[entity_key(d.name)] = Party(d.name, d.term, d.start, d.end)
    return tuple(out.values())


def governing_law(text: str) -> str:
    m = _GOVERNED.search(text)
    return m.group("place").strip() if m else ""
