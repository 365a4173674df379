"""Web addresses among an ingest's paths: fetched into the collection's web folder first,
their failures reported beside the files' outcomes."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from citewise.ingest.web.crawl import Crawl, crawl
from citewise.ingest.web.fetch import WebLimits
from citewise.types import IngestReport

if TYPE_CHECKING:
    from citewise.config import Settings


def is_web_address(text: str) -> bool:
    return text[:8].lower().startswith(("http://", "https://"))


def web_limits(
    settings: Settings,
    *,
    max_pages: int | None = None,
    allow_private: bool | None = None,
    follow: bool = False,
) -> WebLimits:
    """The settings' web limits, with the options a command gave (None: not given)."""
    return WebLimits(
        max_pages=settings.web_max_pages if max_pages is None else max_pages,
        max_page_bytes=settings.web_max_page_bytes,
        timeout_s=settings.web_timeout_s,
        allow_private=settings.web_allow_private if allow_private is None else allow_private,
        follow=follow,
    )


def fetch_pages(urls: list[str], folder: Path, limits: WebLimits) -> Crawl:
    """The pages of `urls`, kept under `folder/<host>/…`."""
    return crawl(urls, folder, limits)


def with_fetch_outcomes(report: IngestReport, fetched: Crawl | None) -> IngestReport:
    """The ingest's report with the addresses that could not be fetched in front."""
    if fetched is None or not fetched.outcomes:
        return report
    return replace(report, outcomes=(*fetched.outcomes, *report.outcomes))
