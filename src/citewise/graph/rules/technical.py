"""Lower-case technical names a document treats as things: file paths (`/etc/shadow`,
`debian/control`), long options (`--purge`), manual-page references (`dpkg(1)`), a command after
a shell prompt (`$ lintian …`), a word a noun marks ("the quilt program", "a program, such as
debconf"), a word used as a tool ("use debconf to …"), and a word outside everyday English that
opens sentences in lower case or recurs ("dpkg-source unpacks …").

The first pass (`TechnicalEvidence.add`) learns the document's technical words; the second
(`find_technical`) finds every mention of them, and the paths and options, in a sentence.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from citewise.graph.model import EntityKind, entity_key
from citewise.graph.rules.tokens import (
    COMMON_CAPITALISED,
    Mention,
    is_placeholder,
    looks_random,
)
from citewise.text.english import INFLECTED, is_compound, is_english, is_fragment
from citewise.text.words import STOPWORDS

_WORD = r"[a-z][a-z0-9+-]*[a-z0-9+]"
_ABSOLUTE = re.compile(r"(?<![\w/:.~$<-])~?/(?:[\w.+@-]+/)*[\w.+@-]*[\w+](?:/(?![\w/]))?")
_RELATIVE = re.compile(rf"(?<![\w/:.~$<-]){_WORD}(?:/[\w.+-]*[\w+])+(?![\w/])")
_OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*(?![\w-])")
_MAN_PAGE = re.compile(rf"(?<![\w./-])({_WORD})\([1-8][a-z]*\)")
_PROMPT = re.compile(rf"(?m)^\s*\$\s+(?:sudo\s+)?({_WORD})\b")
_COMMAND_NOUNS = "command|program|utility|tool|daemon|script|binary|executable|helper"
_THING_NOUNS = "package|library|module|service|plugin|extension|backend|frontend"
_MARKED = re.compile(
    rf"\b(?i:the|a|an|its|this|your|our)\s+({_WORD})\s+(?P<noun>{_COMMAND_NOUNS}|{_THING_NOUNS})s?\b"
)
# "a program, such as debconf", "use debconf to find out": a word named as a tool
_SUCH_AS = re.compile(
    rf"\b(?:{_COMMAND_NOUNS}|{_THING_NOUNS})s?,?\s+(?:such\s+as|like|e\.g\.,?)\s+({_WORD})\b",
    re.I,
)
_USED = re.compile(
    rf"\b(?:use|uses|using|used|run|runs|running|call|calls|calling)\s+({_WORD})\s+(?:to|for|in)\b"
)
_OPENER = re.compile(rf"(?:^|[.!?]\s+)({_WORD})\b(?!\s*[(:=])")
_LOWER_WORD = re.compile(rf"(?<![\w./$@'’-])({_WORD})(?![\w/@]|\.\w|\((?![1-8][a-z]*\)))")
# a word after these is a common noun ("a symlink", "each subdirectory"), not a name
_COUNTED = re.compile(
    rf"\b(?:a|an|each|every|another|any|several|multiple|many|few|other|some)\s+({_WORD})\b", re.I
)


@dataclass(slots=True)
class TechnicalEvidence:
    """What the first pass learns: the marks each lower-case word gets, and how often it is
    written; `names()` settles which words are technical names, and their kind."""

    marked: dict[str, EntityKind] = field(default_factory=dict)
    strong: set[str] = field(default_factory=set)  # manual page, shell prompt, a command noun
    openers: Counter[str] = field(default_factory=Counter)
    counts: Counter[str] = field(default_factory=Counter)
    counted: set[str] = field(default_factory=set)  # written as a common noun
    paths: Counter[str] = field(default_factory=Counter)  # path → times written
    _names: dict[str, EntityKind] | None = None

    def add(self, text: str) -> None:
        if "(" in text:
            for m in _MAN_PAGE.finditer(text):
                self._mark(m.group(1), "command", strong=True)
        if "$" in text:
            for m in _PROMPT.finditer(text):
                self._mark(m.group(1), "command", strong=True)
        for m in (*_SUCH_AS.finditer(text), *_USED.finditer(text)):
            self._mark(m.group(1), "software", strong=False)
        for m in _MARKED.finditer(text):
            noun = m.group("noun")
            self._mark(m.group(1), "command" if noun in _COMMAND_NOUNS else "software", False)
            if noun in _COMMAND_NOUNS:
                self.counts[f"\0{m.group(1)}"] += 1  # command-noun marks, counted apart
        if "/" in text:
            self.paths.update(p for p, _ in _paths(text))
        for m in _COUNTED.finditer(text):
            self.counted.add(m.group(1))
        for m in _OPENER.finditer(text):
            self.openers[m.group(1)] += 1
        for m in _LOWER_WORD.finditer(text):
            self.counts[m.group(1)] += 1

    def _mark(self, word: str, kind: EntityKind, strong: bool) -> None:
        if self.marked.get(word) != "command":
            self.marked[word] = kind
        if strong:
            self.strong.add(word)

    def names(self) -> dict[str, EntityKind]:
        """Each technical word with its kind (computed once, after the first pass)."""
        if self._names is None:
            names = {w: k for w in self._candidates() if (k := self._kind(w)) is not None}
            names.update({p: "path" for p, n in self.paths.items() if _is_path(p, n)})
            self._names = names
        return self._names

    def _candidates(self) -> set[str]:
        return set(self.marked) | set(self.openers) | {w for w in self.counts if w[0] != "\0"}

    def _kind(self, word: str) -> EntityKind | None:
        if word in self.strong:  # a manual page, a command after a prompt
            return "command" if len(word) >= 2 and not looks_random(word) else None
        if len(word) < 3 or word in STOPWORDS or word in COMMON_CAPITALISED:
            return None
        if looks_random(word) or _everyday(word) or self._common_noun(word) or _qualified(word):
            return None
        if is_placeholder(word) or word.startswith(_LEGAL_PREFIXES):
            return None
        if word in self.marked and self.counts[f"\0{word}"] + self.counts[word] >= 2:
            return self.marked[word]
        # a digit or joiner alone is weak evidence (a footnote mark, "low-latency"): twice
        if (self.openers[word] or _shaped(word)) and self.counts[word] >= 2:
            return None if is_fragment(word) or is_compound(word) else "software"
        return None

    def _common_noun(self, word: str) -> bool:
        """Written as a noun is: after "a" or "each", or both with and without a plural "s"."""
        plural = word.endswith("s") and self.counts[word[:-1]] > 0
        return word in self.counted or plural or self.counts[word + "s"] > 0


def _everyday(word: str) -> bool:
    """An English word or one inflected like one ("unpacked"), or a hyphenated run of them
    ("well-known", "comma-separated")."""
    parts = [p for p in re.split(r"[-+]", word) if p]
    return all(
        p.isalpha() and (len(p) < 3 or is_english(p) or p.endswith(INFLECTED)) for p in parts
    )


def _qualified(word: str) -> bool:
    """An adjective of everyday parts ("low-latency", "non-snapshot"), an everyday word
    numbered ("task1", "random14"), or arithmetic ("i+1")."""
    if word.endswith(_ADJECTIVE_ENDS):
        return True  # "compile-time", "file-based": an adjective
    head = re.split(r"[-+]", word, maxsplit=1)[0]
    if "-" in word and (head in _PREFIXES or (len(head) >= 3 and is_english(head))):
        return True
    letters = word.rstrip("0123456789")
    if letters != word and (is_english(letters) or is_fragment(letters)):
        return True
    return "+" in word.rstrip("+")


# "aforesaid", "hereinafter", "thereof": a contract's old compounds, not names
_LEGAL_PREFIXES = ("afore", "herein", "hereof", "hereto", "hereby", "there", "where")
_ADJECTIVE_ENDS = ("-time", "-based", "-specific", "-level", "-like", "-wide", "-side", "-free")
_PREFIXES = frozenset(
    [
        "non",
        "pre",
        "post",
        "micro",
        "multi",
        "co",
        "re",
        "un",
        "sub",
        "inter",
        "per",
        "anti",
        "semi",
        "self",
    ]
)


def _shaped(word: str) -> bool:
    """A name by its form: a digit or a joiner inside ("python3", "dpkg-source", "g++")."""
    return any(c.isdigit() or c in "+-" for c in word) and any(c.isalpha() for c in word)


# the top directories of a Unix system: a path under one is a path even when written once
_SYSTEM_ROOTS = frozenset(
    [
        "etc",
        "usr",
        "var",
        "bin",
        "sbin",
        "lib",
        "lib64",
        "opt",
        "home",
        "tmp",
        "dev",
        "proc",
        "run",
        "srv",
        "boot",
        "mnt",
        "media",
        "sys",
        "root",
    ]
)
_NOT_PATH_START = frozenset(["com", "org", "net", "edu", "www", "http", "https"])
_UNITS = frozenset(
    ["second", "seconds", "sec", "s", "ms", "day", "hour", "minute", "byte", "bytes", "op", "ops"]
)


def _paths(text: str) -> list[tuple[str, int]]:
    """Each path-shaped string in `text` with where it starts (not a glob: "/etc/rc?.d")."""
    found = [*_ABSOLUTE.finditer(text), *_RELATIVE.finditer(text)]
    out = [
        ((m.group().rstrip("/") or m.group()), m.start())
        for m in found
        if text[m.end() : m.end() + 1] not in ("?", "*", "[", "{")
        and text[m.end() : m.end() + 2] not in (".{", ".*", ".?")
    ]
    return [(p, at) for p, at in out if len(p) > 2 and any(c.isalpha() for c in p)]


def _is_path(path: str, count: int) -> bool:
    parts = [p for p in path.split("/") if p]
    if not parts or parts[0] in _NOT_PATH_START or parts[-1] in _UNITS or is_placeholder(path):
        return False
    if path.startswith(("/", "~/")):
        return parts[0] in _SYSTEM_ROOTS or count >= 3
    if all(_everyday(p) for w in parts for p in re.split(r"[.]", w) if p):
        return False  # "and/or", "client/server"
    return count >= 2 or "." in parts[-1]


def find_technical(text: str, names: Mapping[str, EntityKind]) -> list[Mention]:
    """Paths, long options and the document's technical words in one sentence."""
    found: list[Mention] = []
    if "/" in text:
        for path, at in _paths(text):
            if names.get(path) == "path":
                found.append(_mention(path, "path", at, at + len(path)))
    if "--" in text:
        for m in _OPTION.finditer(text):
            found.append(_mention(m.group(), "option", m.start(), m.end()))
    if names:
        for m in _LOWER_WORD.finditer(text):
            kind = names.get(m.group(1))
            if kind is not None:
                found.append(_mention(m.group(1), kind, m.start(1), m.end(1)))
    return found


def _mention(name: str, kind: EntityKind, start: int, end: int) -> Mention:
    return Mention(entity_key(name), name, kind, start, end)
