"""The parties to an agreement and the law that governs it, read from its opening and its
governing-law clause:

    This Distribution Agreement is made between Acme Pumps Limited, a company …
    ("Supplier") and Borealis Trading GmbH ("Distributor").
    This Agreement shall be governed by the laws of the State of New York.

`find_parties` is the one function the extractor calls: an alias extractor that reads defined
terms and parties with their roles elsewhere can take its place without touching the rest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citewise.graph.model import entity_key
from citewise.graph.rules.english import is_english

_Q = "\"“'‘"
_QC = "\"”'’"
_NAME = r"[A-Z][\w&.,'’-]*(?:[ \t]+(?:of|de|the|für|&)?[ \t]*[A-Z][\w&.'’-]*){0,7}"


def _role(side: str) -> str:
    return (
        r"\(\s*(?:the\s+|hereinafter\s+(?:referred\s+to\s+as\s+)?(?:the\s+)?)?"
        rf"[{_Q}](?P<role{side}>[^{_QC}\n]{{2,40}})[{_QC}]\s*\)"
    )


_AGREEMENT_WORDS = r"Agreement|Contract|Lease|Licen[cs]e|Deed|Memorandum|Addendum|Amendment|Terms"
_AGREEMENT = re.compile(
    rf"\b(?i:this|the)\s+(?P<name>(?:[A-Z][\w&-]*\s+(?:(?i:and)\s+)?){{0,5}}(?i:{_AGREEMENT_WORDS}))\b"
)
_BETWEEN = re.compile(
    rf"\bbetween\s+(?:the\s+)?(?P<a>{_NAME})(?P<a_tail>[^()]{{0,160}}?)\s*(?:{_role('a')})?"
    rf"\s*,?\s*and\s+(?:the\s+)?(?P<b>{_NAME})(?P<b_tail>[^()]{{0,160}}?)\s*(?:{_role('b')})?",
)
_GOVERNED = re.compile(
    r"\bgoverned\s+by[^.;]{0,60}?\blaws?\s+of\s+(?:the\s+)?(?:(?:State|Commonwealth|Province"
    r"|Republic|Kingdom)\s+of\s+)?(?P<place>[A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,3})"
)
_COMPANY_TAIL = re.compile(r",?\s+(?:Inc|Ltd|LLC|GmbH|plc|S\.A|B\.V|Limited|Corp)\.?$")


_ROLE_ENDS = ("ee", "or", "er", "ant", "ent")  # Licensee, Licensor, Employer, Consultant


@dataclass(frozen=True, slots=True)
class Party:
    name: str
    role: str  # "Supplier", "" when the text names none
    start: int
    end: int


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
    """The parties of a "between A (…) and B (…)" clause, each with its defined role."""
    m = _BETWEEN.search(text)
    if m is None:
        return ()
    out: list[Party] = []
    for side in ("a", "b"):
        name = m.group(side).rstrip(",. ")
        role = (m.group(f"role{side}") or "").strip()
        # a lone everyday word is a role ("the Company", "Employee"), not a party's name
        lone_role = " " not in name and (is_english(name) or name.lower().endswith(_ROLE_ENDS))
        if entity_key(name) and not lone_role and name not in ("The", "This"):
            out.append(Party(name, role, m.start(side), m.start(side) + len(name)))
    return tuple(out)


def governing_law(text: str) -> str:
    m = _GOVERNED.search(text)
    return m.group("place").strip() if m else ""
