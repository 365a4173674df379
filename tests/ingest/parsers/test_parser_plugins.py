"""Parsers from the `citewise.parsers` entry points: a `ParserPlugin`'s extensions route
files to it, built-in extensions stay built-in, a malformed plugin names its distribution."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from citewise.errors import PluginError
from citewise.ingest.parsers import Parser
from citewise.ingest.parsers.plugins import PluginFormats
from citewise.registry import Registry, installed_entry_points
from plugin_dists import write_dist

GROUP = "citewise.test_parsers"
SRC = Path(__file__).resolve().parents[3] / "src"
MODULE = """
from citewise.ingest.parsers.plugins import ParserPlugin
from citewise.types import Block, ParsedDocument

def parse(data, name, **options):
    return ParsedDocument("t", (Block(data.decode()),), "fake")

GOOD = ParserPlugin(parse, (".fake", ".md"), ("text/x-fake",))
NO_EXTENSIONS = ParserPlugin(parse, ())
BAD_EXTENSION = ParserPlugin(parse, ("FAKE",))
NOT_A_PLUGIN = parse
"""


@pytest.fixture
def install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., None]]:
    monkeypatch.syspath_prepend(str(tmp_path))

    def add(module: str, entries: dict[str, str]) -> None:
        write_dist(tmp_path, "citewise-fake", {GROUP: entries}, {f"{module}.py": MODULE}, "2.0")
        installed_entry_points.cache_clear()

    yield add
    installed_entry_points.cache_clear()


def _formats() -> tuple[Registry[Parser], PluginFormats]:
    parsers = Registry[Parser]("parser")
    return parsers, PluginFormats(parsers, GROUP)


def test_a_plugin_parser_is_found_by_its_extensions(install: Callable[..., None]) -> None:
    install("fake_a", {"fake": "fake_a:GOOD"})
    parsers, formats = _formats()
    assert formats.format_for(".FAKE") == "fake"
    assert formats.format_for(".org") is None
    assert formats.extensions() == {".fake", ".md"}
    assert parsers.get("fake")(b"some text", "a.fake").blocks[0].text == "some text"


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("fake_b:NO_EXTENSIONS", "is malformed: it declares no extensions"),
        ("fake_b:BAD_EXTENSION", "is malformed: bad extension 'FAKE'"),
        ("fake_b:NOT_A_PLUGIN", "is not a ParserPlugin"),
        ("fake_b:MISSING", "failed to load: AttributeError"),
    ],
)
def test_a_malformed_plugin_names_its_distribution(
    install: Callable[..., None], value: str, problem: str
) -> None:
    install("fake_b", {"fake": value})
    _, formats = _formats()
    with pytest.raises(PluginError) as raised:
        formats.format_for(".fake")
    assert problem in str(raised.value) and "from citewise-fake 2.0" in str(raised.value)


def test_built_in_extensions_stay_with_the_built_in_parsers(tmp_path: Path) -> None:
    """In a fresh process with the plugin installed under the real group."""
    write_dist(tmp_path, "citewise-fake", {"citewise.parsers": {"fake": "fake_c:GOOD"}},
               {"fake_c.py": MODULE})  # fmt: skip
    script = (
        "from pathlib import Path\n"
        "from citewise.ingest.parsers import choose_parser, is_supported, parse_bytes\n"
        "print(choose_parser(b'# Title', 'a.md'), choose_parser(b'\\x00\\x01', 'b.fake'))\n"
        "print(is_supported(Path('c.fake')), is_supported(Path('d.org')))\n"
        "print(parse_bytes(b'plugin text', 'e.fake').format)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        env={"PYTHONPATH": f"{tmp_path}:{SRC}", "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["markdown fake", "True False", "fake"]


def test_ingest_names_a_broken_parser_plugin(tmp_path: Path) -> None:
    write_dist(tmp_path / "site", "citewise-org-broken", {"citewise.parsers": {"org": "ob:P"}},
               {"ob.py": "import orgparse_not_installed\n"}, "0.3")  # fmt: skip
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "notes.md").write_text("# Notes\n\nSome text.\n")
    env = {
        "PYTHONPATH": f"{tmp_path / 'site'}:{SRC}",
        "PATH": "/usr/bin:/bin",
        "CITEWISE_DATA_DIR": str(tmp_path / "data"),
        "CITEWISE_EMBEDDER": "hashing",
    }
    done = subprocess.run(
        [Path(sys.executable).with_name("citewise"), "ingest", tmp_path / "docs"],
        env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    out = " ".join((done.stdout + done.stderr).split())
    assert done.returncode == 2, out
    assert "the parser plugin 'org'" in out and "fix or uninstall citewise-org-broken" in out
    assert "No module named 'orgparse_not_installed'" in out and "Traceback" not in out
