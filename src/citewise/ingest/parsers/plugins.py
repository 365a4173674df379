"""Parsers that installed packages add through the `citewise.parsers` entry point group.

An entry point's name is the format name, its object a `ParserPlugin`:

    [project.entry-points."citewise.parsers"]
    org = "citewise_plugin_sample:PARSER"   # PARSER = ParserPlugin(parse_org, (".org",))

A plugin's extensions are read when the parsers are first looked up; an extension citewise
parses itself stays with the built-in parser. A file whose extension a plugin claims goes to
that plugin's parser as it is (no content sniffing): the parser judges its own bytes.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from citewise.registry import Plugin
from citewise.types import ParsedDocument

__all__ = ["GROUP", "ParserPlugin", "PluginFormats"]

GROUP = "citewise.parsers"
log = logging.getLogger("citewise.plugins")
_EXTENSION = re.compile(r"\.[a-z0-9][a-z0-9_+-]*(\.[a-z0-9_+-]+)*")
_MIME = re.compile(r"[a-z0-9][a-z0-9!#$&^_.+-]*/[a-z0-9][a-z0-9!#$&^_.+-]*")


@dataclass(frozen=True)
class ParserPlugin:
    """A parser a plugin adds: `parse(data, name, **options)` returns the document or raises
    a `DocumentError` subclass; `extensions` (".org", lower case) route files to it;
    `mime_types` ("text/x-org") are declared for integrators (an upload form's accept list)."""

    parse: Callable[..., ParsedDocument]
    extensions: tuple[str, ...]
    mime_types: tuple[str, ...] = ()

    def __call__(self, data: bytes, name: str, **options: str) -> ParsedDocument:
        return self.parse(data, name, **options)

    def problems(self) -> list[str]:
        """What is wrong with the declaration (empty when it is well formed)."""
        found = [] if callable(self.parse) else ["parse is not callable"]
        if not self.extensions:
            found.append("it declares no extensions")
        found += [f"bad extension {e!r}" for e in self.extensions if not _EXTENSION.fullmatch(e)]
        return found + [f"bad MIME type {m!r}" for m in self.mime_types if not _MIME.fullmatch(m)]


class _ParserRegistry(Protocol):
    """What `PluginFormats` needs of the parser registry (`PARSERS`)."""

    def accept_plugins(self, group: str, adapt: Callable[[Plugin], ParserPlugin]) -> None: ...

    def names(self) -> list[str]: ...


class PluginFormats:
    """Extension → format name for the parsers plugins add to `registry`. Built-in
    extensions are checked first by the caller, so they never reach this map."""

    def __init__(self, registry: _ParserRegistry, group: str = GROUP) -> None:
        self._registry = registry
        self._by_extension: dict[str, str] = {}
        registry.accept_plugins(group, self._adapt)

    def format_for(self, extension: str) -> str | None:
        """The plugin format that reads files ending in `extension`, if one does."""
        self._registry.names()  # loads the plugins, once
        return self._by_extension.get(extension.lower())

    def extensions(self) -> frozenset[str]:
        self._registry.names()
        return frozenset(self._by_extension)

    def _adapt(self, plugin: Plugin) -> ParserPlugin:
        spec = plugin.load()
        if not isinstance(spec, ParserPlugin):
            raise plugin.error(f"is not a ParserPlugin: {plugin.value} is a {type(spec)}")
        problems = spec.problems()
        if problems:
            raise plugin.error("is malformed: " + "; ".join(problems))
        for ext in spec.extensions:
            owner = self._by_extension.setdefault(ext, plugin.name)
            if owner != plugin.name:
                log.warning("%s files go to the %r parser plugin, not %r", ext, owner, plugin.name)
        return spec
