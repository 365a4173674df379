"""Sentences as rules see them: words with their offsets, where each word stands, and the
document-wide evidence of how a word is written (a word the document also writes in lower case
is a common word, not a name)."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from citewise.graph.model import EntityKind
from citewise.text.aliases import definitions
from citewise.text.english import is_english


def word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


_TOKEN = re.compile(r"[^\W_](?:[\w'’&+.-]*[^\W_])?")
_POSSESSIVE = ("'s", "’s")
# a word after one of these opens a clause: its capital says nothing about it being a name
_OPENERS = frozenset(":;(\"'“‘—•*[")
# an enumerator closing before a word: "(d) If the Work", "ii) Each"
_ENUMERATOR = re.compile(r"(?:^|\s)\(?[a-zA-Z0-9]{1,3}\)\s*$")
# a numbered clause's title: "8.2 Relationship of the Parties.", "Section 1.02. Other …"
_CLAUSE_TITLE = re.compile(
    r"^\s*(?:(?:Section|Article|Clause)\s+)?\d+(?:\.\d+)*\.?\s+(?:[A-Z][\w'’-]*\s*|(?:of|the|and|to|for|in|on|by|with|or|a|an)\s+){1,8}[.:]?\s*$"
)
# a party's or a part's short name in parentheses: (the “Company”), (“Employer”)
_QUOTED_WORD = re.compile(r"\((?:[^()]{0,40}?\b(?:the|or|and)\s+)?[“\"]([A-Z][a-z]+)[”\"]")
_ABBREVIATIONS = frozenset(["etc", "e.g", "i.e", "cf", "vs", "al"])

MONTHS_AND_DAYS = word_set(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday "
    "saturday sunday mon tue tues wed thu thur thurs fri sat sun"
)
# joiners allowed inside a multi-word name ("Bank of America"), never at its ends; "and" is
# not one ("Debian and Ubuntu" are two names)
# "for" is no joiner: "Support for the Term", "Licensor for the Licensed Materials" are two
CONNECTORS = word_set("of the de du la le von van der da di")
# a name may go on with "on" after these: "Symposium on Operating Systems Principles"
VENUE_WORDS = word_set(
    "conference symposium workshop transactions journal committee council board commission "
    "convention treaty agreement act"
)
# words an acronym's expansion may hold without a letter in the acronym
# capitalised words that open a sentence or a heading far more often than a name
COMMON_CAPITALISED = word_set(
    """
    a an the this that these those each every all any some no not our your its their his her my
    we you they it he she i if when while where whereas whether which what who why how as at by
    for from in into on onto to with without within of off over under after before since until
    also however note notes see use using used uses both many most more much other others such
    new old first last next previous prev up home back contents index table figure example
    examples chapter section part appendix introduction overview summary description synopsis
    options option default defaults value values return returns parameters parameter arguments
    warning caution important tip tips there here then thus therefore otherwise instead because
    although though unlike like only just even either neither nor yes one two three four five
    six seven eight nine ten let make create add set get run install enable disable check click
    select choose open close start stop read write find follow following further additional
    see_also reference references related general basic advanced usage details detail
    true false none null
    """
)
ALLCAPS_STOP = word_set(
    """
    NOTE NOTES WARNING CAUTION TIP TODO FIXME XXX OK AND OR NOT THE IF IS IN ON OFF YES NO
    TRUE FALSE NONE ALL ANY MUST SHALL SHOULD MAY REQUIRED RECOMMENDED OPTIONAL AM PM ID
    IT AS AT BY TO OF BE DO WE US FOR SEE ALSO END
    FROM WHERE ORDER GROUP HAVING DESC ASC DISTINCT BETWEEN LIKE ILIKE JOIN USING NULLS LIMIT
    OFFSET UNION CASE WHEN THEN ELSE SET VALUES INTO RETURNING EXISTS FIRST LAST ONLY
    NEVER ALWAYS IMPORTANT DEPRECATED DANGER
    WHEREAS WHEREOF WITNESS HEREBY HEREIN HEREOF HERETO THEREFORE NOW EXHIBIT SCHEDULE ARTICLE
    SECTION WAIVER AGREEMENT RECITALS LLP LLC INC LTD CORP
    KB MB GB TB PB KIB MIB GIB TIB MS NS US GHZ MHZ KBPS MBPS GBPS IOPS QPS RPS
    URL URLS URI URIS ASCII FAQ FAQS PDF GUI CPU CPUS RAM ROM USB CD CDS DVD EG IE ETC
    PACKAGE PACKAGES VERSION NAME FILE FILES DIR DIRECTORY VALUE TYPE STRING NUMBER
    """
)
_ROMAN = re.compile(r"^[IVXLC]+$")
_PLURAL_ACRONYM = re.compile(r"^([A-Z]{2,})s$")


@dataclass(frozen=True, slots=True)
class Token:
    text: str
    start: int
    end: int
    opens: bool  # first word of its sentence or clause

    @property
    def is_title(self) -> bool:
        return word_shape(self.text).title

    @property
    def is_camel(self) -> bool:
        return word_shape(self.text).camel

    @property
    def is_allcaps(self) -> bool:
        return word_shape(self.text).allcaps

    @property
    def is_compound(self) -> bool:
        return word_shape(self.text).compound

    @property
    def is_identifier(self) -> bool:
        return word_shape(self.text).identifier


class WordShape(NamedTuple):
    title: bool  # a capital, then some lower case: "Debian"
    camel: bool  # an internal capital after a lower-case letter: "PostgreSQL", "iPhone"
    allcaps: bool  # "TCP", "IPv6" is not; a plural "CPUs" is
    # a hyphenated word ending in lower case ("WAL-related", "IP-address"): an adjective or a
    # common noun, not a name
    compound: bool
    # code: "Logger.setLevel", "os.path", "max_wal_size" (the codes rule reads these)
    identifier: bool


_CAMEL = re.compile(r"[a-z][A-Z]")
_DOT_INSIDE = re.compile(r"\w\.\w")


# a word's shape depends on its text alone, and a document repeats its words: remember them
@lru_cache(maxsize=1 << 15)
def word_shape(text: str) -> WordShape:
    return WordShape(
        title=text[0].isupper() and any(c.islower() for c in text),
        camel=len(text) >= 4 and bool(_CAMEL.search(text)),
        allcaps=_is_allcaps(text),
        compound="-" in text and text.rsplit("-", 1)[1].islower(),
        identifier="_" in text or ("." in text and bool(_DOT_INSIDE.search(text))),
    )


def _is_allcaps(text: str) -> bool:
    # the first letter is one of the letters that must all be capitals
    if not text[0].isupper():
        return False
    word = singular_acronym(text)
    letters = [c for c in word if c.isalpha()]
    return word[0].isalpha() and len(letters) >= 2 and all(c.isupper() for c in letters)


@dataclass(frozen=True, slots=True)
class Mention:
    """A name found in a sentence, at [start, end)."""

    key: str
    name: str
    kind: EntityKind
    start: int
    end: int
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Sentence:
    chunk_id: int
    text: str
    tokens: tuple[Token, ...]
    heading_like: bool


@dataclass(slots=True)
class WordEvidence:
    """How the document writes its words: lower-case forms seen, and capitalised words or
    phrases seen where a capital is not forced (mid-sentence)."""

    lower: set[str] = field(default_factory=set)
    capitalised_inside: Counter[str] = field(default_factory=Counter)
    phrases: set[str] = field(default_factory=set)  # keys of multi-word names seen mid-sentence
    # the document's lower-case technical names and their kinds (`rules.technical`)
    technical: dict[str, EntityKind] = field(default_factory=dict)
    shouted: set[str] = field(default_factory=set)  # words of sentences set in capitals
    # everyday words a contract defines as a role ('the "Company"', '"Term"'): roles of its
    # parties and parts, not names a card is worth
    roles: set[str] = field(default_factory=set)
    capitals: Counter[str] = field(default_factory=Counter)  # words of 4+ capitals, written

    def emphasis(self, run: list[str]) -> bool:
        """Everyday words in capitals for emphasis ("WITHOUT", "NOTICE"), not an acronym:
        shouted in a capitals sentence, a run of more than five, or English words written in
        capitals fewer than three times."""
        if any(w in self.shouted for w in run if len(w) >= 4) or len(run) > 5:
            return True
        # everyday words a heading or a legal formula sets in capitals ("WITNESS WHEREOF",
        # "NOW"): a command ("CREATE INDEX") is written so again and again
        everyday = all(w.isalpha() and len(w) >= 3 and is_english(w) for w in run)
        return everyday and min(self.capitals[w] for w in run) < 3

    def add(self, sentence: Sentence) -> None:
        if "(" in sentence.text and ("“" in sentence.text or '"' in sentence.text):
            for m in _QUOTED_WORD.finditer(sentence.text):
                if is_english(m.group(1)):
                    self.roles.add(m.group(1))
            # every term a bracket defines: '(the “Company”, “Employer”)'
            self.roles.update(
                d.term
                for d in definitions(sentence.text)
                if d.kind != "abbreviation" and " " not in d.term and is_english(d.term)
            )
        if is_shouting(sentence.tokens):
            self.shouted.update(t.text for t in sentence.tokens if t.text.isupper())
        for tok in sentence.tokens:
            if tok.text.isupper() and len(tok.text) >= 2:
                self.capitals[tok.text] += 1
            if tok.text.islower():
                self.lower.add(tok.text)
            elif not tok.opens and not sentence.heading_like and tok.text[0].isupper():
                self.capitalised_inside[tok.text] += 1

    def is_common(self, word: str) -> bool:
        """A word the document also writes in lower case, or one of the usual openers."""
        low = word.lower()
        return low in self.lower or low in COMMON_CAPITALISED or low in MONTHS_AND_DAYS


def tokenize(text: str) -> tuple[Token, ...]:
    out: list[Token] = []
    prev_end = 0
    after_dot = True  # the first word opens its sentence, as does a word after "etc."
    for m in _TOKEN.finditer(text):
        start, end = m.span()
        word = m.group()
        if word.endswith(_POSSESSIVE):  # "PostgreSQL's" names PostgreSQL
            word = word[:-2]
        gap = text[prev_end:start]
        # a full stop in the gap ends a sentence the splitter left joined ("7. Disclaimer")
        stop = (". " in gap or gap.strip() == ".") and (
            not out or out[-1].text not in _ABBREVIATIONS
        )
        opens = after_dot or not _OPENERS.isdisjoint(gap) or stop
        if not opens and ")" in gap:
            opens = bool(_ENUMERATOR.search(text[:start]))
        out.append(Token(word, start, start + len(word), opens))
        prev_end = end
        after_dot = word[-1] == "."
    return tuple(out)


def is_heading_like(text: str, tokens: Iterable[Token]) -> bool:
    """A heading, navigation bar or title line: no closing punctuation, short, and mostly
    capitalised words."""
    tokens = tuple(tokens)
    words = [t for t in tokens if t.text[0].isalpha() and t.text.lower() not in CONNECTORS]
    if _CLAUSE_TITLE.match(text):
        return True
    if text.rstrip()[-1:] in ".!?:;,":
        # a clause's title ends with a full stop: "7. Disclaimer of Warranty." (no article)
        return (
            0 < len(words) <= 5
            and text.rstrip()[-1:] == "."
            and all(t.is_title for t in words)
            and not any(t.text.lower() in ("the", "a", "an") for t in tokens)
        )
    if not words or len(words) > 14:
        return False
    caps = sum(1 for t in words if t.text[0].isupper())
    return caps / len(words) >= 0.6


def is_stop_acronym(word: str) -> bool:
    return word in ALLCAPS_STOP or bool(_ROMAN.match(word))


def gap_is_blank(text: str, a: Token, b: Token) -> bool:
    return not text[a.end : b.start].strip()


_CASE_RUNS = re.compile(r"[a-z]+|[A-Z]+|[0-9]+")


_RANGE = re.compile(r"(?:^|-)\w-\w(?:-|$)")


def looks_random(word: str) -> bool:
    """A generated string, not a name: "vXGZLVbS", "agUDsm1DehJMS", "3f9a2c1e7b", and a
    character class written out ("A-Za-z0-9")."""
    if _RANGE.search(word):
        return True
    if len(word) < 6 or not word.isalnum():
        return False
    runs = _CASE_RUNS.findall(word)
    kinds = {r[0].isdigit() for r in runs}
    if len(kinds) == 2 and len(runs) >= 4:  # letters and digits interleaved: a hash or token
        return True
    # case switching back and forth inside short lower-case runs ("vXGZLVbS"); "PostgreSQL",
    # "ZooKeeper" and "HyperLogLog" switch with word-length runs
    lower = [r for r in runs if r.islower()]
    ups = sum(1 for a, b in itertools.pairwise(word) if a.islower() and b.isupper())
    return ups >= 2 and sum(map(len, lower)) / len(lower) < 2.5 if lower else False


_PLACEHOLDER_PARTS = word_set(
    "foo bar baz qux quux example examples sample package packagename pkg name user username "
    "xxx yyy zzz something somewhere yourname myfile mytable my_table path dir file directory "
    "program"
)
_PART_SPLIT = re.compile(r"[/._-]+")


def is_placeholder(name: str) -> bool:
    """An example standing for any value: "/var/log/foo", "libfoo.so.VERSION", "/…/package"."""
    if "..." in name or "…" in name or name.lower() in _PLACEHOLDER_PARTS:
        return True
    for part in _PART_SPLIT.split(name):
        low = part.lower()
        if low in _PLACEHOLDER_PARTS or low.startswith(("libfoo", "foo", "my")):
            return True
        if len(part) >= 3 and part.isalpha() and part.isupper() and part not in ("README",):
            return True  # /usr/share/doc/PACKAGE, VERSION
    return False


def is_shouting(tokens: Iterable[Token]) -> bool:
    """A sentence set in capitals (a licence's disclaimer): its words are not acronyms."""
    words = [t for t in tokens if t.text[0].isalpha()]
    return len(words) >= 5 and sum(t.text.isupper() for t in words) * 5 >= len(words) * 3


def singular_acronym(word: str) -> str:
    """ "CPUs" → "CPU"; any other word as it is."""
    if not word.endswith(("s", "s\n")) or not word[0].isupper():
        return word
    return _PLURAL_ACRONYM.sub(r"\1", word)
