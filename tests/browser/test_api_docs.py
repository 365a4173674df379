"""`/docs` and `/redoc` render with nothing fetched from another origin: the bundles are
vendored and the pages' Content-Security-Policy blocks the rest (ReDoc's sidebar asks for
its maker's logo)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from browser.conftest import SCREENSHOTS, Server

pytestmark = [pytest.mark.browser, pytest.mark.integration]


@pytest.fixture
def offline_page(
    browser: object, server: Server, request: pytest.FixtureRequest
) -> Iterator[object]:
    """A page whose requests to other origins must be blocked by the browser (CSP) before
    they reach the network."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})  # type: ignore[attr-defined]
    pg = context.new_page()
    errors: list[str] = []
    foreign: list[str] = []
    blocked: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("request", lambda r: foreign.append(r.url) if _foreign(r.url, server.url) else None)
    pg.on(
        "requestfailed",
        lambda r: blocked.append(r.url) if r.failure == "csp" else None,
    )
    yield pg
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(SCREENSHOTS / f"{request.node.name}.png"))
    context.close()
    assert not errors, f"uncaught errors in the page: {errors}"
    assert set(foreign) <= set(blocked), f"requests to other origins: {foreign}"


def _foreign(url: str, origin: str) -> bool:
    return url.startswith(("http:", "https:")) and not url.startswith(origin + "/")


@pytest.mark.parametrize(
    ("path", "operation"),
    [("/docs", ".opblock-summary-path"), ("/redoc", ".http-verb + span")],
    ids=["swagger-ui", "redoc"],
)
def test_api_docs_render_the_operations_offline(
    offline_page: object, server: Server, path: str, operation: str
) -> None:
    page = offline_page
    page.goto(f"{server.url}{path}")  # type: ignore[attr-defined]
    found = page.locator(operation, has_text="/auth/token").first  # type: ignore[attr-defined]
    found.wait_for(state="visible", timeout=30_000)
