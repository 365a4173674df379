"""Defined terms: '"X" means …', 'the term "X"', and 'Foo Bar Corporation (the "Vendor")' —
the defined name, with its short form as an alias."""

from __future__ import annotations

import re

from citewise.graph.model import entity_key
from citewise.graph.rules.tokens import Mention

_Q_OPEN = "\"“'‘"
_Q_CLOSE = "\"”'’"
_MEANS = re.compile(
    rf"[{_Q_OPEN}](?P<term>[^{_Q_CLOSE}\n]{{2,60}})[{_Q_CLOSE}]\s*,?\s+(?:means|refers\s+to"
    r"|is\s+defined\s+as|shall\s+mean|denotes|stands\s+for)\b"
)
# a word in each of _MEANS's verbs ("shall mean" has "mean")
_MEANS_WORDS = ("mean", "refers", "defined", "denotes", "stands")
_THE_TERM = re.compile(rf"\bthe\s+term\s+[{_Q_OPEN}](?P<term>[^{_Q_CLOSE}\n]{{2,60}})[{_Q_CLOSE}]")
_SHORT_FORM = re.compile(
    r"(?P<name>[A-Z][\w&-]*(?:\s+(?:(?:of|for|and|the|de)\s+)?[A-Z][\w&-]*){0,7})\s+"
    rf"\(\s*(?:the\s+|hereinafter\s+(?:the\s+)?|together\s+the\s+)?[{_Q_OPEN}](?P<short>[^"
    rf"{_Q_CLOSE}\n]{{1,40}})[{_Q_CLOSE}]\s*\)"
)


def find_terms(text: str) -> list[Mention]:
    # each pattern needs a quotation mark and a word most sentences lack: test those first
    found: list[Mention] = []
    if not any(q in text for q in _Q_OPEN):
        return found
    if any(word in text for word in _MEANS_WORDS):
        _add_terms(found, _MEANS, text)
    if "term" in text:
        _add_terms(found, _THE_TERM, text)
    if "(" not in text:
        return found
    for m in _SHORT_FORM.finditer(text):
        name, short = _bare(m.group("name")), m.group("short").strip()
        if len(name.split()) > MAX_TERM_WORDS or " THIS " in f" {name.upper()} ":
            continue  # a heading run on into the opening line: "CONSULTING AGREEMENT THIS …"
        if entity_key(name) and entity_key(short) and entity_key(name) != entity_key(short):
            found.append(Mention(entity_key(name), name, "term", m.start(), m.end(), (short,)))
    return found


def _add_terms(found: list[Mention], pattern: re.Pattern[str], text: str) -> None:
    for m in pattern.finditer(text):
        term = m.group("term").strip()
        if term[:1].isdigit():
            continue  # a quoted value ("150-155ms"), not a term
        found.append(Mention(entity_key(term), term, "term", m.start("term"), m.end("term")))


MAX_TERM_WORDS = 6
_OPENING = re.compile(r"^(?:this|the|that|such|said)\s+", re.I)


def _bare(name: str) -> str:
    """A defined name without the article or "This" in front of it."""
    return _OPENING.sub("", name.strip())
