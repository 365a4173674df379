"""The financial statements rule as a retrieval rule (`rules.retrieval.InsideRule`), with the
recogniser of the documents it is written for: a filing's cover page (the SEC's form 10-K,
10-Q, 8-K, 20-F …) or the opening of an annual report or results release, which states the
period's figures in the words of the statements (net sales, net income, earnings per share,
cash flow)."""

from __future__ import annotations

import re

from citewise.rules.financial_statements import StatementAsk, asked_statements

# a filing's cover: the regulator, the form, the section it is filed under
_FILING = re.compile(
    r"\bsecurities\s+and\s+exchange\s+commission\b"
    r"|\bform\s+(?:10-?K|10-?Q|8-?K|20-?F|40-?F|6-?K)\b"
    r"|\b(?:annual|quarterly)\s+report\s+pursuant\s+to\s+section\b",
    re.I,
)
# the figures an annual report's or a results release's opening states
_FIGURES = tuple(
    re.compile(p, re.I)
    for p in (
        r"\b(?:net|total|reported)\s+(?:sales|revenues?)\b",
        r"\bnet\s+(?:income|earnings|loss)\b",
        r"\bearnings\s+per\s+(?:diluted\s+)?share\b|\bEPS\b",
        r"\b(?:free\s+|operating\s+)?cash\s+flows?\b",
        r"\boperating\s+(?:income|profit|margin)\b|\bEBITD?A?\b",
        r"\bgross\s+(?:margin|profit)\b",
        r"\bdividends?\b",
        r"\bfiscal\s+(?:year|quarter|(?:19|20)\d\d)\b|\b(?:first|second|third|fourth)[\s-]+quarter\b"
        r"|\bfull[\s-]+year\b",
        r"\b(?:announce[sd]?|report(?:s|ed)?)\s+(?:\w+\s+){0,5}results\b",
    )
)
# this many of the figures' kinds in the opening make it a report's
FIGURES_NEEDED = 4


def is_financial_report(opening: str) -> bool:
    """Whether a document opening with `opening` (its first passages) is a filing, an annual
    report or a results release (pure)."""
    if _FILING.search(opening):
        return True
    return sum(1 for p in _FIGURES if p.search(opening)) >= FIGURES_NEEDED


class FinancialStatementsRule:
    """Inside a report, the statements reporting the measure a question asks for are searched
    (their titles and row labels added to the query) and their passages raised."""

    @property
    def switch(self) -> str:
        return "financial_statements"

    def recognises(self, opening: str) -> bool:
        return is_financial_report(opening)

    def asked(self, query: str) -> StatementAsk:
        return asked_statements(query)
