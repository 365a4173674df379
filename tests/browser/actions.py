"""What the browser tests do on a page: log in, ask and wait for the answer, and check that
the highlight marks cover the words of the cited lines."""

from __future__ import annotations

from typing import Any

from browser.conftest import PASSWORDS, Server


def login(page: Any, server: Server, user: str) -> None:
    page.goto(server.url + "/")
    page.get_by_label("User name").fill(user)
    page.get_by_label("Password").fill(PASSWORDS[user])
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("link", name="Documents").wait_for()


def ask(page: Any, question: str) -> Any:
    page.get_by_label("Your question").fill(question)
    page.get_by_role("button", name="Ask").click()
    answer = page.locator("li.turn").last.locator("article.answer")
    answer.locator("button.cite").first.wait_for(timeout=60_000)
    page.wait_for_function(
        "() => !document.querySelector('article.answer[aria-busy=\"true\"]')", timeout=60_000
    )
    return answer


# Whether every text-layer span holding one of `words` on PDF page `n` lies under a mark.
_OVERLAP_JS = """([n, words]) => {
  const pageDiv = document.querySelector(`.pdfViewer .page[data-page-number="${n}"]`);
  if (!pageDiv) return false;
  const rects = (sel) => [...pageDiv.querySelectorAll(sel)];
  const marks = rects('.cw-highlight').map(e => e.getBoundingClientRect());
  const spans = rects('.textLayer span')
    .filter(s => words.some(w => s.textContent.includes(w)))
    .map(s => s.getBoundingClientRect());
  const hit = (a, b) =>
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  return marks.length > 0 && spans.length > 0 && spans.every(s => marks.some(m => hit(m, s)));
}"""


def highlight_overlaps_words(page: Any, page_number: int, words: list[str]) -> bool:
    return bool(page.evaluate(_OVERLAP_JS, [page_number, words]))
