"""The packs: general (no genre rule), API reference pages, command-line manuals, financial
reports."""

from __future__ import annotations

from citewise.extractive.rules.base import RulePack

GENERAL = RulePack("general")
# Sphinx/pydoc/javadoc/Node.js-style reference: entries under headings naming them, version
# notes in their text
API_REFERENCE = RulePack("api_reference", entry_headings=True, version_notes=True, code_names=True)
# man pages, Texinfo manuals, --help output: options listed as items
CLI_OPTIONS = RulePack("cli_options", option_items=True)
# 10-K and 10-Q filings, annual reports, earnings releases: figures in financial statements
FINANCIAL_REPORTS = RulePack("financial_reports", financial_statements=True)
