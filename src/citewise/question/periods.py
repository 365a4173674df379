"""The periods and names a question mentions (pure): "FY2018", "fiscal 2023", "Q2 of FY2024",
"the second quarter of 2022", "in 2019"; "3M", "AMCOR", "Best Buy". Matched against what each
document says about itself (`types.DocumentFields`) to find the document a question is about
among many alike."""

from __future__ import annotations

import re
from dataclasses import dataclass

MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
# a word that names a period, not an organisation: "fy2018", "q2", "2023q4", "fy22"
PERIOD_WORD = re.compile(
    r"(?:fy|cy|h[12]|q[1-4])?'?\d{2,4}(?:q[1-4]|h[12])?|q[1-4]|fy|ytd|ttm", re.I
)
MONTH_NAMES = frozenset((
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep",
    "sept", "oct", "nov", "dec",
))  # fmt: skip

_YEAR = re.compile(
    r"(?<![\d.,$])(?:FY|CY|fiscal(?:\s+year)?)?\s*'?((?:19|20)\d\d)(?![\d.,]\d)", re.I
)
_SHORT_FY = re.compile(r"\bFY\s*'?(\d\d)\b", re.I)
_QUARTER_YEAR = re.compile(r"\bQ[1-4]\s*(?:FY)?\s*'?((?:19|20)\d\d)\b", re.I)
_QUARTER = re.compile(
    r"\bQ[1-4]\b|\b(?:first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:fiscal\s+)?quarter\b"
    r"|\bquarter(?:ly)?\b|\b(?:19|20)\d\dQ[1-4]\b|\bQ[1-4]\s*'?(?:19|20)\d\d\b|\b10-?Q\b",
    re.I,
)
_ANNUAL = re.compile(
    r"\bFY\s*'?\d{2,4}\b|\bfiscal\s+(?:year\s+)?(?:19|20)\d\d\b|\bannual(?:ly)?\b|\bfull[- ]year\b"
    r"|\b10-?K\b",
    re.I,
)
# a capitalised or upper-case word, or one mixing digits and capitals ("3M", "JnJ")
_NAME = re.compile(r"(?<![\w-])(?:[A-Z][\w&'-]*[A-Za-z0-9]|\d+[A-Z][A-Za-z]*)(?![\w-])")


@dataclass(frozen=True, slots=True)
class Periods:
    years: tuple[int, ...] = ()  # the years named: FY2018, fiscal 2023, 2019, FY22
    quarterly: bool = False  # names a quarter: "Q2", "second quarter", "quarterly"
    annual: bool = False  # names a fiscal or annual period: "FY2018", "annual", "10-K"


def periods(question: str) -> Periods:
    """The years and kinds of period `question` names (see the module docstring)."""
    years = [int(m[1]) for m in _YEAR.finditer(question)]
    years += [2000 + int(m[1]) for m in _SHORT_FY.finditer(question)]
    years += [int(m[1]) for m in _QUARTER_YEAR.finditer(question)]
    return Periods(
        years=tuple(dict.fromkeys(years)),
        quarterly=bool(_QUARTER.search(question)),
        annual=bool(_ANNUAL.search(question)),
    )


_PERIOD_PHRASE = re.compile(
    r"\b(?:(?:in|for|of|during|as\s+of)\s+)?(?:(?:FY|CY|fiscal(?:\s+year)?)\s*'?\d\d\b"
    r"|(?:(?:FY|CY|fiscal(?:\s+year)?)\s*)?(?:Q[1-4]\s*)?(?:19|20)\d\d(?:Q[1-4])?\b|Q[1-4]\b)",
    re.I,
)


def without_names(question: str, names: tuple[str, ...]) -> str:
    """The question without the given name words (and their possessive) and the periods it
    names: what is asked of a document once the document is chosen by them."""
    text = _PERIOD_PHRASE.sub(" ", question)
    for name in sorted(names, key=len, reverse=True):
        text = re.sub(rf"(?<![\w-]){re.escape(name)}(?:'s|')?(?![\w-])", " ", text, flags=re.I)
    return " ".join(text.split())


def name_runs(question: str) -> tuple[tuple[str, ...], ...]:
    """The runs of adjacent name words: "Best Buy's stores in Q2" -> (("best", "buy"),)."""
    runs: list[tuple[str, ...]] = []
    run: list[str] = []
    end = -1
    for m, word in name_matches(question):
        if run and question[end : m.start()].strip(" '") not in ("", "s"):
            runs.append(tuple(run))
            run = []
        run.append(word)
        end = m.end()
    if run:
        runs.append(tuple(run))
    return tuple(runs)


def name_words(question: str) -> tuple[str, ...]:
    """Lower-cased words the question spells as names (capitalised or upper-case, not the
    first word of a sentence unless it is upper-case or mixes in digits), without periods
    and months, then each run of adjacent ones joined, as file names write them: "What did
    Best Buy earn in FY2018?" -> ("best", "buy", "bestbuy")."""
    runs = name_runs(question)
    words = [w for run in runs for w in run]
    joined = ["".join(run) for run in runs if len(run) > 1]
    return tuple(dict.fromkeys(words + joined))


def name_matches(question: str) -> list[tuple[re.Match[str], str]]:
    """Each word `question` spells as a name, with its match (see `name_words`)."""
    out: list[tuple[re.Match[str], str]] = []
    for m in _NAME.finditer(question):
        word = m.group(0)
        before = question[: m.start()].rstrip()
        opens = not before or before[-1] in ".?!:"
        if opens and not (word.isupper() or any(c.isdigit() for c in word)):
            continue
        w = word.lower().removesuffix("'s").strip("'-&")
        if len(w) < 2 or PERIOD_WORD.fullmatch(w) or w in MONTH_NAMES:
            continue
        out.append((m, w))
    return out
