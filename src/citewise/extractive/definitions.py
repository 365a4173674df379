"""Definitional questions ("What is a descriptor?", "What does functools.lru_cache do?",
"How do generators work?", "What does Counter.most_common() return?") and the sentences that
answer them (pure).

Documentation defines a thing in a sentence that names it and then says what it is ("A
descriptor is …", "Generators are …"), or in the opening sentence under a heading that names
it ("functools.lru_cache(…)" followed by "Decorator to wrap a function …").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from citewise.extractive.units import entry_name, is_code_line
from citewise.question.subject import spaced
from citewise.rules.option_items import option_item
from citewise.text.headings import bare_title, heading_names, last_heading
from citewise.text.sentences import content_words, lines_of_sentences, stem
from citewise.types import DocumentInfo, Hit

# "is"/"are" followed by a participle describes a use ("Enumerations are created by …"), not
# what the thing is; "is called", "is defined as" still define
_VERB = (
    r"(?:(?:is|are)(?!\s+(?!called\b|defined\b)\w+ed\b)|refers\s+to|means|provides|lets"
    r"|allows|represents|returns|wraps)"
)
# lines before the sentence that says what an entry is: "Source code: Lib/bisect.py" heading a
# module's page; an entry's parameters and return type listed first ("- options {Object}",
# "- Returns: {string}", as the Node.js docs do), its version ("Added in: v15.6.0") and an
# option's other names on a line of their own ("--verbose" under the heading "-v")
_PREAMBLE_LINE = re.compile(
    r"^\s*(?:source code:|added in:|[-*•]\s+(?:returns:|`?[\w.$]+`?\s*[{<])"
    r"|--?[A-Za-z][\w-]*(?:[= ]\S+)?(?:,\s*--?[A-Za-z][\w-]*(?:[= ]\S+)?)*\s*$)",
    re.I,
)


def is_preamble(line: str) -> bool:
    """Whether a line precedes what an entry says (`_PREAMBLE_LINE`): never an antecedent."""
    return _PREAMBLE_LINE.match(line) is not None


def defines(subject: tuple[str, ...], sentence: str, opens: bool, section: str) -> bool:
    """True when `sentence` reads as the definition of `subject`: it names the subject's last
    word and a defining verb follows within a few words, or it opens its passage (`opens`,
    see `opening_index`) under a heading that names the subject."""
    head = subject[-1]
    if head.startswith("-") and option_item(head, sentence):
        return True  # "--leak-check=<no|summary|yes|full> [default: summary]: When enabled, …"
    lowered = sentence.lower()
    # the subject opens the sentence (after a short lead-in such as "In general,") and a
    # defining verb follows at once: "A descriptor is …", "Generators are …"
    pattern = (
        rf"^(?:[^,.;]{{0,30}},\s*)?(?:an?\s+|the\s+)?(?:(?!\w+ing\b)\w+\s+)?{re.escape(head)}\w{{0,3}}\b"
        rf"(?:\s*\([^)]*\))?\s+(?:\w+\s+)?{_VERB}\b"
    )
    # a definition list: "An enumeration: - is a set of symbolic names …"
    listed = rf"^(?:an?\s+|the\s+)?{re.escape(head)}\w{{0,3}}:\s*[-*•]\s*(?:is|are)\b"
    if re.search(pattern, lowered) or re.search(listed, lowered):
        return True
    return opens and subject_heading(subject, section) is not None


def opening_index(text: str) -> int | None:
    """The index (in `split_sentences(text)`) of the passage's first sentence after its
    preamble lines (`_PREAMBLE_LINE`) and code (a C entry opens with its declaration, "int
    BZ2_bzCompressInit ( bz_stream *strm, … );", before "Prepares for compression."), or
    None when it has only those."""
    seen = 0
    for line, pieces in lines_of_sentences(text):
        if not is_preamble(line) and not is_code_line(line):
            return seen
        seen += len(pieces)
    return None


def subject_heading(subject: tuple[str, ...], section: str) -> str | None:
    """The last heading of `section` when it names the subject's last word, as an answer
    would show it ("shutil.rmtree()" for a long signature), else None."""
    last = last_heading(section)
    if subject and subject[-1].startswith("-"):  # an option: "-m <module-name>"
        return last if heading_names(last, subject[-1]) else None
    if not subject or subject[-1] not in name_stems(last):
        return None
    entry = entry_name(section)
    return entry[0] if entry else last


TITLE_BONUS = 0.3  # share of the top score added when the page is about the subject
HEADING_BONUS = 0.15  # … when the passage's own heading names it


def promote_definitions(hits: Sequence[Hit], subject: tuple[str, ...]) -> list[Hit]:
    """Reorders hits for a definitional question: a page whose title leads with the subject
    ("asyncio — Asynchronous I/O", "Glossary" entries under a heading naming it) usually
    holds the definition, while pages that only mention it (release notes, other modules)
    rank high on word counts alone."""
    if not subject or not hits:
        return list(hits)
    head = subject[-1]
    top = max(h.score for h in hits)
    option = [h for h in hits if head.startswith("-") and _documents_option(subject, h)]
    # what documents an option ranks first, in its own order: it is one entry or item, often
    # in a list of options that search ranks lower than prose mentioning the option
    lift = top - max((h.score for h in option), default=top) + HEADING_BONUS * top
    lifted = {h.chunk_id for h in option}

    def bonus(h: Hit) -> float:
        if h.chunk_id in lifted:
            return lift
        lead = _lead(h.title)
        if lead and lead[0] == head:  # "asyncio — …", not "Developing with asyncio"
            return TITLE_BONUS * top
        return HEADING_BONUS * top if subject_heading(subject, h.section) else 0.0

    rescored = sorted(hits, key=lambda h: h.score + bonus(h), reverse=True)
    return [replace(h, rank=i + 1, score=h.score + bonus(h)) for i, h in enumerate(rescored)]


def _documents_option(subject: tuple[str, ...], h: Hit) -> bool:
    return subject_heading(subject, h.section) is not None or option_item(subject[-1], h.text)


def _lead(title: str) -> list[str]:
    head = re.split(r"\s+[—–-]\s+|:", bare_title(title), maxsplit=1)[0]
    return name_stems(head)


def name_stems(text: str) -> list[str]:
    """Stems of the words of a heading or name, dotted and snake-case parts apart
    ("shutil.rmtree" → shutil, rmtree)."""
    return [stem(w) for w in content_words(spaced(text))]


def pages_about(subject: tuple[str, ...], docs: Sequence[DocumentInfo]) -> list[DocumentInfo]:
    """Documents whose title leads with the subject ("asyncio — Asynchronous I/O" for
    "What is asyncio?"): their opening passage is usually the definition, even when search
    ranks pages that merely mention the subject higher."""
    if not subject:
        return []
    return [d for d in docs if (lead := _lead(d.title)) and lead[0] == subject[-1]]
