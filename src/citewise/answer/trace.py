"""What happened while answering one question: a trace of spans (name, milliseconds,
attributes) and notes (a count or flag: attempts, a fallback, an abstention).

The answer's `timings_ms` (part of the JSON contract) is derived from it: each span name's
total time, and each note. Steps write to the trace they are handed instead of a shared dict;
code that still sets `trace["name"] = value` records a note.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager
from dataclasses import dataclass, field


@dataclass(slots=True)
class Span:
    name: str
    ms: float
    attributes: dict[str, str | float] = field(default_factory=dict)


class Trace(MutableMapping[str, float]):
    """Spans in the order they ended, and notes by name (a mapping of the derived timings)."""

    def __init__(self) -> None:
        self.spans: list[Span] = []
        self._notes: dict[str, float] = {}

    @contextmanager
    def span(self, name: str, **attributes: str | float) -> Iterator[Span]:
        """Times the block as a span; the block may add attributes to the span it gets."""
        started = time.perf_counter()
        current = Span(name, 0.0, dict(attributes))
        try:
            yield current
        finally:
            current.ms = (time.perf_counter() - started) * 1000.0
            self.spans.append(current)

    def add(self, name: str, ms: float, **attributes: str | float) -> None:
        """A span timed elsewhere (e.g. the retriever's own steps)."""
        self.spans.append(Span(name, ms, dict(attributes)))

    def timings_ms(self) -> dict[str, float]:
        """Per span name its total time, then the notes."""
        out: dict[str, float] = {}
        for s in self.spans:
            out[s.name] = out.get(s.name, 0.0) + s.ms
        out.update(self._notes)
        return out

    # the mapping view: the derived timings; setting a key records a note
    def __getitem__(self, key: str) -> float:
        return self.timings_ms()[key]

    def __setitem__(self, key: str, value: float) -> None:
        self._notes[key] = value

    def __delitem__(self, key: str) -> None:
        del self._notes[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.timings_ms())

    def __len__(self) -> int:
        return len(self.timings_ms())
