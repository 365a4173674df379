"""Whether a capitalised name found in a document stands as a name there, judged over the whole
document once every sentence is read (the rules that find names see one sentence at a time):

- **in prose**: a run of everyday words or of four words or more needs one mention in prose
  (function words around it): seen only in table rows, author blocks or lists of capitalised
  cells ("Job Type | Map Tasks", "Brandt Carlos Maltzahn University of California") it is
  cells run together, with no sentence saying what it is;
- **whole**: a name every occurrence of which continues a longer capitalised name ("Century
  Oncology" always in "21st Century Oncology", "Public License" in "General Public License");
- **not a title**: a run of everyday words that is only a section's or a clause's title
  ("7. Payment Terms.", the heading "Binary Dependencies");
- **not a role's description**: a term the document defines "of" something ("Distributor of
  Liebherr");
- **not only in a figure**: a name whose every occurrence is in a caption or among a
  chart's or a table's numbers is labels run together;
- **not run together**: a letter or two run into a word the document writes on its own
  ("Alinearizable"), a code identifier among a longer name's words ("Actions sendStatus");
- **not cut by an accent**: a PDF that writes an accent as a character of its own cuts the
  name it is in ("Brug" of "Brug˚ard").

Defined terms, parties, codes, paths and the lower-case technical names have their own
evidence and are not judged here.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence

from citewise.graph.model import EntityKind, entity_key
from citewise.graph.rules.tokens import Mention, Sentence
from citewise.text.english import is_english
from citewise.text.words import STOPWORDS

# the kinds read from capitals alone
JUDGED: frozenset[EntityKind] = frozenset({"name", "product", "acronym", "agreement"})
LONG_RUN = 4
MIN_PROSE_WORDS = 3  # around the name
MIN_LOWER_WORDS = 2  # a verb and a function word at least: "A reads the B"
_PUNCTUATION = ".,;:!?()[]{}\"'“”‘’"
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
# a capitalised word or a number just before (not one ending a sentence), or "&"
# (an ordinal such as "21st", not a phone number or a postcode)
_LONGER_BEFORE = re.compile(r"(?:(?P<w>[A-Z](?:[\w'’-]*[\w'’])?|\d+(?:st|nd|rd|th))|&)[ \t]+$")
_LONGER_AFTER = re.compile(r"^[ \t]+(?P<w>[A-Z][\w'’-]*)")
# a possessive before a capitalised everyday word: a title's start ("Debian Developer’s
# Reference"), not a name's ("Lamport’s Paxos")
_TITLE_OWNER = re.compile(r"^['’]s[ \t]+(?P<w>[A-Z][a-z]+)\b")
# joined to more capitalised words: "Travel and Entertainment Expense Policy", "Data Security
# Compliance & Policy" (at a cost: "Executive Vice President and Chief Operating Officer" also
# hides a true name that is always joined so; precision over recall)
_JOINED_BEFORE = re.compile(r"[A-Z][\w'’-]*[ \t]+(?:and|&|of)[ \t]+$")
_JOINED_AFTER = re.compile(r"^[ \t]+(?:and|&|of)(?:[ \t]+the)?[ \t]+[A-Z]")
# a clause's or a section's number (or nothing) on its line before, a full stop or colon after
_TITLE_BEFORE = re.compile(
    r"(?:^|\n)[ \t]*(?:(?:Section|Article|Clause)\s+)?(?:[\dA-Za-z]{1,3}(?:\.\d+)*[.)][ \t]*)*$"
)
_TITLE_AFTER = re.compile(r"^[ \t]*(?:[.:]|\n|$)")


def prose_at(sentence: Sentence, start: int, end: int) -> bool:
    """Whether the words around [start, end) are prose: the stretch of the sentence between
    table cell bars and line breaks has lower-case words, a function word among them (a table
    row, an author line or a list of capitalised cells has at most an "of")."""
    if sentence.heading_like:
        return False
    text = sentence.text
    left = max(text.rfind("|", 0, start), text.rfind("\n", 0, start)) + 1
    rights = [i for i in (text.find("|", end), text.find("\n", end)) if i >= 0]
    # whole words only: an e-mail address or a URL is no prose ("fbs@cs.cornell.edu")
    # the name's own words ("Department of …") are not the prose around it
    right = min(rights, default=len(text))
    stretch = f"{text[left:start]} {text[end:right]}".split()
    words = [w for t in stretch if (w := t.strip(_PUNCTUATION)).isalpha()]
    lower = [w for w in words if w.islower()]
    return (
        len(words) >= MIN_PROSE_WORDS
        and len(lower) >= MIN_LOWER_WORDS
        and any(w in STOPWORDS for w in lower)
    )


def unstanding(
    found: Iterable[tuple[Sentence, Sequence[Mention]]],
    text: str,
    headings: Iterable[str] = (),
    roles: Collection[str] = (),
) -> set[str]:
    """The keys of the judged names that do not stand as names in the document `text`
    (`found`: each sentence with its mentions; `roles`: the everyday words it defines as
    terms, "Distributor", "Products")."""
    names: dict[str, str] = {}
    prose: set[str] = set()
    other: set[str] = set()  # keys some other rule also finds (a term, a code): not judged
    for sentence, mentions in found:
        for m in mentions:
            if m.kind not in JUDGED or m.aliases:
                other.add(m.key)
                continue
            names.setdefault(m.key, m.name)
            if m.key not in prose and prose_at(sentence, m.start, m.end):
                prose.add(m.key)
    titles = {entity_key(_unnumbered(h)) for h in headings}
    known = names.keys() | other
    out: set[str] = set()
    for key, name in names.items():
        if key in other:
            continue
        if (
            (key not in prose and _needs_prose(name))
            or _only_inside_longer(name, text)
            or (_everyday_run(name) and (key in titles or _only_titles(name, text)))
            or _role_phrase(name, roles)
            or _run_on(name, known, roles)
            or _only_cut_by_accents(name, text)
            or _only_in_figures(name, text)
            or _glued_to_its_word(name, text)
            or _with_identifier(name)
        ):
            out.add(key)
    return out


def _role_phrase(name: str, roles: Collection[str]) -> bool:
    """A role the document defines, "of" something ("Distributor of Liebherr", "Customer of
    Products"): a description of a party or a part, not a name."""
    parts = re.split(r"\s+of\s+", name)
    return len(parts) > 1 and any(p in roles for p in parts)


def _run_on(name: str, names: Collection[str], roles: Collection[str]) -> bool:
    """Two things run together: across "the" ("Agreement the Executive", "Complete the
    Initial Closing"), a role before another name ("Employee Confidential Information"), or a
    word and a hyphenated everyday word that lost its hyphen ("Dapperinstrumented")."""
    words = name.split()
    for i, w in enumerate(words[1:-1], start=1):
        if w == "the" and words[i - 1].lower() not in _JOIN_BEFORE_THE:
            return True
    if len(words) > 2 and words[0] in roles and entity_key(" ".join(words[1:])) in names:
        return True
    return len(words) == 1 and _glued(name)


# "Board of Directors of the Company", "Convention for the Sale": "the" inside a name
_JOIN_BEFORE_THE = frozenset({"of", "for", "to", "in", "on", "and", "&", "at", "by", "upon"})
GLUED_WORD = 6  # letters of an everyday word run on after an acronym ("TTinterval")
_GLUED_ENDS = ("ed", "able", "ible", "ant", "ent", "ive", "ing", "ized", "ised")


def _glued(word: str) -> bool:
    """A name and an everyday adjective run together ("FHScompliant", "Dapperinstrumented"):
    a long everyday tail in lower case after a capitalised head; or an acronym and an everyday
    word a PDF ran together ("TTinterval"; "SSTable" is an acronym before "Table")."""
    caps = re.match(r"[A-Z]{2,}", word)
    if caps is not None and len(word) - caps.end() >= GLUED_WORD:
        tail = word[caps.end() :]
        if tail.islower() and is_english(tail) and not is_english(word[caps.end() - 1 :]):
            return True
    for cut in range(1, len(word) - 7):
        head, tail = word[:cut], word[cut:]
        shaped = head[0].isupper() and tail.islower() and tail.endswith(_GLUED_ENDS)
        if shaped and len(tail) >= 8 and is_english(tail):
            return True
    return False


def _needs_prose(name: str) -> bool:
    """A run of everyday words ("Map Tasks") or a long run ("Brandt Carlos Maltzahn University
    of California"): what a table's cells or an author block run together. A lone word, a
    short proper name or a code identifier in a list or a table is still a name."""
    return _everyday_run(name) or len(name.split()) >= LONG_RUN


def _unnumbered(heading: str) -> str:
    return re.sub(
        r"^(?:(?:Chapter|Section|Appendix|Part)\s+)?[\dA-Z]{0,3}(?:\.\d+)*\.?\s+", "", heading
    )


def _everyday_run(name: str) -> bool:
    """Two or more words, each an everyday one ("Trade Journals", "Binary Dependencies")."""
    words = _WORD.findall(name)
    return len(words) >= 2 and all(w.lower() in STOPWORDS or is_english(w) for w in words)


def _occurrences(name: str, text: str) -> list[re.Match[str]]:
    return list(re.finditer(rf"(?<![\w&-]){re.escape(name)}(?![\w-])", text))


def _only_inside_longer(name: str, text: str) -> bool:
    """Every occurrence continues a longer capitalised name, before or after it (a run of
    everyday words also through "and", "&" or "of": a person's name is not cut so)."""
    hits = _occurrences(name, text)
    joined = _everyday_run(name)
    return bool(hits) and all(_inside_longer(text, m.start(), m.end(), joined) for m in hits)


def _inside_longer(text: str, start: int, end: int, joined: bool = False) -> bool:
    if joined and (
        _JOINED_BEFORE.search(text, max(0, start - 40), start) is not None
        or _JOINED_AFTER.match(text[end : end + 40]) is not None
    ):
        return True
    before = _LONGER_BEFORE.search(text, max(0, start - 40), start)
    if before is not None and (before["w"] is None or before["w"].lower() not in STOPWORDS):
        return True
    after = _LONGER_AFTER.match(text[end : end + 40])
    if after is not None and after["w"].lower() not in STOPWORDS:
        return True
    owns = _TITLE_OWNER.match(text[end : end + 40])  # "Debian Developer’s Reference"
    return owns is not None and is_english(owns["w"])


# an accent a PDF wrote as a character of its own: "Brug˚ard", "Pati˜no", "Mazi`eres"
_SPACING_ACCENT = "\u02da\u02dc\u00b4`\u00a8\u02c6\u02c7\u00b8"


def _only_cut_by_accents(name: str, text: str) -> bool:
    """Every occurrence is part of a word a spacing accent cut ("Brug" of "Brug˚ard")."""
    hits = list(re.finditer(rf"(?<![\w&-]){re.escape(name)}", text))
    return bool(hits) and all(
        text[m.end() : m.end() + 1] in tuple(_SPACING_ACCENT)
        or (m.start() > 0 and text[m.start() - 1] in _SPACING_ACCENT)
        for m in hits
    )


# a figure's or a table's caption, or a chart's numbers a PDF wrote out as text around it
_CAPTION = re.compile(r"(?:Figure|Fig\.|Table)\s*\d+[:.][^.!?]*$")
_NUMBER = re.compile(r"^[\d.,:%()<>=+-]*\d[\d.,:%()<>=+-]*$")
FIGURE_WINDOW = 6  # words on each side of an occurrence
FIGURE_NUMBERS = 4  # of them numbers: a chart's axis or a table's row


def _charted(token: str) -> bool:
    """A number as a chart or a table writes it: not one of a list ("1.0, 1.1, 2.0")."""
    return _NUMBER.match(token) is not None and not token.endswith(",")


def _in_figure(text: str, start: int, end: int) -> bool:
    if _CAPTION.search(text, max(0, start - 80), start):
        return True
    before = text[max(0, start - 80) : start].split()[-FIGURE_WINDOW:]
    after = text[end : end + 80].split()[:FIGURE_WINDOW]
    return any(sum(1 for t in side if _charted(t)) >= FIGURE_NUMBERS for side in (before, after))


def _only_in_figures(name: str, text: str) -> bool:
    """Every occurrence is in a caption or among a chart's or a table's numbers: labels and
    captions a PDF ran together ("stragBigtable Percolator Relative", "CCDF")."""
    hits = _occurrences(name, text)
    return bool(hits) and all(_in_figure(text, m.start(), m.end()) for m in hits)


_LETTERS_AND_WORD = re.compile(r"^[A-Z]{1,3}(?P<word>[a-z]{5,})$")
_IDENTIFIER = re.compile(r"^[a-z]{2,}[A-Z]")  # "sendStatus", "objID": not "iPhone"


def _glued_to_its_word(name: str, text: str) -> bool:
    """A letter or two run into a word the document writes on its own ("Alinearizable" where
    it says "linearizable", "TTinterval" where it says "interval")."""
    m = _LETTERS_AND_WORD.match(name)
    return m is not None and re.search(rf"(?<![\w-]){m['word']}(?![\w-])", text) is not None


def _with_identifier(name: str) -> bool:
    """A code identifier among the words of a longer name: a table's label run into a
    method's name ("Actions sendStatus", "objID Hist")."""
    words = name.split()
    return len(words) > 1 and any(_IDENTIFIER.match(w) for w in words)


def _only_titles(name: str, text: str) -> bool:
    """Every occurrence is a numbered clause's title: "7. Trade Journals. Distributor …"."""
    hits = _occurrences(name, text)
    return bool(hits) and all(
        _TITLE_BEFORE.search(text, max(0, m.start() - 40), m.start()) is not None
        and _TITLE_AFTER.match(text[m.end() : m.end() + 3]) is not None
        for m in hits
    )
