"""The graph panel's ego view for a document with more than fifty neighbours (fourteen linked
documents, forty names): capped, coloured by kind with a legend that filters, labels that do not
overlap, at desktop and phone widths. Screenshots: tests/artifacts/screenshots/graph-ego-*.png."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from browser.actions import ask, login
from browser.conftest import SCREENSHOTS, Server, serve

pytestmark = [pytest.mark.browser, pytest.mark.integration]

PARTS = [
    f"{a} {b} {c}"
    for a in ("Amber", "Birch", "Cobalt", "Delta", "Ember")
    for b in ("Relay", "Valve", "Sensor", "Gauge")
    for c in ("Module", "Unit")
]  # forty names


def hub_corpus() -> dict[str, str]:
    lines = ["# Plant Hub Manual", "", "## Parts", ""]
    for i, part in enumerate(PARTS):
        other = PARTS[(i + 1) % len(PARTS)]
        lines.append(f"The Plant Hub uses the {part}. The {part} depends on the {other}.")
        lines.append(f"Operators check the {part} daily beside the Plant Hub.")
    docs = {"plant-hub.md": "\n".join(lines) + "\n"}
    for j in range(14):
        a, b = PARTS[j], PARTS[j + 20]
        docs[f"note-{j:02d}.md"] = (
            f"# Note {j}\n\nSee plant-hub.md for the Plant Hub. The {a} and the {b} were "
            f"serviced; the {a} uses the {b}.\n"
        )
    return docs


def upload(server: Server, docs: dict[str, str]) -> None:
    headers = {"Authorization": f"Bearer {server.token('gina')}"}
    files = [("files", (n, t.encode(), "text/markdown")) for n, t in docs.items()]
    httpx.post(f"{server.url}/documents", headers=headers, files=files).raise_for_status()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        listed = httpx.get(f"{server.url}/documents", headers=headers).json()["documents"]
        ready = {d["source"] for d in listed if d["status"] == "ready"}
        if set(docs) <= ready:
            return
        time.sleep(0.3)
    raise AssertionError("documents not ready")


@pytest.fixture(scope="module")
def hub_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of its own: gina's collection holds the busy corpus and nothing else."""
    with serve(tmp_path_factory.mktemp("graph-ego") / "data", users=("gina",)) as started:
        upload(started, hub_corpus())
        yield started


def overlaps(boxes: list[list[float]]) -> list[tuple[int, int]]:
    def hit(a: list[float], b: list[float]) -> bool:
        return a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1

    return [
        (i, j)
        for i in range(len(boxes))
        for j in range(i + 1, len(boxes))
        if hit(boxes[i], boxes[j])
    ]


def open_hub_graph(page: Any, server: Server) -> Any:
    login(page, server, "gina")
    answer = ask(page, "What does the Plant Hub use?")
    answer.locator("ol.sources li", has_text="plant-hub.md").first.locator(
        "button.graph-link"
    ).click()
    panel = page.get_by_role("complementary", name="Knowledge graph")
    panel.locator(".graph-canvas[data-nodes]").wait_for(timeout=30_000)
    return panel


@pytest.mark.parametrize(("width", "height", "name"), [(1366, 860, "desktop"), (390, 844, "phone")])
def test_a_busy_documents_ego_view_is_capped_legible_and_filterable(
    browser: Any, hub_server: Server, width: int, height: int, name: str
) -> None:
    server = hub_server
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        panel = open_hub_graph(page, server)
        canvas = panel.locator(".graph-canvas[data-nodes]")
        shown = int(canvas.get_attribute("data-nodes"))
        assert 12 <= shown <= 25  # the centre and at most 24 of its 54 neighbours
        assert "more not shown" in panel.inner_text()
        boxes = json.loads(canvas.get_attribute("data-boxes"))
        assert overlaps(boxes) == []
        legend = panel.get_by_role("list", name="Kinds shown")
        assert legend.get_by_text("document").count() and legend.get_by_text("name").count()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"graph-ego-{name}.png"), full_page=False)
        legend.get_by_label("document").uncheck()  # filter a kind out: fewer nodes, redrawn
        page.wait_for_function(
            f"() => Number(document.querySelector('.graph-canvas').dataset.nodes) < {shown}"
        )
        panel.get_by_role("button", name="Amber Relay Module").click()  # centre on a name
        panel.get_by_role("region", name="Entity Amber Relay Module").wait_for()
        assert "depends on" in panel.inner_text()
    finally:
        context.close()
    assert errors == []
