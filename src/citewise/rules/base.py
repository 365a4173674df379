"""The one small protocol every rule pack follows: which genre rules it switches on, and
which stages of the pipeline each one changes.

Each switch names a family of rules that holds for one genre of document and misleads on
others; the general pack switches every one off. `FAMILIES` declares, for each switch, the
stages it touches and what it does there (`citewise.rules.table` prints them).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum


class Stage(Enum):
    """A stage of the pipeline a rule family may change."""

    INGEST = "ingest"
    RETRIEVAL = "retrieval"
    GATE = "relevance gate"
    ANSWER_FLOW = "answer flow"
    EXTRACTIVE = "extractive answerer"


@dataclass(frozen=True, slots=True)
class Family:
    """What one switch changes: the stages it touches and a one-line description."""

    stages: tuple[Stage, ...]
    description: str
    # the documents its retrieval rule recognises by their opening (applied there under a
    # profile that names the switch in `RulePack.recognised`); empty: none
    recognises: str = ""


_NOT_SWITCHES = ("name", "description", "recognised")


@dataclass(frozen=True, slots=True)
class RulePack:
    name: str
    description: str = ""  # the genre it is for, in one line
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
    # the switches applied only inside the documents their rule recognises (a filing's cover
    # page): a user who did not pick the genre's profile still gets its retrieval rules there
    recognised: tuple[str, ...] = ()

    @property
    def switches(self) -> tuple[str, ...]:
        """The names of the rule families this pack switches on."""
        return tuple(
            f.name for f in fields(self) if f.name not in _NOT_SWITCHES and getattr(self, f.name)
        )

    @property
    def stages(self) -> tuple[Stage, ...]:
        """The stages this pack changes, in pipeline order (none for the general pack)."""
        on = {stage for switch in self.switches for stage in FAMILIES[switch].stages}
        return tuple(stage for stage in Stage if stage in on)

    @property
    def where_recognised(self) -> tuple[str, ...]:
        """The switches applied inside the documents their rule recognises, those on
        everywhere left out."""
        return tuple(s for s in self.recognised if s not in self.switches)


# what each switch of `RulePack` changes (a test checks every switch is declared here)
FAMILIES: dict[str, Family] = {
    "entry_headings": Family(
        (Stage.ANSWER_FLOW, Stage.EXTRACTIVE),
        "the page titled after the subject joins the passages; an entry's heading frames its "
        "sentences and a terse opening is its definition",
    ),
    "option_items": Family(
        (Stage.RETRIEVAL, Stage.EXTRACTIVE),
        "entries headed by an option the query names are a candidate source; an option's "
        "list item is its answer",
    ),
    "version_notes": Family(
        (Stage.EXTRACTIVE,),
        '"Changed in version …" notes count less unless the question asks about changes',
    ),
    "code_names": Family(
        (Stage.GATE, Stage.EXTRACTIVE),
        "CamelCase and CAPITALS words a question names must appear in the passages",
    ),
    "financial_statements": Family(
        (Stage.RETRIEVAL,),
        "inside a report the question names, the statements reporting the asked measure are "
        "searched and raised",
        recognises="a filing's cover page (SEC form 10-K, 10-Q, 8-K …), the opening of an annual "
        "report or results release",
    ),
}


def combined(name: str, *packs: RulePack, description: str = "") -> RulePack:
    """A pack that switches on every rule family any of `packs` does."""
    on = {switch for pack in packs for switch in pack.switches}
    about = description or " and ".join(pack.description or pack.name for pack in packs)
    recognised = tuple(dict.fromkeys(s for pack in packs for s in pack.where_recognised))
    return RulePack(
        name,
        about,
        recognised=tuple(s for s in recognised if s not in on),
        **{switch: True for switch in on},
    )
