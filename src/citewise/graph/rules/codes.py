"""Identifiers and codes: standards ("RFC 2119", "ISO 8601", "CVE-2024-1234"), document and
part codes ("FC-001-234"), file names, configuration names (`shared_buffers`), dotted names
(`os.path`), and section numbers when a word says they are one ("Section 4.2", "§ 3")."""

from __future__ import annotations

import re

from citewise.graph.model import EntityKind, entity_key
from citewise.graph.rules.tokens import Mention, is_placeholder, word_set
from citewise.text.english import is_english

_STANDARD = re.compile(
    r"\b(?:RFC|BCP|STD|FYI|PEP|ISO(?:/IEC)?|IEC|IEEE|ECMA|ANSI|FIPS|NIST\s+SP|CVE|CWE|EN|DIN)"
    r"[\s-]?\d+(?:[-.:/]\d+)*\b"
)
# letters, then dash-separated parts ending in digits: FC-001-234, SHA-256, UTF-8, X-509
_CODE = re.compile(r"\b[A-Z][A-Z0-9]{0,7}(?:-[A-Z0-9]+)*-\d+(?:[-.]\d+)*(?:-[a-z]+\b|[a-z]?\b)")
# one letter and a number or a range: a variable or a figure's label ("W-1", "M1-3")
_NOTATION = re.compile(r"^[A-Z]\d*-\d+$")
_SECTION = re.compile(
    r"(?:\b(?P<word>Section|Sections|Chapter|Appendix|Annex|Clause|Schedule|Exhibit)\s+|§\s*)"
    r"(?P<num>[A-Z]?\d+(?:\.\d+)*|[A-Z](?:\.\d+)+|[A-Z]\b)"
)
_SECTION_WORDS = ("Section", "Chapter", "Appendix", "Annex", "Clause", "Schedule", "Exhibit", "§")
_DIGIT = re.compile(r"\d")
_FILE = re.compile(
    r"\b[\w][\w.-]*\.(?:pdf|html?|txt|md|rst|docx?|odt|xlsx?|csv|conf|cfg|ini|ya?ml|json|xml"
    r"|toml)\b",
    re.I,
)
_SNAKE = re.compile(r"(?<![\w.$-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w$(-])")
_DOTTED = re.compile(
    r"(?<![\w.$/@-])[A-Za-z_][A-Za-z0-9_]+(?:\.[A-Za-z_][A-Za-z0-9_]+)+(?![\w/@(-]|\.\w)"
)
_MODULE = re.compile(r"(?<![\w.])(?P<name>[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*)\s+modules?\b")
_NOT_DOTTED = re.compile(r"^(?:e\.g|i\.e|www\.|.*\.(?:com|org|net|io|de|uk)$)", re.I)

# words that stand before "module" without naming one ("package" is left out: in packaging
# manuals "binary packages" names no package)
_NOT_MODULES = word_set(
    "the this that each every any one new main core kernel loadable extension contrib python "
    "standard built builtin library other same whole your our their its these those both all "
    "some which what such either"
)


def find_codes(text: str) -> list[Mention]:
    # each pattern needs a character or word most sentences lack: test that before scanning
    found: list[Mention] = []
    digits = _DIGIT.search(text) is not None
    dots = "." in text
    if digits:
        for m in _STANDARD.finditer(text):
            found.append(_mention(_normal_standard(m.group()), "code", m.start(), m.end()))
        if "-" in text:
            for m in _CODE.finditer(text):
                if not _NOTATION.match(m.group()):
                    found.append(_mention(m.group(), "code", m.start(), m.end()))
    if any(word in text for word in _SECTION_WORDS):
        for m in _SECTION.finditer(text):
            word = (m.group("word") or "Section").rstrip("s")
            found.append(_mention(f"{word} {m.group('num')}", "section", m.start(), m.end()))
    if dots:
        for m in _FILE.finditer(text):
            if not is_placeholder(m.group()):
                found.append(_mention(m.group(), "code", m.start(), m.end()))
    if "_" in text:
        for m in _SNAKE.finditer(text):
            parts = m.group().split("_")
            if not is_placeholder(m.group()) and any(len(p) > 1 and p.isalpha() for p in parts):
                found.append(_mention(m.group(), "configuration", m.start(), m.end()))
    if "module" in text:
        for m in _MODULE.finditer(text):
            name = m.group("name")
            if (
                len(name) >= 3
                and name not in _NOT_MODULES
                and ("." in name or not is_english(name))
            ):
                found.append(_mention(name, "code", m.start("name"), m.end("name")))
    if dots:
        for m in _DOTTED.finditer(text):
            if (
                not _NOT_DOTTED.match(m.group())
                and not is_placeholder(m.group())
                and not _run_on(m.group())
            ):
                found.append(_mention(m.group(), "code", m.start(), m.end()))
    return found


def section_names(title: str) -> list[str]:
    """How other documents cite a document by its title's number: "20.4. Resource
    Consumption" → "Section 20.4"; "Chapter 20. Server Configuration" → "Chapter 20"."""
    m = re.match(r"^\s*(?P<word>Chapter|Appendix|Section|Part)\s+(?P<num>[A-Z0-9.]+?)\.?\s", title)
    if m:
        return [f"{m.group('word')} {m.group('num')}"]
    m = re.match(r"^\s*(?P<num>\d+(?:\.\d+)*|[A-Z](?:\.\d+)*)\.?\s+[A-Z]", title)
    if not m:
        return []
    num = m.group("num")
    names = [f"Section {num}"]
    if "." not in num:
        names.append(f"Appendix {num}" if num.isalpha() else f"Chapter {num}")
    return names


def _normal_standard(code: str) -> str:
    """ "RFC2119" and "RFC-2119" are written "RFC 2119"; "CVE-2024-1234" keeps its dashes."""
    m = re.match(r"^([A-Z/]+(?:\s+SP)?)[\s-]?(\d.*)$", code)
    if not m or m.group(1) in ("CVE", "CWE"):
        return code
    return f"{m.group(1)} {m.group(2)}"


def _mention(name: str, kind: EntityKind, start: int, end: int) -> Mention:
    return Mention(entity_key(name), name, kind, start, end)


def _run_on(name: str) -> bool:
    """Two sentences run together at a full stop: "quorum.We"."""
    return any(p[:1].isupper() and p[1:].islower() for p in name.split(".")[1:])
