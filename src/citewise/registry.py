"""`Registry[T]`: the one shape of every backend family (stores, user stores, memories,
embedders, LLMs, rerankers, rule profiles, job queues, parsers).

A registry maps a name to an entry (a factory, or a ready value such as a rule pack);
`register(name, entry)` adds one, `get(name)` finds one, and an unknown name raises the
family's error, which lists the valid names. `FactoryRegistry` adds `create(name, …)`,
which calls the factory registered under `name`.

>>> shapes = FactoryRegistry[[int], str]("shape")
>>> shapes.register("square", lambda n: "□" * n)
>>> shapes.create("square", 3)
'□□□'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Generic, ParamSpec, TypeVar

from citewise.errors import CitewiseError, ConfigError

T = TypeVar("T")
P = ParamSpec("P")
R = TypeVar("R")

# (the name asked for, the valid names in registration order) → the error to raise
UnknownName = Callable[[str, list[str]], CitewiseError]


class Registry(Generic[T]):
    """Names → entries, in registration order. `kind` names the family in the default error
    ("unknown store 'x'; valid: a, b"); `unknown` builds a family's own message."""

    def __init__(
        self,
        kind: str,
        entries: Iterable[tuple[str, T]] = (),
        *,
        unknown: UnknownName | None = None,
    ) -> None:
        self.kind = kind
        self._entries: dict[str, T] = {}
        self._unknown = unknown
        for name, entry in entries:
            self.register(name, entry)

    def register(self, name: str, entry: T) -> None:
        """Adds `entry` under `name`, replacing one registered before."""
        self._entries[name] = entry

    def get(self, name: str) -> T:
        """The entry registered under `name`; an unknown name raises the family's error."""
        found = self._entries.get(name)
        if found is None:
            raise self.unknown(name)
        return found

    def unknown(self, name: str) -> CitewiseError:
        """The error for a name this registry does not hold (it lists the valid names)."""
        if self._unknown is not None:
            return self._unknown(name, self.names())
        return ConfigError(f"unknown {self.kind} {name!r}; valid: {', '.join(self.names())}")

    def names(self) -> list[str]:
        return list(self._entries)

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __getitem__(self, name: str) -> T:
        return self._entries[name]

    def __setitem__(self, name: str, entry: T) -> None:
        self.register(name, entry)

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


class FactoryRegistry(Registry[Callable[P, R]]):
    """A registry of factories: `create(name, *args)` calls the one registered as `name`."""

    def create(self, name: str, *args: P.args, **kwargs: P.kwargs) -> R:
        return self.get(name)(*args, **kwargs)
