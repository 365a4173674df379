"""Command-line options documented as items of a list, as manuals have them (pure):
"-k --keep: Keep (don't delete) input files …", "--leak-check=<no|summary|yes|full>
[default: summary]: When enabled, …". For a question about an option, its item is the answer
and the other items of the list are about other options.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Protocol

from citewise.question.terms import T, narrowed_to
from citewise.types import Passage

_ITEM_START = re.compile(r"^\s*(?:[-*•]\s+)?--?[A-Za-z0-9][\w-]*(?:[=\s,\[<:]|$)")


class _Placed(Protocol):
    @property
    def passage(self) -> Passage: ...
    @property
    def index(self) -> int: ...


def option_item(option: str, text: str) -> bool:
    """Whether a line of `text` is the item documenting a command-line option, as option
    lists in manuals have it: "--leak-check=<no|summary|yes|full> [default: summary]: …"."""
    if not option.startswith("-"):
        return False
    return re.search(rf"^\s*(?:[-*•]\s+)?{re.escape(option)}(?![\w-])", text, re.M) is not None


def option_item_start(sentences: Sequence[str], index: int) -> int | None:
    """The index of the sentence opening the item of an options list that sentence `index`
    belongs to ("-k --keep: Keep …" and what follows it up to the next option), or None
    when no option item opens at or before it."""
    for i in range(index, -1, -1):
        if _ITEM_START.match(sentences[i]):
            return i
    return None


def prefer_option_items(option: str, fits: list[T], answers: Callable[[T], bool]) -> list[T]:
    """For a question about `option`, `fits` narrowed to the sentences of its item when the
    best of them `answers` (`narrowed_to`): an item is the option's documentation however
    little its words look like the question ("-o file, --output=file: Write the resource use
    statistics to file."). Other questions keep `fits`."""
    if not option.startswith("-"):
        return fits
    return narrowed_to(fits, lambda x: option_item(option, x.text), answers)


def same_option_item(split: dict[int, list[str]], best: _Placed, other: _Placed) -> bool:
    """Whether `other` belongs to the item of an options list that `best` opens or continues
    ("-k --keep: Keep …"), not to another option's ("-d --decompress: …"); true when `best`
    is in no such item."""
    start = option_item_start(split[best.passage.n], best.index)
    if start is None:
        return True
    return other.passage.n == best.passage.n and (
        option_item_start(split[other.passage.n], other.index) == start
    )
