"""The retrieval hook of the rule packs: what a pack's rules change when search looks inside
the documents a question names, asked for by the retriever (`retrieve.retriever`) instead of
importing a pack's module.

A rule reads the question's ask and returns an `InsideAsk`: words added to the search inside
those documents, and the passages it raises ("What was 3M's capex in FY2018?": the title and
row labels of the statement of cash flows; the passages titled by it). A pack switches a rule
on everywhere, or only inside the documents the rule recognises from their opening text (a
filing's cover page), so a user who did not pick the profile still gets it there
(`RulePack.recognised`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from citewise.types import Hit


class InsideAsk(Protocol):
    """What one rule makes of a question's ask (false: nothing)."""

    def __bool__(self) -> bool: ...

    def search_words(self) -> str:
        """Words added to the query inside the named documents."""
        ...

    def raises(self, text: str) -> bool:
        """Whether a passage (its section and opening) is one this ask raises."""
        ...


class InsideRule(Protocol):
    """A rule family's retrieval rule for searching inside the documents a question names."""

    @property
    def switch(self) -> str:
        """The `RulePack` switch it belongs to."""
        ...

    def recognises(self, opening: str) -> bool:
        """Whether a document whose opening text (its first passages) is `opening` is of the
        genre the rule is written for."""
        ...

    def asked(self, query: str) -> InsideAsk: ...


@dataclass(frozen=True, slots=True)
class Asks:
    """The asks of the rules that apply, as one."""

    asks: tuple[InsideAsk, ...] = ()

    def __bool__(self) -> bool:
        return any(self.asks)

    def search_words(self) -> str:
        return " ".join(w for a in self.asks if a and (w := a.search_words()))

    def raises(self, text: str) -> bool:
        return any(a.raises(text) for a in self.asks if a)

    def with_words(self, query: str) -> str:
        """`query` followed by the asks' search words."""
        words = self.search_words()
        return f"{query} {words}" if words else query


@dataclass(frozen=True, slots=True)
class RetrievalRules:
    """The retrieval rules a profile switches on: `everywhere`, and those applied only inside
    documents they recognise (`recognised`)."""

    everywhere: tuple[InsideRule, ...] = ()
    recognised: tuple[InsideRule, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.everywhere or self.recognised)

    def asked(self, query: str, recognises: Callable[[InsideRule], bool] | None = None) -> Asks:
        """The asks of the rules that apply to `query`: every rule switched on everywhere,
        and a recognising rule when the question asks it something and `recognises` (the
        named documents read) says they are all of its genre (read only then)."""
        asks = [rule.asked(query) for rule in self.everywhere]
        for rule in self.recognised:
            ask = rule.asked(query)
            if ask and recognises is not None and recognises(rule):
                asks.append(ask)
        return Asks(tuple(a for a in asks if a))


def raised(hits: Sequence[Hit], ask: InsideAsk, boost: float) -> list[Hit]:
    """The hits re-sorted with the scores of those `ask` raises (by their section and
    opening) raised by `boost` (ranks as they were; pure)."""
    if not ask or boost <= 0:
        return list(hits)
    out = [
        replace(h, score=h.score * (1 + boost)) if ask.raises(f"{h.section}\n{h.text[:300]}") else h
        for h in hits
    ]
    out.sort(key=lambda h: h.score, reverse=True)
    return out
