"""Numbers written in words, as digits: "thirty (30) days" and "30 days" state one value, and
so do "twenty-five" and "25", "one hundred and twenty" and "120" (pure).

The support check compares a claim's values and words with the passages' in both notations:
a model that writes "thirty days" from a passage's "30 days" (or the other way round) states
the passage's fact.
"""

from __future__ import annotations

import re

UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19,
}  # fmt: skip
TENS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90,
}  # fmt: skip
SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
_WORD = "|".join(sorted([*UNITS, *TENS, *SCALES], key=len, reverse=True))
SPELLED = re.compile(rf"\b(?:{_WORD})(?:(?:[\s-]+|\s+and\s+)(?:{_WORD}))*\b(?!-\w)", re.IGNORECASE)


def value_of(phrase: str) -> int | None:
    """The number a phrase of number words states ("twenty-five" → 25), None if it is not one
    (a scale alone, "hundred", or words out of order)."""
    total = current = 0
    seen = False
    for w in re.split(r"[\s-]+", phrase.lower()):
        if w == "and":
            continue
        if w in UNITS or w in TENS:
            current += UNITS.get(w, 0) + TENS.get(w, 0)
            seen = True
        elif w in SCALES and seen:
            scale = SCALES[w]
            if scale == 100:
                current *= 100
            else:
                total += current * scale
                current = 0
        else:
            return None
    return total + current if seen else None


def digitised(text: str) -> str:
    """`text` with every number phrase in words replaced by its digits."""

    def digits(m: re.Match[str]) -> str:
        n = value_of(m.group(0))
        return m.group(0) if n is None else str(n)

    return SPELLED.sub(digits, text)
