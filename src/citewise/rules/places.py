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

from citewise.question.terms import T, narrowed_to

_NAMES_PLACE = re.compile(
    r"(?:^|[\s(\"'`=])(?:~|\.{1,2}|[A-Za-z]:)?[/\\][\w.-]+"  # a path
    r"|\b(?:director(?:y|ies)|folders?|paths?|locations?)\b"
    r"|\b(?:stdout|stderr|stdin|standard\s+(?:output|error|input))\b"
    r"|%\w+%|\$[A-Z_]{2,}",  # %APPDATA%, $HOME
    re.I,
)


def names_place(sentence: str) -> bool:
    """Whether a sentence names a path, a stream or a location."""
    return bool(_NAMES_PLACE.search(sentence))


def prefer_places(asks_place: bool, fits: list[T], answers: Callable[[T], bool]) -> list[T]:
    """For a question asking where (`asks_place`), `fits` narrowed to the sentences that name
    a place (`narrowed_to`: only when the best of them `answers`)."""
    if not asks_place:
        return fits
    return narrowed_to(fits, lambda x: names_place(x.text), answers)
