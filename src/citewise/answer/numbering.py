"""Citation numbers as the reader sees them: 1..N in the order a streaming draft first cites
its passages, so the `[n]` streamed equals the `n` of the citation events and of the final
answer (`settle` renumbers with the same order).

A model writes `[3]` for the third passage it was shown; the reader is shown `[1]` for the
first passage cited. A marker split across stream deltas (`"[" "3]"`) is held back until its
bracket closes. Markers naming no passage shown are dropped, as `renumber` drops them."""

from __future__ import annotations

from collections.abc import Iterable

from citewise.answer.citations import rewrite_markers

_HOLD_CHARS = 202  # a bracket open this long is no marker (a marker holds at most 200)


class DraftNumbers:
    """Renumbers a draft's `[n]` markers as it streams. `order` lists the passage numbers in
    the order first cited; `known` the passage numbers shown to the model."""

    def __init__(self, known: Iterable[int]) -> None:
        self.known = frozenset(known)
        self.order: list[int] = []
        self._held = ""
        self._last = ""  # the character before the held text (the marker's look-behind)

    def feed(self, delta: str) -> str:
        """The part of the draft so far that can be shown, renumbered."""
        text = self._held + delta
        cut = _open_bracket(text)
        self._held = text[cut:]
        return self._emit(text[:cut])

    def flush(self) -> str:
        """Whatever is held back, at the end of the stream."""
        text, self._held = self._held, ""
        return self._emit(text)

    def apply(self, text: str) -> str:
        """`text` (a whole sentence or answer) with its markers renumbered; a passage not
        cited before gets the next number."""
        return rewrite_markers(text, self._display)

    def _emit(self, text: str) -> str:
        if not text:
            return ""
        out = rewrite_markers(self._last + text, self._display)[len(self._last) :]
        self._last = text[-1]
        return out

    def _display(self, n: int) -> int | None:
        if n not in self.known:
            return None
        if n not in self.order:
            self.order.append(n)
        return self.order.index(n) + 1


def _open_bracket(text: str) -> int:
    """Where a marker that may still be growing starts (len(text) when none): an unclosed
    `[`, or a `]` at the very end (a `(` next would make it a link, not a marker)."""
    start = text.rfind("[")
    if start == -1 or len(text) - start > _HOLD_CHARS or "\n" in text[start:]:
        return len(text)
    close = text.find("]", start)
    if close == -1 or close == len(text) - 1:
        return start
    return len(text)
