"""citewise: answers questions only from your documents, citing the exact passage and page."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"
__all__ = ["Assistant", "__version__"]

if TYPE_CHECKING:
    from citewise.assistant import Assistant


def __getattr__(name: str) -> Any:
    # Lazy, so `import citewise` (and the CLI's --help) stays fast.
    if name == "Assistant":
        from citewise.assistant import Assistant

        return Assistant
    raise AttributeError(name)
