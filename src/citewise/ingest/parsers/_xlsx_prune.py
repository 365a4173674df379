"""openpyxl's read-only sheets parse `<row>` elements as a stream and clear each one, but a
cleared row stays a child of `<sheetData>`: ~80 bytes a row that are never freed, so a sheet
of a million rows held ~80 MB more at its end than at its start (benchmarks/formats_memory.py).
`prune_finished_rows` wraps the `iterparse` openpyxl's sheet reader calls so that a row is
dropped from its parent once the reader has moved past it (nothing else changes)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

_ROW = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}row"
_PRUNED = "_citewise_pruned"


def prune_finished_rows() -> None:
    """Installs the wrapper once (openpyxl's sheet reader looks `iterparse` up per sheet)."""
    from openpyxl.worksheet import _reader

    original = getattr(_reader, "iterparse", None)
    if original is None or getattr(original, _PRUNED, False):
        return  # another openpyxl layout, or already installed
    _reader.iterparse = _pruning(original)


def _pruning(original: Callable[..., Any]) -> Callable[..., Iterator[tuple[str, Any]]]:
    def iterparse(source: Any, events: Any = None, **options: Any) -> Iterator[tuple[str, Any]]:
        if events is not None:  # not how the sheet reader calls it: left as it is
            yield from original(source, events, **options)
            return
        open_elements: list[Any] = []
        for event, element in original(source, ("start", "end"), **options):
            if event == "start":
                open_elements.append(element)
                continue
            open_elements.pop()
            yield event, element
            if element.tag == _ROW and open_elements:  # the reader is done with it
                open_elements[-1].remove(element)

    setattr(iterparse, _PRUNED, True)
    return iterparse
