"""What the facade's method groups share: the wired parts (`services.Components`), read only
by `Assistant`'s own methods."""

from __future__ import annotations

from citewise.chat.memory import Memory
from citewise.config import Settings
from citewise.services import Components
from citewise.store.base import Store


class FacadeBase:
    """The parts behind `Assistant`; each method group (documents, graph, conversations,
    passages) is a subclass, and `Assistant` joins them."""

    _parts: Components
    settings: Settings

    @property
    def collection(self) -> str:
        return self.settings.collection

    def _store(self) -> Store:
        return self._parts.store.get()

    def _memory(self) -> Memory:
        return self._parts.memory.get()
