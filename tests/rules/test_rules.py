from __future__ import annotations

from pathlib import Path

import pytest

from citewise.config import load_settings
from citewise.errors import ConfigError
from citewise.rules import FAMILIES, PROFILES, Stage, rule_pack, table


def test_the_default_profile_switches_every_genre_rule_off() -> None:
    assert rule_pack(None).switches == ()
    assert rule_pack(load_settings().profile).switches == ()


def test_profiles_joined_with_plus_switch_on_what_each_does() -> None:
    both = rule_pack("api_reference+cli_options")
    assert set(both.switches) == set(PROFILES["software_docs"].switches)
    assert both.option_items and both.entry_headings


def test_an_unknown_profile_names_the_valid_ones() -> None:
    with pytest.raises(ConfigError, match="general"):
        rule_pack("sphinx")


def test_every_switch_declares_the_stages_it_changes() -> None:
    switches = set(rule_pack("+".join(PROFILES)).switches)
    assert switches == set(FAMILIES)
    assert all(family.stages and family.description for family in FAMILIES.values())
    assert rule_pack("financial_reports").stages == (Stage.RETRIEVAL,)
    assert rule_pack(None).stages == ()


def test_the_docs_table_is_the_packs_own() -> None:
    doc = Path(__file__).parents[2] / "docs" / "rules.md"
    assert table() in doc.read_text(encoding="utf-8")
