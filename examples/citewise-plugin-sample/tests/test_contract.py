"""The plugin passes citewise's parser contract, and its entry point is installed."""

from __future__ import annotations

from pathlib import Path

import pytest
from citewise.ingest.parsers.plugins import ParserPlugin
from citewise.testing.parser_contract import InstalledParserTests, ParserContractTests, Sample

from citewise_plugin_sample import PARSER

SAMPLES = Path(__file__).parent / "samples"
ENCRYPTED = b"""#+TITLE: Secrets
* Keys                                                              :crypt:
-----BEGIN PGP MESSAGE-----

hQEMA5xQc2FtcGxlAQf/c2VjcmV0
-----END PGP MESSAGE-----
"""


class TestOrgParser(ParserContractTests, InstalledParserTests):
    @pytest.fixture
    def parser(self) -> ParserPlugin:
        return PARSER

    @pytest.fixture
    def format_name(self) -> str:
        return "org"

    @pytest.fixture
    def sample(self) -> Sample:
        return Sample(
            (SAMPLES / "handbook.org").read_bytes(),
            "handbook.org",
            phrases=(
                "each snapshot is kept for 21 days in the second region",
                "Role: operator; Token lifetime: 30 days",
                "harbor keys rotate --quarter",
            ),
            sections=("Backups", "Restores", "Tokens", "Key rotation"),
            title="Harbor operations handbook",
        )

    @pytest.fixture
    def encrypted(self) -> bytes:
        return ENCRYPTED


def test_comment_subtrees_drawers_and_encrypted_entries_are_left_out() -> None:
    doc = PARSER((SAMPLES / "handbook.org").read_bytes(), "handbook.org")
    text = " ".join(b.text for b in doc.blocks)
    assert "draft" not in text and "OWNER" not in text and "PGP" not in text
    assert "SCHEDULED" not in text and "check the figure" not in text
    assert all(
        "Drafts" not in b.heading_path and "Secrets" not in b.heading_path for b in doc.blocks
    )


def test_a_latin1_file_with_a_coding_cookie_is_decoded() -> None:
    data = "# -*- coding: latin-1 -*-\n* Café\nLe menu du café.\n".encode("latin-1")
    doc = PARSER(data, "menu.org")
    assert doc.blocks[0].heading_path == ("Café",) and doc.blocks[0].text == "Le menu du café."
