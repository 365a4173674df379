"""The parties an agreement is made between, each with the role it defines for them:

    This Distribution Agreement is made between Acme Pumps Limited, a company …
    ("Supplier") and Borealis Trading GmbH ("Distributor").

Read by the graph (party_to edges) and by the alias extractor (`text.aliases`), so both see
the same parties.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citewise.text.english import is_english

_Q = "\"“'‘"
_QC = "\"”'’"
_NAME = r"[A-Z][\w&.,'’-]*(?:[ \t]+(?:of|de|the|für|&)?[ \t]*[A-Z][\w&.'’-]*){0,7}"


def _role(side: str) -> str:
    return (
        r"\(\s*(?:the\s+|hereinafter\s+(?:referred\s+to\s+as\s+)?(?:the\s+)?)?"
        rf"[{_Q}](?P<role{side}>[^{_QC}\n]{{2,40}})[{_QC}]\s*\)"
    )


_BETWEEN = re.compile(
    rf"\bbetween\s+(?:the\s+)?(?P<a>{_NAME})(?P<a_tail>[^()]{{0,160}}?)\s*(?:{_role('a')})?"
    rf"\s*,?\s*and\s+(?:the\s+)?(?P<b>{_NAME})(?P<b_tail>[^()]{{0,160}}?)\s*(?:{_role('b')})?",
)
_ROLE_ENDS = ("ee", "or", "er", "ant", "ent")  # Licensee, Licensor, Employer, Consultant


@dataclass(frozen=True, slots=True)
class Party:
    name: str
    role: str  # "Supplier", "" when the text names none
    start: int
    end: int


def find_parties(text: str) -> tuple[Party, ...]:
    """The parties of a "between A (…) and B (…)" clause, each with its defined role."""
    m = _BETWEEN.search(text) if "between" in text else None
    if m is None:
        return ()
    out: list[Party] = []
    for side in ("a", "b"):
        name = m.group(side).rstrip(",. ")
        role = (m.group(f"role{side}") or "").strip()
        if is_party_name(name):
            out.append(Party(name, role, m.start(side), m.start(side) + len(name)))
    return tuple(out)


def is_party_name(name: str) -> bool:
    """Not a role standing alone ("the Company", "Employee"): a lone everyday word, or one
    ending like a role, names no one."""
    words = name.split()
    if not words or name in ("The", "This") or not any(c.isalnum() for c in name):
        return False
    return len(words) > 1 or not (is_english(name) or name.lower().endswith(_ROLE_ENDS))
