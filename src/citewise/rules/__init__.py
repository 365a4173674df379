"""Rule packs: what retrieval and the extractive answerer know about one genre of document.

The general core works on any document. A pack switches on the rules written for one genre
(API reference pages, command-line manuals, financial reports); a profile names the packs in use
(`CITEWISE_PROFILE`, default "general"). `rule_pack(profile)` is the registry; each switch
declares the stages it changes (`base.FAMILIES`, printed by `python -m citewise.rules`);
retrieval asks for a pack's retrieval rules through `retrieval_rules(pack)` (`rules.retrieval`:
the rules switched on everywhere, and those applied inside the documents they recognise). The
rules that need only text live here beside the packs: `option_items` (command-line options as
list items), `version_notes` ("Changed in version …"), `financial_statements` (the statements
a report's figures are in), `places`, `openings`; those reading the
extractive answerer's candidates stay there (`extractive.entry_headings`,
`extractive.definitions`). This package sits below `retrieve` and `extractive`
(pyproject.toml's layers).
"""

from __future__ import annotations

from citewise.errors import ConfigError
from citewise.registry import Registry
from citewise.rules.base import FAMILIES, Family, RulePack, Stage, combined
from citewise.rules.financial_reports import FinancialStatementsRule
from citewise.rules.packs import API_REFERENCE, CLI_OPTIONS, FINANCIAL_REPORTS, GENERAL
from citewise.rules.retrieval import InsideRule, RetrievalRules

DEFAULT_PROFILE = "general"

PROFILES = Registry[RulePack](
    "profile",
    [
        ("general", GENERAL),
        ("api_reference", API_REFERENCE),
        ("cli_options", CLI_OPTIONS),
        (
            "software_docs",
            combined(
                "software_docs",
                API_REFERENCE,
                CLI_OPTIONS,
                description="software documentation: reference entries and manuals together",
            ),
        ),
        ("financial_reports", FINANCIAL_REPORTS),
    ],
)


def rule_pack(profile: str | None) -> RulePack:
    """The pack a profile names: one name above, or several joined by '+'
    ("api_reference+cli_options")."""
    name = (profile or DEFAULT_PROFILE).strip().lower()
    parts = [p.strip() for p in name.split("+") if p.strip()]
    unknown = [p for p in parts if p not in PROFILES]
    if unknown or not parts:
        valid = ", ".join(PROFILES)
        raise ConfigError(f"unknown profile {profile!r}; valid profiles: {valid} (join with '+')")
    if len(parts) == 1:
        return PROFILES[parts[0]]
    return combined(name, *(PROFILES[p] for p in parts))


# the retrieval rule of each switch that has one (the retriever's hook: `rules.retrieval`)
RETRIEVAL_RULES: dict[str, InsideRule] = {"financial_statements": FinancialStatementsRule()}


def retrieval_rules(pack: RulePack) -> RetrievalRules:
    """The retrieval rules `pack` switches on everywhere, and those it applies inside the
    documents they recognise."""
    return RetrievalRules(
        tuple(RETRIEVAL_RULES[s] for s in pack.switches if s in RETRIEVAL_RULES),
        tuple(RETRIEVAL_RULES[s] for s in pack.where_recognised if s in RETRIEVAL_RULES),
    )


def table() -> str:
    """The profiles and the rule families, with the stages each changes, as Markdown tables
    (docs/rules.md holds this text)."""
    rows = [
        "| Profile | For | Switches on | Changes | Inside the documents it recognises |",
        "|---|---|---|---|---|",
    ]
    for name in PROFILES:
        pack = PROFILES[name]
        switches = ", ".join(f"`{s}`" for s in pack.switches) or "none"
        stages = ", ".join(stage.value for stage in pack.stages) or "nothing"
        inside = ", ".join(
            f"`{s}` ({', '.join(st.value for st in FAMILIES[s].stages)})"
            for s in pack.where_recognised
        )
        rows.append(f"| `{name}` | {pack.description} | {switches} | {stages} | {inside or '-'} |")
    rows += [
        "",
        "| Rule family | Stages | What it does | Recognises |",
        "|---|---|---|---|",
    ]
    for switch, family in FAMILIES.items():
        stages = ", ".join(stage.value for stage in family.stages)
        rows.append(
            f"| `{switch}` | {stages} | {family.description} | {family.recognises or '-'} |"
        )
    return "\n".join(rows) + "\n"


__all__ = [
    "DEFAULT_PROFILE",
    "FAMILIES",
    "PROFILES",
    "RETRIEVAL_RULES",
    "Family",
    "RetrievalRules",
    "RulePack",
    "Stage",
    "combined",
    "retrieval_rules",
    "rule_pack",
    "table",
]
