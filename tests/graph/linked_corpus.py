"""A small corpus whose documents cite each other and share named things: the pump manual is
cited by file name from the wiring guide; the valve notes share its firmware and bus."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.assistant import Assistant
from support import ingested

LINKED_CORPUS = {
    "pump-manual.md": (
        "# Pump Manual\n\n## Controller\n\nThe Pump Controller uses the Sensor Bus Interface "
        "(SBI). The Pump Controller depends on firmware FC-001-234 to start the motor.\n\n"
        "## Maintenance\n\nReplace the Intake Filter every six months. The Intake Filter is "
        "part of the Pump Housing.\n"
    ),
    "wiring-guide.md": (
        "# Wiring Guide\n\nSee pump-manual.md for the Pump Controller. Connect the Sensor Bus "
        "Interface to port J4. The SBI carries readings from firmware FC-001-234.\n"
    ),
    "valve-notes.md": (
        "# Valve Notes\n\nThe Valve Driver depends on firmware FC-001-234. The Valve Driver "
        "connects to the Sensor Bus Interface on port J7.\n"
    ),
    "holidays.md": (
        "# Holidays\n\nThe office closes on the first Monday of August. Staff take leave "
        "through the booking form.\n"
    ),
}


@pytest.fixture
def linked_assistant(tmp_path: Path) -> Iterator[Assistant]:
    """An assistant (hashing embedder) that ingested `LINKED_CORPUS` from `tmp_path/docs`;
    import it into a test module to use it."""
    with ingested(tmp_path, LINKED_CORPUS) as made:
        yield made
