"""The web UI in headless chromium against a real `citewise serve`: log in, upload and see
documents become ready, ask and watch the answer stream with citations, open a PDF citation
at its page with the quoted words marked, reopen an old answer after a reload, tenants kept
apart, and a too-large upload explained. Screenshots: tests/artifacts/screenshots/."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from browser.actions import ask, highlight_overlaps_words, login
from browser.conftest import SCREENSHOTS, UPLOAD_LIMIT, Server
from browser.documents import DOCX_FACT, heron_pdf, kingfisher_docx, too_large

pytestmark = [pytest.mark.browser, pytest.mark.integration]
QUESTION = "How many days do grey heron eggs take to hatch?"
READY_SECONDS = 90_000  # ms


def ensure_documents(server: Server, tmp: Path) -> None:
    """Alice's two documents, uploaded through the API when a test runs alone."""
    headers = {"Authorization": f"Bearer {server.token('alice')}"}
    listed = httpx.get(f"{server.url}/documents", headers=headers).json()["documents"]
    have = {d["source"] for d in listed if d["status"] == "ready"}
    for path in (heron_pdf(tmp / "herons.pdf"), kingfisher_docx(tmp / "kingfishers.docx")):
        if path.name not in have:
            with path.open("rb") as fh:
                httpx.post(f"{server.url}/documents", headers=headers,
                           files={"files": (path.name, fh)}).raise_for_status()  # fmt: skip
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        listed = httpx.get(f"{server.url}/documents", headers=headers).json()["documents"]
        if sum(d["status"] == "ready" for d in listed) >= 2:
            return
        time.sleep(0.3)
    raise AssertionError(f"documents not ready: {listed}")


def open_pdf_citation(page: Any, answer: Any) -> None:
    answer.locator("ol.sources button", has_text="herons.pdf").first.click()
    page.locator(".pdfViewer .page[data-page-number='2'] .cw-highlight").first.wait_for(
        timeout=30_000
    )
    page.locator(".pdfViewer .page[data-page-number='2'] .textLayer span").first.wait_for(
        timeout=30_000
    )


def test_login_then_upload_a_pdf_and_a_docx_that_become_ready(
    page: Any, server: Server, tmp_path: Path
) -> None:
    page.on("dialog", lambda d: d.accept())  # a name taken by an earlier test: replace it
    login(page, server, "alice")
    page.get_by_role("link", name="Documents").click()
    page.locator("p.status", has_text="Loading").wait_for(state="detached")  # names known
    pdf, docx = heron_pdf(tmp_path / "herons.pdf"), kingfisher_docx(tmp_path / "kingfishers.docx")
    page.get_by_label("Choose files to upload").set_input_files([str(pdf), str(docx)])
    for name in ("herons.pdf", "kingfishers.docx"):
        row = page.locator(f"li.upload[data-name='{name}']")
        row.locator(".stage", has_text="ready").wait_for(timeout=READY_SECONDS)
    for name in ("herons.pdf", "kingfishers.docx"):
        cell = page.locator(f"tr[data-source='{name}'] td.status-cell")
        cell.filter(has_text="ready").wait_for(timeout=READY_SECONDS)
    page.get_by_label("Search by name").fill("king")
    assert page.locator("table.doc-table tbody tr[data-source]").count() == 1
    page.get_by_label("Search by name").fill("")


def test_the_upload_lists_the_new_types_and_reads_a_workbook_and_an_email(
    page: Any, server: Server, tmp_path: Path
) -> None:
    from format_files import eml, message, xlsx

    login(page, server, "alice")
    page.get_by_role("link", name="Documents").click()
    picker = page.get_by_label("Choose files to upload")
    page.locator("input[type=file][accept*='.xlsx']").wait_for(state="attached", timeout=10_000)
    accepted = (picker.get_attribute("accept") or "").split(",")
    assert {".xlsx", ".ods", ".csv", ".eml", ".mbox", ".epub", ".odt", ".rtf"} <= set(accepted)
    assert page.get_by_text("Reads .csv").count() == 1
    book = xlsx(tmp_path / "shop.xlsx")
    mail = eml(tmp_path / "repairs.eml", message("Dock repairs", "The crane is fixed."))
    picker.set_input_files([str(book), str(mail)])
    for name in ("shop.xlsx", "repairs.eml"):
        cell = page.locator(f"tr[data-source='{name}'] td.status-cell")
        cell.filter(has_text="ready").wait_for(timeout=READY_SECONDS)


def test_a_document_is_reingested_and_another_deleted(
    page: Any, server: Server, tmp_path: Path
) -> None:
    ensure_documents(server, tmp_path)
    page.on("dialog", lambda d: d.accept())
    login(page, server, "alice")
    page.get_by_role("link", name="Documents").click()
    notes = tmp_path / "notes.md"
    notes.write_text("# Notes\n\nEgrets follow cattle to catch the insects they stir up.\n")
    page.get_by_label("Choose files to upload").set_input_files(str(notes))
    row = page.locator("tr[data-source='notes.md']")
    row.locator("td.status-cell", has_text="ready").wait_for(timeout=READY_SECONDS)
    row.get_by_role("button", name="Delete").click()
    row.wait_for(state="detached")
    docx = page.locator("tr[data-source='kingfishers.docx']")
    docx.get_by_role("button", name="Re-ingest").click()
    job = page.locator("li.upload[data-name='kingfishers.docx']").first
    job.locator(".stage", has_text="ready").wait_for(timeout=READY_SECONDS)
    docx.locator("td.status-cell", has_text="ready").wait_for(timeout=READY_SECONDS)
    headers = {"Authorization": f"Bearer {server.token('alice')}"}
    listed = httpx.get(f"{server.url}/documents", headers=headers).json()["documents"]
    sources = [d["source"] for d in listed]  # other tests' uploads may stand beside them
    assert "notes.md" not in sources and {"herons.pdf", "kingfishers.docx"} <= set(sources)
    assert not any(" (2)" in s for s in sources)  # re-ingested in place, nothing beside it


def test_an_answer_streams_with_citations_and_a_pdf_citation_marks_the_quoted_words(
    page: Any, server: Server, tmp_path: Path
) -> None:
    ensure_documents(server, tmp_path)
    login(page, server, "alice")
    page.evaluate("""() => { const orig = window.fetch;
        window.fetch = async (...a) => { const r = await orig(...a);
          if (String(a[0]).includes('/chat/stream')) window.__streamed = true; return r; }; }""")
    answer = ask(page, QUESTION)
    assert page.evaluate("window.__streamed") is True
    assert "twenty-five days" in answer.locator(".answer-text").inner_text()
    marker = answer.locator("button.cite").first
    marker.focus()
    tip = marker.locator(".tip")
    assert tip.is_visible() and "herons.pdf" in tip.inner_text() and "page 2" in tip.inner_text()
    open_pdf_citation(page, answer)
    assert page.locator(".pdf-container").get_attribute("data-page") == "2"
    assert highlight_overlaps_words(page, 2, ["twenty-five", "incubation"])
    # the quote's line only: not the lines around it
    assert not highlight_overlaps_words(page, 2, ["clutch"])
    assert not highlight_overlaps_words(page, 2, ["chicks leave"])
    page.get_by_role("button", name="Zoom in").click()  # marks follow the page when it re-renders
    page.wait_for_timeout(300)
    page.locator(".pdfViewer .page[data-page-number='2'] .cw-highlight").first.wait_for()
    assert highlight_overlaps_words(page, 2, ["twenty-five", "incubation"])
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "pdf-citation-highlight.png"))
    page.keyboard.press("Escape")  # closing the viewer releases the document cleanly
    page.locator(".source-panel").wait_for(state="detached")


def test_after_a_reload_an_old_answers_citation_opens_at_its_place(
    page: Any, server: Server, tmp_path: Path
) -> None:
    ensure_documents(server, tmp_path)
    login(page, server, "alice")
    ask(page, QUESTION)
    page.reload()
    located: list[str] = []  # the citation's place must come from the stored history
    page.on("request", lambda r: located.append(r.url) if "/ui-api/citations/" in r.url else None)
    page.get_by_role("button", name="New conversation").wait_for()
    page.locator(".sessions button.open").first.click()
    answer = page.locator("li.turn").first.locator("article.answer")
    answer.locator("button.cite").first.wait_for()
    assert "twenty-five" in answer.locator("button.cite .tip").first.inner_text()
    open_pdf_citation(page, answer)
    assert highlight_overlaps_words(page, 2, ["twenty-five"])
    assert not highlight_overlaps_words(page, 2, ["clutch"])
    assert located == []


def test_a_second_user_sees_none_of_the_first_users_documents(
    page: Any, server: Server, tmp_path: Path
) -> None:
    ensure_documents(server, tmp_path)
    alice = {"Authorization": f"Bearer {server.token('alice')}"}
    docs = httpx.get(f"{server.url}/documents", headers=alice).json()["documents"]
    pdf_hash = next(d["content_hash"] for d in docs if d["source"] == "herons.pdf")
    login(page, server, "bob")
    page.get_by_role("link", name="Documents").click()
    page.get_by_text("No documents yet.").wait_for()
    assert page.locator("table.doc-table").inner_text().count("herons") == 0
    page.get_by_role("link", name="Chat").click()
    page.get_by_label("Your question").fill(QUESTION)
    page.get_by_role("button", name="Ask").click()
    page.wait_for_function(
        "() => !document.querySelector('article.answer[aria-busy=\"true\"]')", timeout=60_000
    )
    text = page.locator("li.turn").last.inner_text()
    assert "twenty-five" not in text and "herons.pdf" not in text
    bob = {"Authorization": f"Bearer {server.token('bob')}"}
    assert httpx.get(f"{server.url}/ui-api/files/{pdf_hash}", headers=bob).status_code == 404
    chunk = httpx.post(f"{server.url}/chat/", headers=alice, json={"message": QUESTION}).json()
    chunk_id = chunk["citations"][0]["chunk_id"]
    for path in (f"/ui-api/passages/{chunk_id}", f"/ui-api/citations/{chunk_id}"):
        assert httpx.get(server.url + path, headers=bob).status_code == 404


def test_a_too_large_upload_says_the_limit(page: Any, server: Server, tmp_path: Path) -> None:
    login(page, server, "alice")
    page.get_by_role("link", name="Documents").click()
    big = too_large(tmp_path / "big.txt", UPLOAD_LIMIT + 50_000)
    page.get_by_label("Choose files to upload").set_input_files(str(big))
    row = page.locator("li.upload[data-name='big.txt']")
    row.locator(".reason").wait_for(timeout=30_000)
    assert "failed" in row.locator(".stage").inner_text()
    message = row.locator(".reason").inner_text()
    assert "limit" in message and "400 KiB" in message, message
    assert page.get_by_text("Up to 400 KiB per file.").count() == 1
    assert page.locator("li.upload progress").count() == 0  # no spinner left running
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7\n" + b"\x00garbage" * 200)
    page.get_by_label("Choose files to upload").set_input_files(str(broken))
    row = page.locator("li.upload[data-name='broken.pdf']")
    row.locator(".stage", has_text="failed").wait_for(timeout=60_000)
    assert row.locator(".reason").inner_text().strip()  # the parser's reason, shown
    assert page.locator("li.upload progress").count() == 0


def test_stop_generating_ends_a_pending_answer(page: Any, server: Server) -> None:
    login(page, server, "alice")
    page.route("**/chat/stream", lambda route: None)  # the answer never comes
    page.get_by_label("Your question").fill(QUESTION)
    page.get_by_role("button", name="Ask").click()
    page.get_by_role("button", name="Stop generating").click()
    page.locator("li.turn .note", has_text="Stopped.").wait_for()
    assert page.locator("article.answer[aria-busy='true']").count() == 0
    assert page.locator("li.turn .spinner").count() == 0
    assert page.get_by_role("button", name="Ask").count() == 1


def test_phone_width_in_dark_mode_keeps_the_chat_usable(
    browser: Any, server: Server, request: pytest.FixtureRequest
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme="dark")
    page = context.new_page()
    try:
        login(page, server, "alice")
        page.get_by_label("Your question").wait_for()
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0
        bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert bg == "rgb(20, 23, 29)"
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{request.node.name}-chat.png"))
        page.get_by_role("button", name="☰ Conversations").click()
        page.get_by_role("button", name="New conversation").wait_for()
        page.screenshot(path=str(SCREENSHOTS / f"{request.node.name}.png"))
    finally:
        context.close()


def test_a_docx_citation_shows_the_passage_with_the_quote_marked_and_copies_with_sources(
    page: Any, server: Server, tmp_path: Path
) -> None:
    ensure_documents(server, tmp_path)
    login(page, server, "alice")
    answer = ask(page, "How long is the nesting tunnel that a kingfisher digs?")
    answer.locator("ol.sources button", has_text="kingfishers.docx").first.click()
    mark = page.locator(".source-panel .passage mark")
    mark.wait_for()
    assert "nesting tunnel up to one metre" in mark.inner_text()
    assert DOCX_FACT.split(" up to")[0] in page.locator(".source-panel .passage").inner_text()
    answer.get_by_role("button", name="Copy answer with sources").click()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert "one metre" in copied and "Sources:" in copied and "[1] kingfishers.docx" in copied
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "docx-passage-in-context.png"))
    page.keyboard.press("Escape")
    assert page.locator(".source-panel").count() == 0


def test_api_keys_are_made_with_scopes_and_expiry_and_revoked(page: Any, server: Server) -> None:
    page.on("dialog", lambda d: d.accept())
    login(page, server, "alice")
    page.get_by_role("link", name="API keys").click()
    page.get_by_label("Name", exact=True).fill("nightly sync")
    page.get_by_label("write").check()
    page.get_by_label("Expires after (days)").fill("30")
    page.get_by_role("button", name="Create key").click()
    key = page.locator(".made code.secret").inner_text().strip()
    row = page.locator("tr", has_text="nightly sync")
    assert "read, write" in row.inner_text() and "never" not in row.inner_text()
    me = httpx.get(f"{server.url}/auth/me", headers={"Authorization": f"Bearer {key}"})
    assert me.status_code == 200 and me.json()["username"] == "alice"
    row.get_by_role("button", name="Revoke").click()
    row.get_by_text("revoked").wait_for()
    after = httpx.get(f"{server.url}/auth/me", headers={"Authorization": f"Bearer {key}"})
    assert after.status_code == 401


def test_the_admin_page_lists_users_and_creates_one(page: Any, server: Server) -> None:
    login(page, server, "root")
    page.get_by_role("link", name="Admin").click()
    users = page.locator("table").first
    users.get_by_role("cell", name="alice", exact=True).wait_for()
    assert users.get_by_role("cell", name="bob", exact=True).count() == 1
    form = page.locator("form", has=page.get_by_role("button", name="Create user"))
    form.get_by_label("User name").fill("carol")
    form.get_by_label("Password").fill("carol-password-4444")
    form.get_by_role("button", name="Create user").click()
    users.get_by_role("cell", name="carol", exact=True).wait_for()
    got = httpx.post(f"{server.url}/auth/token",
                     data={"username": "carol", "password": "carol-password-4444"})  # fmt: skip
    assert got.status_code == 200


def test_a_conversation_is_renamed_and_deleted(page: Any, server: Server, tmp_path: Path) -> None:
    ensure_documents(server, tmp_path)
    page.on("dialog", lambda d: d.accept())
    login(page, server, "alice")
    ask(page, "Where do kingfishers hunt from?")
    entry = page.locator(".sessions li", has_text="Where do kingfishers hunt from?")
    entry.get_by_role("button", name="Actions").click()
    entry.get_by_role("menuitem", name="Rename").click()
    page.get_by_label("Conversation name").fill("Kingfisher questions")
    page.get_by_role("button", name="Save").click()
    renamed = page.locator(".sessions li", has_text="Kingfisher questions")
    renamed.wait_for()
    before = len(_sessions(server))
    renamed.get_by_role("button", name="Actions").click()
    renamed.get_by_role("menuitem", name="Delete").click()
    renamed.wait_for(state="detached")
    assert len(_sessions(server)) == before - 1


def _sessions(server: Server) -> list[dict[str, Any]]:
    got = httpx.get(f"{server.url}/sessions",
                    headers={"Authorization": f"Bearer {server.token('alice')}"})  # fmt: skip
    return list(got.json())
