"""`Registry[T]`: the one shape of every backend family (stores, user stores, memories,
embedders, LLMs, rerankers, rule profiles, job queues, parsers).

A registry maps a name to an entry (a factory, or a ready value such as a rule pack);
`register(name, entry)` adds one, `get(name)` finds one, and an unknown name raises the
family's error, which lists the valid names. `FactoryRegistry` adds `create(name, …)`,
which calls the factory registered under `name`.

`accept_plugins(group)` opens a registry to installed packages: each entry point of `group`
(e.g. `citewise.stores`) is added under its name at the first lookup, built-in names first
(see docs/plugins.md).

>>> shapes = FactoryRegistry[[int], str]("shape")
>>> shapes.register("square", lambda n: "□" * n)
>>> shapes.create("square", 3)
'□□□'
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Generic, ParamSpec, Protocol, TypeVar, cast

from citewise.errors import CitewiseError, ConfigError, PluginError

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint, EntryPoints

T = TypeVar("T")
P = ParamSpec("P")
R = TypeVar("R")

log = logging.getLogger("citewise.plugins")

# (the name asked for, the valid names in registration order) → the error to raise
UnknownName = Callable[[str, list[str]], CitewiseError]


class _Selectable(Protocol):
    def select(self, *, group: str) -> EntryPoints: ...


@functools.cache
def installed_entry_points() -> _Selectable:
    """Every entry point on sys.path, read once per process (a scan takes ~20 ms); a test
    that installs a plugin at run time calls `installed_entry_points.cache_clear()`."""
    from importlib.metadata import entry_points  # ~35 ms, paid only when a registry is read

    return entry_points()


class Plugin:
    """One entry point of a plugin group. `load()` imports its object once; a failure raises a
    `PluginError` that names the distribution to fix or uninstall."""

    def __init__(self, entry_point: EntryPoint, kind: str) -> None:
        self.entry_point = entry_point
        self.kind = kind
        self._loaded: tuple[object] | None = None

    @property
    def name(self) -> str:
        return self.entry_point.name

    @property
    def group(self) -> str:
        return self.entry_point.group

    @property
    def value(self) -> str:
        return self.entry_point.value

    @property
    def distribution(self) -> str:
        """ "name version" of the package that declares the entry point."""
        dist = self.entry_point.dist
        if dist is None:
            return "an unknown distribution"
        return f"{dist.metadata['Name'] or dist.name} {dist.version}"

    def load(self) -> object:
        if self._loaded is None:
            try:
                self._loaded = (self.entry_point.load(),)
            except Exception as exc:  # any import-time failure of foreign code
                raise self.error(f"failed to load: {type(exc).__name__}: {exc}") from exc
        return self._loaded[0]

    def error(self, problem: str) -> PluginError:
        """The error for this plugin: which one, from which distribution, what went wrong."""
        dist = self.distribution
        return PluginError(
            f"the {self.kind} plugin {self.name!r} ({self.group} = {self.value}) from {dist} "
            f"{problem}; fix or uninstall {dist.split(' ')[0]}",
            distribution=dist,
            group=self.group,
            name=self.name,
        )


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
        self._group: str | None = None
        self._adapt: Callable[[Plugin], T] = self._loaded
        self._plugins: dict[str, Plugin] = {}
        self._failure: PluginError | None = None
        self._ready = True
        self._loading = False
        self._lock = threading.RLock()
        for name, entry in entries:
            self.register(name, entry)

    def register(self, name: str, entry: T) -> None:
        """Adds `entry` under `name`, replacing one registered before."""
        self._entries[name] = entry

    def accept_plugins(self, group: str, adapt: Callable[[Plugin], T] | None = None) -> None:
        """Adds the entry points of `group` at the first lookup, each under its name through
        `adapt` (by default the loaded object itself). A name registered before (a built-in)
        keeps its entry; a plugin that fails to load raises its `PluginError` at every
        lookup, so a broken install is reported rather than half-used."""
        self._group = group
        if adapt is not None:
            self._adapt = adapt
        self._ready = False

    def plugin(self, name: str) -> Plugin | None:
        """The plugin that added `name`, or None for a built-in or unknown name."""
        self._load_plugins()
        return self._plugins.get(name)

    def get(self, name: str) -> T:
        """The entry registered under `name`; an unknown name raises the family's error."""
        self._load_plugins()
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
        self._load_plugins()
        return list(self._entries)

    def __contains__(self, name: object) -> bool:
        self._load_plugins()
        return name in self._entries

    def __getitem__(self, name: str) -> T:
        self._load_plugins()
        return self._entries[name]

    def __setitem__(self, name: str, entry: T) -> None:
        self.register(name, entry)

    def __iter__(self) -> Iterator[str]:
        self._load_plugins()
        return iter(self._entries)

    def __len__(self) -> int:
        self._load_plugins()
        return len(self._entries)

    def _loaded(self, plugin: Plugin) -> T:
        return cast(T, plugin.load())

    def _load_plugins(self) -> None:
        if self._ready:
            if self._failure is not None:
                raise self._failure.with_traceback(None)
            return
        with self._lock:  # re-entered by the same thread when a plugin's import looks up
            if self._ready or self._loading:
                return
            self._loading = True
            try:
                self._failure = self._add_plugins()
            finally:
                self._ready, self._loading = True, False
        if self._failure is not None:
            raise self._failure

    def _add_plugins(self) -> PluginError | None:
        """Adds every entry point of the group; returns the first failure, if any."""
        failure: PluginError | None = None
        for plugin in self._discover():
            if plugin.name in self._entries:
                other = self._plugins.get(plugin.name)
                owner = f"the plugin from {other.distribution}" if other else "a built-in"
                log.warning(
                    "the %s plugin %r from %s is ignored: %s has that name",
                    self.kind, plugin.name, plugin.distribution, owner,
                )  # fmt: skip
                continue
            try:
                self._entries[plugin.name] = self._adapt(plugin)
            except PluginError as exc:  # raised at every lookup, see _load_plugins
                failure = failure or exc
                continue
            self._plugins[plugin.name] = plugin
        return failure

    def _discover(self) -> list[Plugin]:
        found = installed_entry_points().select(group=self._group) if self._group else ()
        plugins = [Plugin(ep, self.kind) for ep in found]
        return sorted(plugins, key=lambda p: (p.distribution, p.name))


class FactoryRegistry(Registry[Callable[P, R]]):
    """A registry of factories: `create(name, *args)` calls the one registered as `name`.
    A plugin's factory is imported at its first call, so listing the names imports nothing."""

    def create(self, name: str, *args: P.args, **kwargs: P.kwargs) -> R:
        return self.get(name)(*args, **kwargs)

    def _loaded(self, plugin: Plugin) -> Callable[P, R]:
        def create(*args: P.args, **kwargs: P.kwargs) -> R:
            factory = plugin.load()
            if not callable(factory):
                raise plugin.error(f"is not a factory: {plugin.value} is a {type(factory)}")
            return cast(R, factory(*args, **kwargs))

        create.__name__ = create.__qualname__ = plugin.name
        return create
