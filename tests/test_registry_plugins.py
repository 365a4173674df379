"""Registries filled from entry points: added at the first lookup, built-ins first, a
plugin's factory imported at its first call, a broken plugin named by its distribution."""

from __future__ import annotations

import logging
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from citewise.errors import PluginError
from citewise.registry import FactoryRegistry, Registry, installed_entry_points
from plugin_dists import write_dist

GROUP = "citewise.test_shapes"
SRC = Path(__file__).resolve().parents[1] / "src"

SHAPES = """
def triangle(n):
    return "△" * n

def square(n):
    return "plugin square"

NOT_A_FACTORY = 3
"""


@pytest.fixture
def install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., None]]:
    """Installs a fake distribution for this test only (sys.path and the entry point cache)."""
    monkeypatch.syspath_prepend(str(tmp_path))

    def add(name: str, entries: dict[str, str], modules: dict[str, str] | None = None) -> None:
        write_dist(tmp_path, name, {GROUP: entries}, modules or {}, version="1.2")
        installed_entry_points.cache_clear()

    yield add
    installed_entry_points.cache_clear()


def _shapes() -> FactoryRegistry[[int], str]:
    shapes = FactoryRegistry[[int], str]("shape", [("square", lambda n: "□" * n)])
    shapes.accept_plugins(GROUP)
    return shapes


def test_a_plugin_factory_is_added_and_imported_at_its_first_call(
    install: Callable[..., None],
) -> None:
    install("shapes-plugin", {"triangle": "shapes_a:triangle"}, {"shapes_a.py": SHAPES})
    shapes = _shapes()
    assert shapes.names() == ["square", "triangle"]
    assert "shapes_a" not in sys.modules  # listing the names imports nothing
    assert shapes.create("triangle", 3) == "△△△"
    plugin = shapes.plugin("triangle")
    assert plugin is not None and plugin.distribution == "shapes-plugin 1.2"
    assert shapes.plugin("square") is None


def test_a_built_in_name_wins(
    install: Callable[..., None], caplog: pytest.LogCaptureFixture
) -> None:
    install("shapes-plugin", {"square": "shapes_b:square"}, {"shapes_b.py": SHAPES})
    with caplog.at_level(logging.WARNING, "citewise.plugins"):
        assert _shapes().create("square", 2) == "□□"
    assert "'square' from shapes-plugin 1.2 is ignored: a built-in has that name" in caplog.text


def test_of_two_plugins_with_one_name_the_first_distribution_wins(
    install: Callable[..., None], caplog: pytest.LogCaptureFixture
) -> None:
    install("shapes-b", {"tri": "shapes_h:square"}, {"shapes_h.py": SHAPES})
    install("shapes-a", {"tri": "shapes_h:triangle"})
    with caplog.at_level(logging.WARNING, "citewise.plugins"):
        assert _shapes().create("tri", 1) == "△"
    assert "'tri' from shapes-b 1.2 is ignored: the plugin from shapes-a 1.2" in caplog.text


def test_a_plugin_that_fails_to_import_names_its_distribution(
    install: Callable[..., None],
) -> None:
    broken = {"shapes_c.py": "import no_such_module_anywhere\n"}
    install("shapes-broken", {"hexagon": "shapes_c:hexagon"}, broken)
    shapes = _shapes()
    assert shapes.create("square", 1) == "□"  # the others still work
    with pytest.raises(PluginError) as raised:
        shapes.create("hexagon", 1)
    message = str(raised.value)
    assert "the shape plugin 'hexagon'" in message and "from shapes-broken 1.2" in message
    assert "ModuleNotFoundError" in message and "uninstall shapes-broken" in message
    assert raised.value.distribution == "shapes-broken 1.2" and raised.value.group == GROUP


def test_a_plugin_that_is_not_a_factory_is_refused(install: Callable[..., None]) -> None:
    install("shapes-plugin", {"three": "shapes_d:NOT_A_FACTORY"}, {"shapes_d.py": SHAPES})
    with pytest.raises(PluginError, match="is not a factory"):
        _shapes().create("three", 1)


def test_an_eager_registry_reports_a_broken_plugin_at_every_lookup(
    install: Callable[..., None],
) -> None:
    install("packs-broken", {"legal": "packs_e:MISSING"}, {"packs_e.py": "PACK = 1\n"})
    packs = Registry[int]("profile", [("general", 0)])
    packs.accept_plugins(GROUP)
    for _ in range(2):
        with pytest.raises(PluginError, match=r"from packs-broken 1\.2 failed to load"):
            packs.get("general")


def test_an_eager_registry_adds_the_loaded_objects(install: Callable[..., None]) -> None:
    install("packs", {"legal": "packs_f:PACK"}, {"packs_f.py": "PACK = 7\n"})
    packs = Registry[int]("profile", [("general", 0)])
    packs.accept_plugins(GROUP)
    assert dict((name, packs[name]) for name in packs) == {"general": 0, "legal": 7}


def test_a_closed_registry_reads_no_entry_points(install: Callable[..., None]) -> None:
    install("shapes-plugin", {"triangle": "shapes_g:triangle"}, {"shapes_g.py": SHAPES})
    closed = FactoryRegistry[[int], str]("shape", [("square", lambda n: "□" * n)])
    assert closed.names() == ["square"]


def test_stores_embedders_and_llms_come_from_their_groups(tmp_path: Path) -> None:
    """In a fresh process, as a user would install a plugin: `CITEWISE_STORE=memo://…`
    style names reach the plugin's factory with the documented arguments."""
    module = "def factory(*args):\n    return ('made', args)\n"
    write_dist(
        tmp_path,
        "citewise-everything",
        {
            "citewise.stores": {"memo": "everything:factory"},
            "citewise.embedders": {"tiny": "everything:factory"},
            "citewise.llms": {"echo": "everything:factory"},
            "citewise.rerankers": {"flip": "everything:factory"},
        },
        {"everything.py": module},
    )
    script = (
        "from citewise.store.registry import open_store\n"
        "from citewise.embed.registry import create_embedder\n"
        "from citewise.llm.registry import create_llm\n"
        "from citewise.retrieve.rerank import create_reranker\n"
        "print(open_store('memo://here', pool_size=2))\n"
        "print(create_embedder('tiny:v1', threads=2))\n"
        "print(create_llm('echo:m', base_url='http://x'))\n"
        "print(create_reranker('flip:on', embedder_factory=None)[1][0].spec)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        env={"PYTHONPATH": f"{tmp_path}:{SRC}", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "('made', ('memo://here', 2))",
        "('made', ('tiny:v1', 'v1', {'threads': 2}))",
        "('made', ('m', 'http://x', None, None, None))",
        "flip:on",
    ]
