"""A vocabulary of everyday English words (the whole words of a WordPiece vocabulary, shipped as
`english.txt`): a lower-case word outside it is likely a technical name ("dpkg", "lintian"),
and a capitalised word inside it needs more evidence before it is taken for a name."""

from __future__ import annotations

from functools import cache
from importlib.resources import files

# endings taken off (and what replaces them) before a word is looked up again
_SUFFIXES = (
    ("'s", ""), ("’s", ""), ("s", ""), ("es", ""), ("ies", "y"), ("ed", ""), ("d", ""),
    ("ied", "y"), ("ing", ""), ("er", ""), ("ers", ""), ("ly", ""), ("ally", ""), ("ily", "y"),
    ("ion", ""), ("ions", ""), ("able", ""), ("ability", ""), ("ity", ""), ("ness", ""),
    ("zes", ""),  # "quizzes"
)  # fmt: skip
# everyday prefixes: "unpacked", "subdirectory", "reboot", "preinstalled"
_PREFIXES = ("un", "re", "sub", "pre", "de", "non", "co", "inter", "multi", "over", "up")
# a noun's or verb's inflected ending: "dynamically", "unpacked", "directories"
INFLECTED = ("ly", "ed", "ing", "ies", "able", "ability", "ity", "ation", "ations", "ness")


@cache
def vocabulary() -> frozenset[str]:
    text = files("citewise.text").joinpath("english.txt").read_text(encoding="utf-8")
    return frozenset(line for line in text.splitlines() if line.isalpha())


def is_english(word: str) -> bool:
    """Whether `word` (any case) or its stem without a common ending is an everyday word."""
    low = word.lower()
    words = vocabulary()
    if low in words:
        return True
    if _stem_known(low, words):
        return True
    return any(
        low.startswith(p) and _stem_known(low[len(p) :], words, bare=True) for p in _PREFIXES
    )


def _stem_known(low: str, words: frozenset[str], *, bare: bool = False) -> bool:
    if bare and low in words and len(low) >= 3:
        return True
    for suffix, replacement in _SUFFIXES:
        if not low.endswith(suffix):
            continue
        stem = low[: len(low) - len(suffix)] + replacement
        if len(stem) >= 3 and (stem in words or stem + "e" in words):
            return True
    return False


@cache
def _tails() -> frozenset[str]:
    return frozenset(w[i:] for w in vocabulary() for i in range(1, len(w) - 3))


def is_fragment(word: str) -> bool:
    """The tail of an everyday word a line break cut off ("gorithm", "formance")."""
    return len(word) >= 4 and word.lower() in _tails()


def is_compound(word: str) -> bool:
    """Two everyday words run together ("uppercase", "filename", "whitespace")."""
    low = word.lower()
    words = vocabulary()
    return any(low[:i] in words and low[i:] in words for i in range(3, len(low) - 2))
