"""Which files an upload accepts: every extension a parser reads, a plugin's included, and
the UI's file picker and the CLI's "nothing to ingest" hint offer the same list."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

import citewise.ingest.parsers as parsers
from citewise.api.uploads import check_type
from citewise.cli.ingest import no_files_hint
from citewise.errors import UnsupportedFormatError
from citewise.ingest.parsers.plugins import PluginFormats
from citewise.registry import Registry, installed_entry_points
from plugin_dists import write_dist

GROUP = "citewise.test_upload_parsers"
MODULE = """
from citewise.ingest.parsers.plugins import ParserPlugin
from citewise.types import Block, ParsedDocument

def parse(data, name, **options):
    return ParsedDocument("t", (Block(data.decode()),), "org")

ORG = ParserPlugin(parse, (".org",), ("text/x-org",))
"""


@pytest.fixture
def org_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """An installed plugin that reads `.org` files, as the parsers' plugin formats."""
    root = tmp_path / "site"
    write_dist(root, "citewise-org", {GROUP: {"org": "org_plugin:ORG"}}, {"org_plugin.py": MODULE})
    monkeypatch.syspath_prepend(str(root))
    installed_entry_points.cache_clear()
    monkeypatch.setattr(parsers, "PLUGIN_FORMATS", PluginFormats(Registry("parser"), GROUP))
    yield
    installed_entry_points.cache_clear()


def _file(tmp_path: Path, name: str, data: bytes) -> tuple[str, bytes, Path]:
    path = tmp_path / name
    path.write_bytes(data)
    return name, data, path


def test_an_upload_a_plugin_parser_reads_is_accepted(tmp_path: Path, org_plugin: None) -> None:
    check_type(*_file(tmp_path, "notes.org", b"* Tasks\nMend the nets.\n"))
    assert ".org" in parsers.supported_extensions()
    with pytest.raises(UnsupportedFormatError, match=r"unsupported file type \.exe.*\.org"):
        check_type(*_file(tmp_path, "tool.exe", b"MZ\x90\x00"))


def test_the_cli_hint_for_a_folder_without_files_names_a_plugins_extension(
    tmp_path: Path, org_plugin: None
) -> None:
    hint = no_files_hint([tmp_path])
    assert ".org" in hint.split("citewise reads ")[1].split()
    assert ".xlsx" in hint and ".mbox" in hint


def test_without_the_plugin_its_extension_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UnsupportedFormatError, match=r"unsupported file type \.org"):
        check_type(*_file(tmp_path, "notes.org", b"* Tasks\n"))


def test_new_formats_are_accepted_by_their_content(tmp_path: Path) -> None:
    check_type(
        *_file(tmp_path, "box.mbox", b"From a@b Mon Mar  2 09:15:00 2026\nSubject: x\n\nHi\n")
    )
    with pytest.raises(UnsupportedFormatError, match="not an Outlook message"):
        check_type(*_file(tmp_path, "mail.msg", b"plain words, not a message\n"))


def test_a_web_address_is_checked(client: httpx.Client) -> None:
    r = client.post("/documents/web", json={"url": "ftp://files.example/report.pdf"})
    assert r.status_code == 400 and "not a web address" in r.json()["error"]
    assert client.get("/ui-api/config").json()["web_max_pages"] == 50
