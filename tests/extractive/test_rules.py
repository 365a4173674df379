from __future__ import annotations

import pytest

from citewise.config import load_settings
from citewise.errors import ConfigError
from citewise.extractive.rules import PROFILES, rule_pack


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
