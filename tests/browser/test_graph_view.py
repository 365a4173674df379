"""The knowledge graph in the web UI against a real `citewise serve`: from an answer's source
to the document's neighbourhood, an entity's card, and on to another document.
Screenshot: tests/artifacts/screenshots/graph-view.png."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from browser.actions import ask, login
from browser.conftest import SCREENSHOTS, Server
from graph.linked_corpus import LINKED_CORPUS

pytestmark = [pytest.mark.browser, pytest.mark.integration]


def upload_linked_corpus(server: Server) -> None:
    headers = {"Authorization": f"Bearer {server.token('gina')}"}
    files = [
        ("files", (name, text.encode(), "text/markdown")) for name, text in LINKED_CORPUS.items()
    ]
    httpx.post(f"{server.url}/documents", headers=headers, files=files).raise_for_status()
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        listed = httpx.get(f"{server.url}/documents", headers=headers).json()["documents"]
        if sum(d["status"] == "ready" for d in listed) == len(LINKED_CORPUS):
            return
        time.sleep(0.3)
    raise AssertionError(f"documents not ready: {listed}")


def test_an_answers_source_opens_its_graph_and_an_entity_card_leads_on(
    page: Any, server: Server, tmp_path: Path
) -> None:
    upload_linked_corpus(server)
    login(page, server, "gina")
    answer = ask(page, "How often is the Intake Filter replaced?")
    answer.locator("ol.sources li", has_text="pump-manual.md").locator("button.graph-link").click()
    panel = page.get_by_role("complementary", name="Knowledge graph")
    canvas = panel.locator(".graph-canvas[data-nodes]")
    canvas.wait_for(timeout=30_000)
    assert int(canvas.get_attribute("data-nodes")) >= 5  # 3 documents and the names
    assert panel.locator("canvas").count() > 0  # cytoscape drew it
    panel.get_by_role("button", name="Sensor Bus Interface").click()
    card = panel.get_by_role("region", name="Entity Sensor Bus Interface")
    card.wait_for()
    assert "SBI" in card.inner_text()
    assert "uses" in card.inner_text() and "Pump Controller" in card.inner_text()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "graph-view.png"))
    card.get_by_role("button", name="valve-notes.md").click()
    panel.get_by_role("heading", name="Graph: valve-notes.md").wait_for()
    panel.locator(".graph-canvas[data-nodes]").wait_for(timeout=30_000)
