"""The web UI's layout and viewer at a desktop (1280x800) and a phone (390x844) size: a
citation in another PDF switches the viewer's document; opening a PDF never scrolls the
window; a long history keeps the composer in view (its own scrolling sidebar, a search box,
lazy loading and a menu per conversation); every line of a multi-line quote is marked;
citation tooltips stay in view; file names wrap between words; an empty own collection
says where the answers come from. Screenshots: tests/artifacts/screenshots/."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from browser.actions import ask, highlight_overlaps_words, login
from browser.conftest import SCREENSHOTS, Server
from browser.documents import (
    EGRET_QUOTE_WORDS,
    LONG_NAME,
    egret_pdf,
    heron_pdf,
    long_named_notes,
    osprey_notes,
)

pytestmark = [pytest.mark.browser, pytest.mark.integration]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
HERON_QUESTION = "How many days do grey heron eggs take to hatch?"
EGRET_QUESTION = "Why were the plumes of the little egret once prized by milliners?"


def _upload(server: Server, user: str, paths: list[Path], collection: str | None = None) -> None:
    """`paths` into the user's collection (or `collection`), waited for until ready."""
    headers = {"Authorization": f"Bearer {server.token(user)}"}
    query = {"collection": collection} if collection else {}
    listed = httpx.get(f"{server.url}/documents", headers=headers, params=query).json()
    have = {d["source"] for d in listed["documents"] if d["status"] == "ready"}
    for path in paths:
        if path.name not in have:
            with path.open("rb") as fh:
                httpx.post(f"{server.url}/documents", headers=headers, params=query,
                           files={"files": (path.name, fh)}).raise_for_status()  # fmt: skip
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        listed = httpx.get(f"{server.url}/documents", headers=headers, params=query).json()
        ready = {d["source"] for d in listed["documents"] if d["status"] == "ready"}
        if {p.name for p in paths} <= ready:
            return
        time.sleep(0.3)
    raise AssertionError(f"documents not ready: {listed}")


def _history(server: Server, user: str, conversations: int) -> None:
    """At least `conversations` conversations of `user`, made through the API."""
    headers = {"Authorization": f"Bearer {server.token(user)}"}
    have = len(httpx.get(f"{server.url}/sessions", headers=headers).json())
    for i in range(have, conversations):
        body = {"message": f"Question number {i} about wading birds"}
        httpx.post(f"{server.url}/chat/", headers=headers, json=body).raise_for_status()


def _dave_documents(server: Server, tmp: Path) -> None:
    _upload(server, "dave", [heron_pdf(tmp / "herons.pdf"), egret_pdf(tmp / "egrets.pdf"),
                             long_named_notes(tmp)])  # fmt: skip


@pytest.fixture
def sized(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A page maker at a given viewport; each page's console, uncaught errors and a
    screenshot are kept, and no page may raise."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(viewport: dict[str, int]) -> Any:
        context = browser.new_context(viewport=viewport)
        contexts.append(context)
        page = context.new_page()
        page.console = []
        page.on("console", lambda m: page.console.append(m.text))
        page.on("pageerror", lambda e: errors.append(str(e)))
        return page

    yield make
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for context in contexts:
        for page in context.pages:
            size = f"{page.viewport_size['width']}x{page.viewport_size['height']}"
            page.screenshot(path=str(SCREENSHOTS / f"{request.node.name}-{size}.png"))
        context.close()
    assert not errors, f"uncaught errors in the page: {errors}"


def _open_source(page: Any, answer: Any, name: str) -> None:
    answer.locator("ol.sources button", has_text=name).first.click()
    page.locator(".source-panel .pdfViewer .textLayer span").first.wait_for(timeout=30_000)


def _viewer_text(page: Any) -> str:
    return str(page.evaluate(
        "() => [...document.querySelectorAll('.source-panel .pdfViewer .textLayer')]"
        ".map(t => t.textContent).join(' ')"
    ))  # fmt: skip


def test_a_citation_in_another_pdf_switches_the_viewer_to_that_document(
    sized: Any, server: Server, tmp_path: Path
) -> None:
    _dave_documents(server, tmp_path)
    page = sized(DESKTOP)
    login(page, server, "dave")
    heron = ask(page, HERON_QUESTION)
    _open_source(page, heron, "herons.pdf")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.source-panel .textLayer')]"
        ".some(t => t.textContent.includes('twenty-five'))", timeout=30_000
    )  # fmt: skip
    egret = ask(page, EGRET_QUESTION)
    _open_source(page, egret, "egrets.pdf")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.source-panel .textLayer')]"
        ".some(t => t.textContent.includes('milliners'))", timeout=30_000
    )  # fmt: skip
    assert "heron" not in _viewer_text(page).lower()
    assert page.locator(".source-panel .pdfViewer .page").count() == 2  # egrets.pdf's pages
    assert "egrets.pdf" in page.locator(".source-panel h2").inner_text()


def test_opening_a_pdf_citation_scrolls_inside_the_viewer_and_never_the_window(
    sized: Any, server: Server, tmp_path: Path
) -> None:
    _dave_documents(server, tmp_path)
    _history(server, "dave", 30)  # a day of use: the sidebar is longer than the window
    page = sized(DESKTOP)
    login(page, server, "dave")
    answer = ask(page, HERON_QUESTION)
    _open_source(page, answer, "herons.pdf")
    page.locator(".pdfViewer .page[data-page-number='2'] .cw-highlight").first.wait_for()
    page.wait_for_timeout(500)  # a late scroll would move the window now
    assert page.evaluate("document.scrollingElement.scrollTop") == 0
    assert page.evaluate("window.scrollY") == 0
    header = page.locator("header.top").bounding_box()
    assert header is not None and header["y"] >= 0
    shown = answer.bounding_box()
    assert shown is not None and 0 <= shown["y"] < DESKTOP["height"]
    scrolled = page.evaluate("document.querySelector('.pdf-container').scrollTop")
    assert scrolled > 0  # page 2 is reached inside the viewer's own panel
    mark = page.locator(".cw-highlight").first.bounding_box()
    assert mark is not None and 0 <= mark["y"] <= DESKTOP["height"] - mark["height"]
    assert not [m for m in page.console if "offsetParent is not set" in m]


def test_a_long_history_keeps_the_composer_in_view_with_search_lazy_loading_and_menus(
    sized: Any, server: Server, tmp_path: Path
) -> None:
    _upload(server, "frank", [osprey_notes(tmp_path / "ospreys.md")])
    _history(server, "frank", 40)
    page = sized(DESKTOP)
    login(page, server, "frank")
    page.locator(".sessions li").nth(19).wait_for()
    assert page.evaluate("document.documentElement.scrollHeight") <= DESKTOP["height"]
    composer = page.get_by_label("Your question").bounding_box()
    assert composer is not None and composer["y"] + composer["height"] <= DESKTOP["height"]
    items = page.locator(".sessions li.session")
    shown = items.count()
    assert 0 < shown < 40  # the rest is loaded on scrolling
    page.locator(".sessions .list").evaluate("el => { el.scrollTop = el.scrollHeight; }")
    page.wait_for_function("() => document.querySelectorAll('.sessions li.session').length > "
                           f"{shown}")  # fmt: skip
    assert page.evaluate("document.documentElement.scrollHeight") <= DESKTOP["height"]
    # the actions are in a menu: no item shows Rename or Delete until its menu is opened
    assert page.get_by_role("button", name="Rename").count() == 0
    assert page.get_by_role("menuitem", name="Delete").count() == 0
    page.get_by_label("Search conversations").fill("number 7 about")
    page.wait_for_function("() => document.querySelectorAll('.sessions li.session').length === 1")
    assert "Question number 7" in items.first.inner_text()
    items.first.get_by_role("button", name="Actions").click()
    assert page.get_by_role("menuitem", name="Rename").is_visible()
    assert page.get_by_role("menuitem", name="Delete").is_visible()
    page.keyboard.press("Escape")
    assert page.get_by_role("menuitem", name="Rename").count() == 0
    page.get_by_label("Search conversations").fill("")
    phone = sized(PHONE)
    login(phone, server, "frank")
    phone.get_by_role("button", name="☰ Conversations").click()
    phone.locator(".sessions li.session").first.wait_for()
    assert phone.evaluate("document.documentElement.scrollHeight") <= PHONE["height"]


def test_every_line_of_a_multi_line_quote_is_marked(
    sized: Any, server: Server, tmp_path: Path
) -> None:
    _dave_documents(server, tmp_path)
    page = sized(DESKTOP)
    login(page, server, "dave")
    answer = ask(page, EGRET_QUESTION)
    answer.locator("ol.sources button", has_text="egrets.pdf").first.click()
    page.locator(".pdfViewer .page[data-page-number='2'] .cw-highlight").first.wait_for()
    page.locator(".pdfViewer .page[data-page-number='2'] .textLayer span").first.wait_for()
    page.wait_for_timeout(300)
    assert highlight_overlaps_words(page, 2, EGRET_QUOTE_WORDS)
    assert not highlight_overlaps_words(page, 2, ["Today the species"])
    heights = page.evaluate(
        "() => [...document.querySelectorAll('.cw-highlight')].map(m => m.getBoundingClientRect())"
        ".map(r => [r.width, r.height])"
    )
    span = page.locator(".textLayer span", has_text="milliners").first.bounding_box()
    assert span is not None and len(heights) >= 3
    assert all(w > 200 and h >= 0.6 * span["height"] for w, h in heights), heights


def test_a_citation_tooltip_stays_in_view_below_the_header_and_beside_the_source_panel(
    sized: Any, server: Server, tmp_path: Path
) -> None:
    _dave_documents(server, tmp_path)
    page = sized(DESKTOP)
    login(page, server, "dave")
    answer = ask(page, HERON_QUESTION)
    _open_source(page, answer, "herons.pdf")
    page.locator(".turns").evaluate("el => { el.scrollTop = 0; }")
    marker = answer.locator("button.cite").first
    marker.hover()
    tip = page.locator("[role='tooltip']:visible").first
    tip.wait_for()
    box = tip.bounding_box()
    header = page.locator("header.top").bounding_box()
    panel = page.locator(".source-panel").bounding_box()
    assert box is not None and header is not None and panel is not None
    assert box["y"] >= header["y"] + header["height"] - 1, (box, header)
    assert box["x"] >= 0 and box["y"] + box["height"] <= DESKTOP["height"]
    assert box["x"] + box["width"] <= panel["x"] + 1, (box, panel)
    # nothing covers it: the tip is what is on top at its corners
    covered = page.evaluate(
        """(b) => [[b.x + 4, b.y + 4], [b.x + b.width - 4, b.y + b.height - 4]].some(([x, y]) => {
             const el = document.elementFromPoint(x, y);
             return !el || !el.closest('[role="tooltip"]'); })""",
        box,
    )
    assert not covered
    phone = sized(PHONE)
    login(phone, server, "dave")
    answer = ask(phone, HERON_QUESTION)
    phone.locator(".turns").evaluate("el => { el.scrollTop = 0; }")
    answer.locator("button.cite").first.focus()
    tip = phone.locator("[role='tooltip']:visible").first
    tip.wait_for()
    box = tip.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


# Words of `name` (split at - _ . and spaces) that a line break cuts: a word whose
# characters lie on more than one line.
_CUT_WORDS_JS = """([selector, name]) => {
  const el = [...document.querySelectorAll(selector)].find(e => e.textContent.includes(name));
  if (!el) return ['not shown'];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  const chars = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode())
    for (let i = 0; i < n.data.length; i++) chars.push([n, i]);
  const text = chars.map(([n, i]) => n.data[i]).join('');
  const at = text.indexOf(name);
  const cut = [];
  let word = [];
  const flush = () => {
    const tops = new Set(word.map(([n, i]) => {
      const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
      return Math.round(r.getBoundingClientRect().top);
    }));
    if (tops.size > 1) cut.push(word.map(([n, i]) => n.data[i]).join(''));
    word = [];
  };
  for (let k = at; k < at + name.length; k++) {
    if (/[-_. ]/.test(text[k])) flush(); else word.push(chars[k]);
  }
  flush();
  return cut;
}"""


def test_file_names_wrap_between_words_on_a_phone(
    sized: Any, server: Server, tmp_path: Path
) -> None:
    _dave_documents(server, tmp_path)
    page = sized(PHONE)
    login(page, server, "dave")
    answer = ask(page, "How many nests did the heron conservation society count?")
    answer.locator("ol.sources button", has_text="annual_report").first.wait_for()
    assert page.evaluate(_CUT_WORDS_JS, ["ol.sources li", LONG_NAME]) == []
    page.get_by_role("link", name="Documents").click()
    page.locator(f"tr[data-source='{LONG_NAME}']").wait_for()
    assert page.evaluate(_CUT_WORDS_JS, ["table.doc-table td.name", LONG_NAME]) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_an_empty_own_collection_says_the_answers_come_from_the_shared_one(
    sized: Any, server: Server, tmp_path: Path
) -> None:
    _upload(server, "root", [osprey_notes(tmp_path / "ospreys.md")], collection="default")
    page = sized(DESKTOP)
    login(page, server, "erin")
    note = page.locator(".collection-note")
    note.wait_for()
    said = note.inner_text()
    assert "no documents" in said and "default" in said, said
    answer = ask(page, "How do ospreys carry a fish?")
    assert "ospreys.md" in answer.locator("ol.sources").inner_text()
    page.get_by_role("link", name="Documents").click()
    docs_note = page.locator(".collection-note")
    docs_note.wait_for()
    assert "default" in docs_note.inner_text()
    phone = sized(PHONE)
    login(phone, server, "erin")
    phone.locator(".collection-note").wait_for()
