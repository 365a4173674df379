"""Adding web pages from the Documents page: a crawl of a local site (127.0.0.1, with the
server's guard relaxed by its setting) lists each page's outcome and adds the pages, which
then answer a question; a server with the default guard refuses the loopback address."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser.actions import ask, login
from browser.conftest import Server, serve
from browser.test_llm_fallback_notice import upload_and_wait
from format_files import eml, message
from static_site import serving

pytestmark = [pytest.mark.browser, pytest.mark.integration]

PAGES = {
    "/robots.txt": b"User-agent: *\nDisallow: /private/\n",
    "/": b"<html><head><title>Lighthouse</title></head><body><h1>Lighthouse</h1>"
    b'<p>The keeper logs the weather twice a day.</p><a href="/lamp">Lamp</a> '
    b'<a href="/private/keys">Keys</a></body></html>',
    "/lamp": b"<html><head><title>Lamp</title></head><body><h1>Lamp</h1>"
    b"<p>The lighthouse lamp is lit at dusk and put out at dawn.</p></body></html>",
    "/private/keys": b"<html><body><p>The spare key is under the mat.</p></body></html>",
}


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    kinds = {path: "text/plain" if path.endswith(".txt") else "text/html" for path in PAGES}
    with serving({path: (kinds[path], body) for path, body in PAGES.items()}) as base:
        yield base


@pytest.fixture(scope="module")
def intranet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose operator allows private addresses (an intranet's pages)."""
    data = tmp_path_factory.mktemp("intranet") / "data"
    with serve(data, ("alice",), CITEWISE_WEB_ALLOW_PRIVATE="true") as started:
        yield started


def _add(page: Any, url: str, *, crawl: bool) -> Any:
    page.get_by_role("link", name="Documents").click()
    page.get_by_label("Web page or sitemap").fill(url)
    if crawl:
        page.get_by_label("Follow links on the same site").check()
        page.get_by_label("at most").fill("5")
    page.get_by_role("button", name="Add", exact=True).click()
    results = page.get_by_role("list", name="Fetched pages")
    results.wait_for(timeout=60_000)
    return results


def test_a_crawl_adds_the_site_pages_and_they_answer(
    browser: Any, intranet: Server, site: str, tmp_path: Path
) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 860})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        login(page, intranet, "alice")
        results = _add(page, site + "/", crawl=True)
        host = site.removeprefix("http://").replace(":", "_")
        refused = results.locator(f'li[data-name="{site}/private/keys"]')
        assert "robots.txt disallows it" in refused.inner_text()
        table = page.locator("table.doc-table")
        table.locator("td.name", has_text="lamp.html").wait_for(timeout=60_000)
        sources = table.locator("tr[data-source]").evaluate_all(
            "rows => rows.map(r => r.dataset.source)"
        )
        pages = sorted(s for s in sources if s.startswith(host))  # the site's, not other tests'
        assert pages == [f"{host}/index.html", f"{host}/lamp.html"]
        page.get_by_role("link", name="Chat").click()
        answer = ask(page, "When is the lighthouse lamp lit?")
        assert "dusk" in answer.inner_text()
        page.screenshot(path=str(tmp_path / "web-pages.png"))
    finally:
        context.close()
    assert not errors, errors


def test_the_default_guard_refuses_a_loopback_address(page: Any, server: Server, site: str) -> None:
    login(page, server, "bob")
    results = _add(page, site + "/lamp", crawl=False)
    text = results.inner_text()
    assert "failed" in text and "loopback" in text
    assert page.locator("table.doc-table td.name", has_text="lamp").count() == 0


def test_an_attachment_is_cited_beside_its_message(
    browser: Any, intranet: Server, tmp_path: Path
) -> None:
    notes = b"Notes\n\nThe quay wall needs new galvanised bolts.\n"
    path = eml(tmp_path / "repairs.eml", message(
        "Dock repairs", "The crane on pier 4 is fixed.",
        attachments=[("notes.txt", notes, "text/plain")],
    ))  # fmt: skip
    upload_and_wait(intranet, path)
    context = browser.new_context(viewport={"width": 1366, "height": 860})
    page = context.new_page()
    try:
        login(page, intranet, "alice")
        answer = ask(page, "What does the quay wall need?")
        assert "bolts" in answer.inner_text()
        sources = page.get_by_role("list", name="Sources").last.inner_text()
        assert "repairs.eml › notes.txt" in sources
        assert "› notes.txt >" not in sources and "— Dock repairs" in sources
    finally:
        context.close()
