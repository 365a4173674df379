"""A sample citewise plugin: Org-mode files (`.org`), the outline's headlines as sections."""

from __future__ import annotations

from citewise.ingest.parsers.plugins import ParserPlugin

from citewise_plugin_sample.org import parse_org

# what the `citewise.parsers` entry point `org` names (see pyproject.toml)
PARSER = ParserPlugin(parse_org, extensions=(".org",), mime_types=("text/org", "text/x-org"))
