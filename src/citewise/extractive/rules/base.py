"""The one small protocol every rule pack follows: which genre rules it switches on.

Each switch names a family of rules that holds for one genre of document and misleads on
others; the general pack switches every one off.
"""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True, slots=True)
class RulePack:
    name: str
    # reference pages document an entry under a heading naming it ("shutil.rmtree(path)")
    # and describe it without the name: the heading frames its sentences, a terse opening
    # ("Kills the child.") is a whole definition, the page titled after a subject holds its
    # definition
    entry_headings: bool = False
    # manuals list command-line options as items ("-k --keep: Keep input files"): an option's
    # item is its answer, and retrieval ranks the entries headed by an option the query names
    option_items: bool = False
    # "Changed in version 3.10: …" notes and release notes describe a thing as it was
    version_notes: bool = False
    # CamelCase and CAPITALS words name code entities ("TaskGroup", "PYTHONPATH"): a question
    # naming one that no passage mentions is not answered from them
    code_names: bool = False
    # annual and quarterly reports state their figures in a few financial statements (balance
    # sheet, income statement, cash flows) under set titles and accounting row labels: inside
    # the report a question names, search the statements the measure it asks for is in
    financial_statements: bool = False

    @property
    def switches(self) -> tuple[str, ...]:
        """The names of the rule families this pack switches on."""
        return tuple(f.name for f in fields(self) if f.name != "name" and getattr(self, f.name))


def combined(name: str, *packs: RulePack) -> RulePack:
    """A pack that switches on every rule family any of `packs` does."""
    on = {switch for pack in packs for switch in pack.switches}
    return RulePack(name, **{switch: True for switch in on})
