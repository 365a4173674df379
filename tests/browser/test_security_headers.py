"""The web UI works under its security headers: the page is served with the policy, the
import map and modules run, an answer streams, and the PDF viewer (its worker, its fonts, its
pages) opens a citation, with nothing refused by the policy (the `page` fixture fails a test
on any CSP report in the console) and no violation event in the page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from browser.actions import ask, login
from browser.conftest import Server
from browser.test_web_ui import QUESTION, ensure_documents, open_pdf_citation

pytestmark = [pytest.mark.browser, pytest.mark.integration]
WATCH = """() => { window.__violations = [];
  document.addEventListener('securitypolicyviolation',
    (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`)); }"""


def test_the_ui_and_the_pdf_viewer_work_under_the_content_security_policy(
    page: Any, server: Server, tmp_path: Path
) -> None:
    ensure_documents(server, tmp_path)
    page.add_init_script(f"({WATCH})()")
    response = page.goto(server.url + "/")
    policy = response.headers["content-security-policy"]
    assert "script-src 'self' 'sha256-" in policy and "'unsafe-inline'" not in policy
    assert response.headers["x-frame-options"] == "DENY"
    login(page, server, "alice")
    answer = ask(page, QUESTION)
    assert "twenty-five days" in answer.locator(".answer-text").inner_text()
    open_pdf_citation(page, answer)
    assert page.evaluate("window.__violations") == []
