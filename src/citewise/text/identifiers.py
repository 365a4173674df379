"""Code-like names in text (pure): identifiers a claim or question spells as code, the
identifiers a search query names, command-line options, quoted literals."""

from __future__ import annotations

import re

from citewise.text.headings import last_heading
from citewise.text.sentences import strip_citation_marks

_QUOTED = re.compile(r"`([^`\n]{1,60})`|\"([^\"\n]{1,40})\"|“([^”\n]{1,40})”")
_CLAIM_IDENTIFIER = re.compile(
    r"(?<![\w.-])(?:[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+"  # dotted: os.path.join
    r"|(?=\w*_)(?=\w*[A-Za-z])\w+"  # snake_case / dunder: exist_ok, __main__
    r"|[A-Za-z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*"  # CamelCase, CONSTANTS: FileExistsError, JIT
    r"|-{1,2}[A-Za-z][\w-]*"  # command-line options: -O, --repeat
    r")(?:\(\))?"
)
_NOT_CLAIM_IDENTIFIERS = frozenset({"e.g", "i.e", "cf", "vs"})

_QUERY_IDENTIFIER = re.compile(
    r"(?<![\w.])(?:"
    r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\(\))?"  # dotted: str.split, os.path.join()
    r"|\w*_\w+(?:\(\))?"  # snake or dunder: lru_cache, __slots__
    r"|[A-Za-z]\w*\(\)"  # call: len()
    r"|[a-z]+[A-Z]\w*|[A-Z][a-z]+[A-Z]\w*"  # camelCase, CapWords: TaskGroup
    r"|[A-Z][A-Z0-9]{3,}"  # PYTHONPATH
    r"|--?[A-Za-z][\w-]*"  # command-line options: -X, --help
    r")"
)


def identifiers(text: str) -> list[str]:
    """Code-like names in `text`: dotted names, snake_case, CamelCase, CONSTANTS, -options."""
    out: list[str] = []
    for m in _CLAIM_IDENTIFIER.finditer(strip_citation_marks(text)):
        name = m.group(0).removesuffix("()")
        if (
            len(name) >= 2
            and name.lower() not in _NOT_CLAIM_IDENTIFIERS
            and (len(name) >= 3 or name.startswith("-"))
        ):
            out.append(name)
    return out


def quoted(text: str) -> list[str]:
    """Short quoted literals: `code`, "strings"."""
    return [next(g for g in m.groups() if g) for m in _QUOTED.finditer(text)]


def query_identifiers(query: str) -> list[str]:
    """Code-like tokens of `query` in order, without a trailing "()"; duplicates dropped."""
    found: dict[str, None] = {}
    for m in _QUERY_IDENTIFIER.finditer(query):
        token = m.group(0).removesuffix("()").rstrip(".")
        if token.strip("_-"):
            found.setdefault(token, None)
    return list(found)


def spaced_heading(identifier: str, section: str) -> bool:
    """Whether the last heading of `section` is `identifier` spelt with spaces for its
    underscores: Texinfo manuals head the entry for `asn1_der_coding` "asn1 der coding"."""
    spaced = identifier.replace("_", " ").strip().lower()
    return " " in spaced and last_heading(section).lower() == spaced


# "-m", "--leak-check" (not "e-mail", "non-ASCII" or a trailing "-")
_OPTION = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*(?<!-)")


def command_options(query: str) -> list[str]:
    """The command-line options a query names, in order, duplicates dropped (pure). Their
    letters alone are no search terms: "-m" would be the word "m"."""
    return list(dict.fromkeys(_OPTION.findall(query)))
