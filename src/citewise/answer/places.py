"""Questions that ask where something is or goes, and the sentences that say so.

"Where does time write its statistics by default?" is answered by "… (on the standard error
output, by default)", not by the sentence that best matches its words ("The default output
format of time differs …"). A sentence names a place when it holds a path (`~/.config`,
`/tmp`, `C:\\Temp`, `%APPDATA%`, `$HOME`), a stream (stdout, standard error) or a location
word (directory, folder, path, location).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol, TypeVar

_ASKS_PLACE = re.compile(
    r"^\W*where\b|\b(?:in|into|to)\s+(?:which|what)\s+(?:directory|folder|file|location|path)\b",
    re.I,
)
_NAMES_PLACE = re.compile(
    r"(?:^|[\s(\"'`=])(?:~|\.{1,2}|[A-Za-z]:)?[/\\][\w.-]+"  # a path
    r"|\b(?:director(?:y|ies)|folders?|paths?|locations?)\b"
    r"|\b(?:stdout|stderr|stdin|standard\s+(?:output|error|input))\b"
    r"|%\w+%|\$[A-Z_]{2,}",  # %APPDATA%, $HOME
    re.I,
)


def asks_place(question: str) -> bool:
    """ "Where …?", "In which directory …?": the answer says where."""
    return bool(_ASKS_PLACE.search(question))


def names_place(sentence: str) -> bool:
    """Whether a sentence names a path, a stream or a location."""
    return bool(_NAMES_PLACE.search(sentence))


class _Sentence(Protocol):
    @property
    def text(self) -> str: ...


T = TypeVar("T", bound=_Sentence)


def prefer_places(question: str, fits: list[T], answers: Callable[[T], bool]) -> list[T]:
    """For a question asking where, `fits` (best first) narrowed to the sentences that name
    a place, when the best of them `answers` (clears the abstention thresholds) on its own;
    else unchanged, so that asking "where" never turns an answer into a refusal."""
    if not asks_place(question):
        return fits
    placed = [x for x in fits if names_place(x.text)]
    return placed if placed and answers(placed[0]) else fits
