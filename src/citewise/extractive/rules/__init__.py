"""Rule packs: what the extractive answerer and retrieval know about one genre of document.

The general core works on any document. A pack switches on the rules written for one genre
(API reference pages, command-line manuals, financial reports); a profile names the packs in use
(`CITEWISE_PROFILE`, default "general"). `rule_pack(profile)` is the registry. The rules
themselves live here beside the packs that switch them: `entry_headings` (reference entries
named by their heading), `option_items` (command-line options as list items),
`version_notes` ("Changed in version …").
"""

from __future__ import annotations

from citewise.errors import ConfigError
from citewise.extractive.rules.base import RulePack, combined
from citewise.extractive.rules.packs import API_REFERENCE, CLI_OPTIONS, FINANCIAL_REPORTS, GENERAL
from citewise.registry import Registry

DEFAULT_PROFILE = "general"

PROFILES = Registry[RulePack](
    "profile",
    [
        ("general", GENERAL),
        ("api_reference", API_REFERENCE),
        ("cli_options", CLI_OPTIONS),
        # software documentation: reference entries and command-line manuals together
        ("software_docs", combined("software_docs", API_REFERENCE, CLI_OPTIONS)),
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


__all__ = ["DEFAULT_PROFILE", "PROFILES", "RulePack", "combined", "rule_pack"]
