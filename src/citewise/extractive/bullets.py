"""Bullets, cells and short lines that answer with their title: a slide's "Election timeout"
over "- 150–300 ms, chosen at random" says what a sentence would, and so does a table cell
under its heading. Alone such a line is too short to count as prose; read after its title it
is a candidate like a sentence, and it is shown with the title (pure)."""

from __future__ import annotations

import re
from collections.abc import Set

from citewise.extractive.candidates import stems_of
from citewise.extractive.scoring import is_title
from citewise.extractive.units import (
    is_caption,
    is_code_line,
    is_navigation,
    is_prose,
    points_away,
)
from citewise.text.headings import last_heading

_ARTICLE = re.compile(r"^(?:the|a|an)\s", re.I)  # "The … Agreement": a document's title
_LIST_MARK = re.compile(r"^\s*(?:[-*•▪◦‣–]|\d+[.)])\s+")
MAX_TITLE_WORDS = 12  # a longer "title" is a heading path of prose, not a slide's title
SHORT_LINE_WORDS = 6  # a line this short is a bullet or a cell, not a sentence left out


def is_short_line(line: str) -> bool:
    """A bullet, a cell or a short line: too short to be prose, and not code or a caption
    (a longer line that is not prose was left out for what it is: a pointer, code, a question)."""
    words = _LIST_MARK.sub("", line).split()
    return (
        0 < len(words) <= SHORT_LINE_WORDS
        and "/s/" not in line  # a signature line: who signed, not what the document says
        and not is_code_line(line)
        and not is_caption(line)
        and not line.rstrip().endswith("?")
    )


def titled(line: str, section: str) -> str | None:
    """`line` read after the last heading of `section` ("Election timeout: 150–300 ms"), or
    None when there is no heading or the line already starts with it."""
    heading = last_heading(section).strip()
    if not heading or len(heading.split()) > MAX_TITLE_WORDS or is_navigation(heading):
        return None
    body = _LIST_MARK.sub("", line).strip()
    if not body or body.lower().startswith(heading.lower()) or not _SAYS.search(body):
        return None
    if points_away(body):
        return None  # "See the new: www.owasp.org/…": where the answer is, not what it says
    if len(body.split()) < 2 and not re.search(r"\d", body):
        return None  # one word ("Waiver.") is a heading of the text, not what it says
    if is_run_in_heading(body) or (_ARTICLE.match(body) and is_title(body)):
        return None  # "The Software Support and Maintenance Agreement": a title, not a statement
    return f"{heading}: {body}"


# what a line must hold to say something under its title: a word, or a figure that is more
# than a list's numbering ("31", "8%", "150 ms"; not "1" or "2.")
_SAYS = re.compile(r"[^\W\d_]{2,}|\d{2,}|\d\s*(?:%|[^\W\d_]{1,3}\b)")


# "Section 4.", "Article 12", "(c) Performance of Duties.", "Governing Law.": a clause's own
# heading, run into the text, that names what follows and says nothing of it
_SECTION_REF = re.compile(
    r"^(?:section|article|clause|exhibit|schedule|annex|appendix|part|§)\s*[\w.()-]+\.?$", re.I
)
_CLAUSE_LABEL = re.compile(r"^\s*(?:\(\w{1,5}\)|\d+(?:\.\d+)*\.?|[A-Z]\.)\s+")
_SMALL_WORDS = frozenset({"a", "an", "and", "of", "or", "the", "to", "in", "on", "for", "with"})
RUN_IN_WORDS = 5


def is_run_in_heading(line: str) -> bool:
    """A clause's heading on its own line ("Section 4.", "(c) Performance of Duties."):
    a section reference, or a few capitalised words (not acronyms) closed by a full stop."""
    body = _CLAUSE_LABEL.sub("", line.strip())
    if _SECTION_REF.match(body):
        return True
    words = [w for w in re.findall(r"[^\W\d_][\w'’-]*", body) if w.lower() not in _SMALL_WORDS]
    words = [w for w in words if not w.isupper()]  # "Use HTTPS." is a slide's advice
    return (
        body.endswith(".")
        and 2 <= len(words) <= RUN_IN_WORDS
        and all(w[0].isupper() for w in words)
        and not re.search(r"\d", body)
    )


def titled_unit(unit: str, section: str, asked: Set[str], min_words: int) -> str | None:
    """The line `unit` with its title, when that reads as prose and the pair speaks of what
    is asked (`asked`: the stems of the question's ask, its names left out): the line names
    it, or its title does."""
    framed = titled(unit, section)
    if framed is None or not (is_prose(framed, min_words) or _reads(framed, min_words)):
        return None
    return framed if stems_of(framed) & asked else None


# "Formula: (Max Incidence Rate % * 1000) + …", "2025 = 686 CWEs": a label and its value
_LABELLED = re.compile(r"^\s*(?:[-*•▪◦‣–]\s+)?[^\W\d_][\w'’-]*(?:\s+[\w'’-]+){0,2}:\s+\S")


def labelled_unit(unit: str, asked: Set[str], min_words: int) -> str | None:
    """A line that is not prose but a label and its value ("Formula: (Max Incidence Rate %
    * 1000) + …"), when it reads and its label or value speaks of what is asked."""
    if not _LABELLED.match(unit) or is_navigation(unit) or "/s/" in unit:
        return None
    if not _reads(unit, min_words):
        return None
    return unit if stems_of(unit) & asked else None


def _reads(text: str, min_words: int) -> bool:
    """Enough words among figures and symbols to be read as a statement (a table's row or a
    slide's formula), and not code."""
    tokens = text.split()
    wordy = sum(1 for t in tokens if re.search(r"[^\W\d_]{2,}", t))
    return len(tokens) >= min_words - 1 and wordy >= 2 and not is_code_line(text)


def ask_stems(question: str) -> set[str]:
    """The stems of what a question asks, without the names it picks documents by ("What is
    Massoud Safavi's non-compete?": "non", "compete"): a line sharing only a name with the
    question is not about what it asks."""
    words = question.split()
    plain = [w for i, w in enumerate(words) if i == 0 or not w[:1].isupper()]
    return stems_of(" ".join(plain))
