"""Sentence splitting and word helpers for documentation text (pure functions).

Documentation is hostile to naive splitters: "e.g. Foo", "Python 3.11", `os.path.join`,
`>>> f(...)` and "[1]" markers after a full stop must not end (or start) a sentence. Lines that
look like code, list items or table rows are kept as units of their own.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from citewise.text.words import STOPWORDS

# Abbreviations after which a full stop does not end a sentence (lower-cased, without the
# final dot). "etc." is included on purpose: in reference docs it ends a list far more often
# than a sentence, and merging two sentences costs less than cutting one in half.
ABBREVIATIONS = frozenset(
    {"e.g", "i.e", "etc", "cf", "vs", "approx", "fig", "no", "nos", "mr", "dr", "al", "resp", "ca"}
)

# A candidate boundary: terminal punctuation, optional closing quotes/brackets, optional
# citation markers ("order. [1]" keeps its marker), then whitespace.
_BOUNDARY = re.compile(
    r"(?P<end>\.\.\.|…|[.!?])(?P<close>[\"'”’)\]]*)(?P<cite>(?:\s*\[[\d,\s]+\])*)(?P<space>\s+|$)"
)
_NEXT_STARTS = re.compile(r"[\"'“‘(\[`A-Z0-9]")
_LAST_WORD = re.compile(r"(\S+)$")
_CODE_LINE = re.compile(r"^\s*(>>>|\.\.\.\s|\$ |#|[{}\])]|[\w.]+\s*=\s|def |class |import |from )")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
# passages are numbered from 1, and a mark never runs on into code: "heap[0]", "m[2](x)", "a[1]="
_CITE_MARK = re.compile(r"\s*\[(?!0\])\d+(?:\s*,\s*\d+)*\](?![\w(=])")


# the category Texinfo sets at the right margin of a definition line, then the signature's end
_TEXINFO_DEFINITION = re.compile(
    r"^[^\[\]]{1,200}\[(?:Function|Macro|Variable|Data Type|Command|Special Form|User Option"
    r"|Method|Constant|Type)\][^()]{0,200}?\)"
)


def split_sentences(text: str) -> list[str]:
    """Sentences (and code/list lines) of `text` in reading order, stripped, none empty."""
    return [piece for _, pieces in lines_of_sentences(text) for piece in pieces]


def lines_of_sentences(text: str) -> list[tuple[str, list[str]]]:
    """Each logical line of `text` with its sentences (together: `split_sentences`)."""
    return [(line, [p for p in _split_line(line) if p]) for line in _logical_lines(text)]


# a list item documenting a named option: "- maxBuffer {number} Largest …", "- frozen: If …"
_ITEM_LABEL = re.compile(r"^[-*•]\s+`?(?P<label>[A-Za-z_$][\w.$-]*)`?\s*(?:\{[^}]*\}|<[^>]*>|:\s)")


def item_label(line: str) -> str | None:
    """The option a list item documents ("maxBuffer" for "- maxBuffer {number} …"), or None."""
    m = _ITEM_LABEL.match(line.strip())
    return m.group("label") if m else None


def split_labelled(text: str) -> tuple[list[str], list[str]]:
    """`split_sentences`, and the same sentences with each later sentence of a list item that
    documents a named option prefixed by the option's name when it does not say it: in "-
    maxBuffer {number} Largest amount … Default: 1024 * 1024." the last sentence reads
    "maxBuffer: Default: 1024 * 1024."."""
    plain: list[str] = []
    labelled: list[str] = []
    for line, pieces in lines_of_sentences(text):
        name = item_label(line) or ""
        for k, piece in enumerate(pieces):
            named = re.search(rf"(?<![\w$]){re.escape(name)}(?![\w$])", piece)
            plain.append(piece)
            labelled.append(f"{name}: {piece}" if k and name and not named else piece)
    return plain, labelled


# a list item ends at its line when the next one opens with a call: "- ...args {any} Additional
# arguments to pass when invoking the callback" / "process.nextTick() adds callback to …"
_LIST_ITEM_LINE = re.compile(r"^\s*[-*•]\s")
_OPENS_WITH_CALL = re.compile(r"^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\(")


def _logical_lines(text: str) -> list[str]:
    """Lines, with a hard-wrapped prose line joined to its continuation."""
    lines: list[str] = []
    for raw in text.splitlines():
        line = raw.rstrip()
        if not line.strip():
            lines.append("")
            continue
        prev = lines[-1] if lines else ""
        continues = (
            prev
            and not _CODE_LINE.match(prev)
            and not _CODE_LINE.match(line)
            and prev[-1] not in ".!?:;"
            and line.lstrip()[:1].islower()
            and not (_LIST_ITEM_LINE.match(prev) and _OPENS_WITH_CALL.match(line.lstrip()))
        )
        if continues:
            lines[-1] = f"{prev} {line.strip()}"
        else:
            lines.append(line if _CODE_LINE.match(line) else line.strip())
    return [ln for ln in lines if ln.strip()]


def _split_line(line: str) -> list[str]:
    if _CODE_LINE.match(line):
        return [line.strip()]
    pieces: list[str] = []
    start = 0
    for m in _BOUNDARY.finditer(line):
        after = line[m.end() :]
        if not after or not _NEXT_STARTS.match(after):
            continue
        if m.group("end") in ("...", "…"):
            continue
        if m.group("end") == "." and not m.group("close") and _is_abbreviation(line[: m.start()]):
            continue
        pieces.append(line[start : m.end() - len(m.group("space"))].strip())
        start = m.end()
    pieces.append(line[start:].strip())
    return [part for piece in pieces for part in _split_definition(piece)]


def is_definition_line(sentence: str) -> bool:
    """Whether `sentence` is a Texinfo definition line (a signature, not an answer)."""
    m = _TEXINFO_DEFINITION.match(sentence)
    return m is not None and not sentence[m.end() :].strip()


def _split_definition(piece: str) -> list[str]:
    """A Texinfo manual's definition line ("int asn1_parser2tree (const char * file, …
    [Function] …, char * error_desc)") apart from the text a PDF's paragraph joined to it."""
    m = _TEXINFO_DEFINITION.match(piece)
    if not m or not piece[m.end() :].strip():
        return [piece]
    return [piece[: m.end()].strip(), piece[m.end() :].strip()]


def _is_abbreviation(before: str) -> bool:
    m = _LAST_WORD.search(before)
    if not m:
        return False
    word = m.group(1).lower().lstrip("(\"'")
    if word in ABBREVIATIONS:
        return True
    # A single capital letter is an initial ("J. Smith"), not the end of a sentence.
    return len(word) == 1 and word.isalpha() and m.group(1)[-1].isupper()


def attach_marker(sentence: str, ns: Sequence[int]) -> str:
    """`sentence` with `[n, m]` placed before its final punctuation: "… order [2]."."""
    mark = "[" + ", ".join(str(n) for n in ns) + "]"
    text = sentence.rstrip()
    if text and text[-1] in ".!?" and not text.endswith("..."):
        return f"{text[:-1].rstrip()} {mark}{text[-1]}"
    return f"{text} {mark}"


def strip_citation_marks(text: str) -> str:
    """`text` without `[n]` / `[n, m]` markers."""
    return _CITE_MARK.sub("", text).strip()


# -- words -------------------------------------------------------------------------------


def words(text: str) -> list[str]:
    """Lower-cased alphanumeric words, stopwords included, in order."""
    return _WORD.findall(text.lower())


def is_content_word(word: str) -> bool:
    return word not in STOPWORDS and (len(word) > 1 or word.isdigit())


def content_words(text: str) -> list[str]:
    """Lower-cased words that carry a topic (stopwords and single letters dropped), in order."""
    return [w for w in words(text) if is_content_word(w)]


# the answerer stems the same few thousand words over and over (~125k calls for 54 questions)
@lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """A deliberately light stemmer: plural and common verb endings, nothing clever.

    Enough for "keys"/"key", "sorted"/"sorting"/"sort", "dictionaries"/"dictionary"; it never
    touches short words or identifiers with digits, where a wrong cut would merge topics.
    """
    if len(word) <= 3 or any(c.isdigit() for c in word):
        return word
    for suffix, repl in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)] + repl
            break
    else:
        if word.endswith("s") and not word.endswith(("ss", "us", "is")):
            word = word[:-1]
    if len(word) >= 4 and word.endswith("e"):
        word = word[:-1]
    return word


@lru_cache(maxsize=1 << 16)
def topic_stem(word: str) -> str:
    """`stem`, and a negated participle or adjective reduced to its root ("unbounded" →
    "bound", "unhashable" → "hashabl"): what a sentence is about, for finding the one that
    answers a question about an unbounded cache ("… can grow without bound"). Not for judging
    support, where "unordered" must not match "ordered"."""
    if word.startswith("un") and len(word) >= 7 and word.endswith(("ed", "able", "ible")):
        word = word[2:]
    return stem(word)


def stems(text: str) -> set[str]:
    """The set of stemmed content words of `text`."""
    return {stem(w) for w in content_words(text)}


def word_trigrams(tokens: Iterable[str]) -> set[tuple[str, str, str]]:
    """Trigrams of consecutive words with at least two content words (topic-bearing)."""
    seq = list(tokens)
    out: set[tuple[str, str, str]] = set()
    for i in range(len(seq) - 2):
        tri = (seq[i], seq[i + 1], seq[i + 2])
        if sum(1 for w in tri if is_content_word(w)) >= 2:
            out.add(tri)
    return out
