"""Which financial statements, and which of their rows, a question about a company's figures
needs (pure; the financial statements rule pack): "What is 3M's capital expenditure in
FY2018?" needs the statement of cash flows and its row "Purchases of property, plant and
equipment". Reports title their statements in a few set ways ("Consolidated Statements of
Operations", "Balance Sheets", "Statement of Financial Position") and label their rows in
the accounting terms a question rarely uses: the measure a question names is mapped to the
statements and row labels that report it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

BALANCE = "balance sheet"
INCOME = "income statement"
CASH_FLOW = "cash flow statement"


@dataclass(frozen=True, slots=True)
class Statement:
    name: str
    asked: re.Pattern[str]  # a question naming it
    title: re.Pattern[str]  # a report titling it
    words: str  # its title as search words


_BALANCE_TITLE = re.compile(
    r"\bbalance\s+sheets?\b|\bstatements?\s+of\s+financial\s+(?:position|condition)\b", re.I
)
_STATEMENTS = (
    Statement(
        BALANCE,
        _BALANCE_TITLE,
        _BALANCE_TITLE,
        "consolidated balance sheets statement of financial position",
    ),
    Statement(
        INCOME,
        re.compile(
            r"\bincome\s+statements?\b|\bstatements?\s+of\s+(?:income|operations|earnings)\b"
            r"|\bprofit\s+and\s+loss\b|\bP&L\b",
            re.I,
        ),
        re.compile(
            r"\bincome\s+statements?\b"
            r"|\bstatements?\s+of\s+(?:consolidated\s+)?(?:income|operations|earnings)\b",
            re.I,
        ),
        "consolidated statements of operations income earnings",
    ),
    Statement(
        CASH_FLOW,
        re.compile(
            r"\bcash[\s-]+flows?\s+statements?\b|\bstatements?\s+of\s+cash\s+flows?\b", re.I
        ),
        re.compile(r"\bstatements?\s+of\s+(?:consolidated\s+)?cash\s+flows?\b", re.I),
        "consolidated statements of cash flows",
    ),
)
STATEMENTS = {s.name: s for s in _STATEMENTS}
# the parent company's statements and the guarantors' consolidating ones are schedules
# beside the consolidated statements, not them
_SCHEDULE = re.compile(r"\bconsolidating\s+(?:balance|statements?)\b|\bparent\s+company\b", re.I)


@dataclass(frozen=True, slots=True)
class Measure:
    """A measure a question may name, the statements that report it and their row labels."""

    asked: re.Pattern[str]
    statements: tuple[str, ...]
    rows: str


def _measure(pattern: str, statements: tuple[str, ...], rows: str) -> Measure:
    return Measure(re.compile(pattern, re.I), statements, rows)


MEASURES = (
    _measure(
        r"\bcap(?:ital)?[\s-]*ex(?:penditures?)?\b|\bcapital[\s-]+intens",
        (CASH_FLOW,),
        "purchases of property plant and equipment capital expenditures",
    ),
    _measure(
        r"\bfree\s+cash\s*flows?\b|\bFCF\b",
        (CASH_FLOW,),
        "net cash provided by operating activities purchases of property plant and equipment",
    ),
    _measure(
        r"\bcash\s+(?:flows?\s+)?from\s+operati|\boperating\s+cash\s+flow|\bcash\s+flows?\b",
        (CASH_FLOW,),
        "net cash provided by operating investing financing activities",
    ),
    _measure(
        r"\bdepreciation\b|\bD&A\b|\bEBITDA",
        (CASH_FLOW, INCOME),
        "depreciation and amortization operating income",
    ),
    _measure(
        r"\bdividends?\b|\b(?:stock|share)\s+(?:re)?purchases?\b|\bbuybacks?\b|\brepurchas",
        (CASH_FLOW,),
        "dividends paid repurchases of common stock treasury stock",
    ),
    _measure(
        r"\boperating\s+(?:income|margin|profit)\b|\bEBIT\b|\bincome\s+from\s+operations\b",
        (INCOME,),
        "operating income total revenues net sales",
    ),
    _measure(
        r"\bgross\s+(?:margin|profit)\b|\bCOGS\b|\bcosts?\s+of\s+(?:goods|sales|revenues?)\b",
        (INCOME,),
        "gross profit cost of sales cost of revenue net sales",
    ),
    _measure(
        r"\b(?:net\s+)?(?:revenues?|sales)\b|\btop[\s-]*line\b",
        (INCOME,),
        "total revenues net sales",
    ),
    _measure(
        r"\bnet\s+(?:income|earnings|profit|loss)\b|\bEPS\b|\bearnings\s+per\s+share\b",
        (INCOME,),
        "net income earnings per share",
    ),
    _measure(
        r"\b(?:effective\s+)?tax\s+rate\b|\bincome\s+tax",
        (INCOME,),
        "provision for income taxes income before income taxes",
    ),
    _measure(
        r"\binterest\s+(?:coverage|expense)\b",
        (INCOME,),
        "interest expense operating income",
    ),
    _measure(
        r"\bworking\s+capital\b|\b(?:current|quick|acid[\s-]+test)\s+ratio\b|\bliquidity\b",
        (BALANCE,),
        "total current assets total current liabilities cash and cash equivalents"
        " accounts receivable",
    ),
    _measure(
        r"\binventor(?:y|ies)\b",
        (BALANCE, INCOME),
        "inventories cost of sales",
    ),
    _measure(
        r"\bpayables?\b|\bDPO\b",
        (BALANCE, INCOME),
        "accounts payable cost of sales",
    ),
    _measure(
        r"\breceivables?\b|\bDSO\b",
        (BALANCE, INCOME),
        "accounts receivable revenues",
    ),
    _measure(
        r"\breturn\s+on\s+(?:total\s+)?assets\b|\bROA\b|\btotal\s+assets\b|\basset\s+turnover\b",
        (BALANCE, INCOME),
        "total assets net income",
    ),
    _measure(
        r"\breturn\s+on\s+(?:shareholders'?\s+|stockholders'?\s+)?equity\b|\bROE\b",
        (BALANCE, INCOME),
        "total shareholders equity net income",
    ),
    _measure(
        r"\bPP&?E\b|\bproperty,?\s+plant\b|\bfixed\s+assets?\b",
        (BALANCE,),
        "property plant and equipment net",
    ),
    _measure(
        r"\bdebt\b|\bleverage\b|\bborrowings?\b",
        (BALANCE,),
        "long-term debt short-term borrowings total liabilities",
    ),
    _measure(
        r"\b(?:total\s+)?liabilit(?:y|ies)\b|\b(?:shareholders|stockholders)'?\s+equity\b",
        (BALANCE,),
        "total liabilities total equity",
    ),
)


@dataclass(frozen=True, slots=True)
class StatementAsk:
    """The statements a question needs (named, or reporting the measures it names) and the
    row labels of those measures."""

    statements: tuple[str, ...] = ()
    rows: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.statements)

    def search_words(self) -> str:
        """The statements' titles and the rows' labels, as words to search with."""
        titles = [STATEMENTS[name].words for name in self.statements]
        return " ".join([*titles, *self.rows])

    def titled(self, text: str) -> bool:
        """Whether `text` (a passage) carries the title of a statement asked for, and of
        no other statement (a list of the statements is not one of them)."""
        if _SCHEDULE.search(text):
            return False
        titles = {s.name for s in _STATEMENTS if s.title.search(text)}
        return len(titles) == 1 and not titles.isdisjoint(self.statements)

    def raises(self, text: str) -> bool:
        """The passages this ask raises (`rules.retrieval.InsideAsk`): those `titled`."""
        return self.titled(text)


def asked_statements(question: str) -> StatementAsk:
    """The statements `question` names, and those reporting the measures it names (the
    named ones first), with the measures' row labels; empty when it names neither."""
    named = [s.name for s in _STATEMENTS if s.asked.search(question)]
    measures = [m for m in MEASURES if m.asked.search(question)]
    implied = [name for m in measures for name in m.statements]
    statements = tuple(dict.fromkeys([*named, *implied]))
    rows = tuple(dict.fromkeys(m.rows for m in measures))
    return StatementAsk(statements, rows)
