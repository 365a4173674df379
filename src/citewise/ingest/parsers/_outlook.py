"""Whether Outlook messages can be read here: extract-msg is optional (the `outlook` extra),
so `choose_parser` asks before routing a `.msg` to its parser (`msg`)."""

from __future__ import annotations

import importlib.util

MISSING = (
    "an Outlook message (.msg); install the optional extract-msg package "
    "(pip install 'citewise[outlook]') to read it, or save the message as .eml"
)


def available() -> bool:
    """Whether extract-msg is installed."""
    return importlib.util.find_spec("extract_msg") is not None
