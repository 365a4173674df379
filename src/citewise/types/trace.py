"""What happened while answering or searching: a trace of spans (name, milliseconds,
attributes) and notes (a count or flag: attempts, a fallback, an abstention).

An answer's or search's `timings_ms` (part of the JSON contract) is derived from it: each span
name's total time, then each note. Steps write to the trace they are handed.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field


@dataclass(slots=True)
class Span:
    name: str
    ms: float
    attributes: dict[str, str | float] = field(default_factory=dict)


class Trace:
    """Spans in the order they ended, and notes by name."""

    def __init__(self) -> None:
        self.spans: list[Span] = []
        self.notes: dict[str, float] = {}

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
        """A span timed elsewhere (e.g. a search's own steps)."""
        self.spans.append(Span(name, ms, dict(attributes)))

    def add_since(self, name: str, started: float) -> None:
        """A span from `started` (a `time.perf_counter()` reading) to now: for a step that
        ends on one path only (an abstention records no "generate")."""
        self.add(name, (time.perf_counter() - started) * 1000.0)

    def note(self, name: str, value: float = 1.0) -> None:
        """A count or a flag (1.0): not a time, though `timings_ms` carries it too."""
        self.notes[name] = value

    def timings_ms(self) -> dict[str, float]:
        """Per span name its total time, then the notes."""
        out: dict[str, float] = {}
        for s in self.spans:
            out[s.name] = out.get(s.name, 0.0) + s.ms
        out.update(self.notes)
        return out
