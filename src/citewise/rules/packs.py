"""The packs: general (no genre rule), API reference pages, command-line manuals, financial
reports."""

from __future__ import annotations

from citewise.rules.base import RulePack

# the financial statements' retrieval rules apply inside a filing or results release under
# every profile: its cover page says what it is (`rules.financial_reports`)
RECOGNISED = ("financial_statements",)
GENERAL = RulePack("general", "any document: no genre rule", recognised=RECOGNISED)
API_REFERENCE = RulePack(
    "api_reference",
    "Sphinx, pydoc, javadoc and Node.js-style reference: entries under headings naming them",
    entry_headings=True,
    version_notes=True,
    code_names=True,
    recognised=RECOGNISED,
)
CLI_OPTIONS = RulePack(
    "cli_options",
    "man pages, Texinfo manuals, --help output: options as items",
    option_items=True,
    recognised=RECOGNISED,
)
FINANCIAL_REPORTS = RulePack(
    "financial_reports",
    "10-K and 10-Q filings, annual reports, earnings releases: figures in statements",
    financial_statements=True,
)
