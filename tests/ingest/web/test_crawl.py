"""Web pages: a page, a sitemap's pages or a same-site crawl from a local HTTP server on
127.0.0.1 (the SSRF guard relaxed for it), robots.txt and page limits respected, pages kept
as files; private addresses refused by default."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator
from pathlib import Path

import httpcore
import pytest
from typer.testing import CliRunner

from citewise.assistant import Assistant
from citewise.cli import app
from citewise.ingest.web.crawl import crawl
from citewise.ingest.web.fetch import WebLimits
from citewise.ingest.web.guard import GuardedBackend, RefusedAddressError, refusal
from static_site import serving

pytestmark = pytest.mark.integration


def _page(title: str, body: str) -> bytes:
    head = f"<html><head><title>{title}</title></head>"
    return f"{head}<body><h1>{title}</h1>{body}</body></html>".encode()


SITE: dict[str, tuple[str, bytes]] = {
    "/robots.txt": ("text/plain", b"User-agent: *\nDisallow: /private/\n"),
    "/": ("text/html", _page("Harbour", '<p>Welcome to the harbour site.</p>'
          '<a href="/tides">Tides</a> <a href="docs/crew.html#top">Crew</a> '
          '<a href="/private/codes">Codes</a> <a href="/logo.png">Logo</a> '
          '<a href="https://elsewhere.example/">Away</a> <a href="/quiet" rel="nofollow">Q</a>')),
    "/tides": ("text/html", _page("Tides", "<p>High tide at Whitby is at 06:12.</p>"
               '<a href="/">Home</a> <a href="/hidden">Hidden</a>')),
    "/docs/crew.html": ("text/html", _page("Crew", "<p>Twelve pilots are on the roster.</p>")),
    "/private/codes": ("text/html", _page("Codes", "<p>The gate code is 4242.</p>")),
    "/hidden": ("text/html", b'<html><head><meta name="robots" content="noindex"></head>'
                b"<body><p>Not for search engines.</p></body></html>"),
    "/quiet": ("text/html", _page("Quiet", "<p>Only reached by a nofollow link.</p>")),
    "/sitemap.xml": ("application/xml", b'<?xml version="1.0"?><urlset '
                     b'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
                     b"<url><loc>{base}/tides</loc></url><url><loc>{base}/quiet</loc></url>"
                     b"</urlset>"),
    "/big": ("text/html", b"<html><body><p>" + b"x" * 300_000 + b"</p></body></html>"),
    "/moved": ("redirect", b"/tides"),
}  # fmt: skip


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serving(SITE) as base:
        yield base


LOCAL = WebLimits(allow_private=True, max_page_bytes=100_000, timeout_s=10)


def _host(site: str) -> str:
    return site.removeprefix("http://").replace(":", "_")


@pytest.mark.parametrize(
    ("address", "why"),
    [("127.0.0.1", "loopback"), ("::1", "loopback"), ("10.1.2.3", "private"),
     ("192.168.0.7", "private"), ("169.254.169.254", "link-local"), ("::ffff:10.0.0.1", "private"),
     ("0.0.0.0", "reserved"), ("93.184.215.14", "")],
)  # fmt: skip
def test_the_guard_names_what_it_refuses(address: str, why: str) -> None:
    assert why in refusal(ipaddress.ip_address(address))
    assert bool(refusal(ipaddress.ip_address(address))) == bool(why)


def test_a_name_resolving_to_loopback_is_refused_at_connect_time() -> None:
    with pytest.raises(RefusedAddressError, match=r"localhost resolves to .* loopback"):
        GuardedBackend(allow_private=False).connect_tcp("localhost", 80, timeout=2)
    with pytest.raises(httpcore.ConnectError):  # allowed, and nothing listens there
        GuardedBackend(allow_private=True).connect_tcp("127.0.0.1", 9, timeout=2)


def test_a_private_address_is_refused_by_default(site: str, tmp_path: Path) -> None:
    result = crawl([site + "/"], tmp_path, WebLimits(timeout_s=5))
    assert result.saved == []
    ((url, status, reason),) = [(o.source, o.status, o.reason) for o in result.outcomes]
    assert (url, status) == (site + "/", "failed")
    assert "loopback" in reason and "--allow-private" in reason


def test_a_page_alone_is_fetched_and_kept_as_a_file(site: str, tmp_path: Path) -> None:
    result = crawl([site + "/tides"], tmp_path, LOCAL)
    (path,) = result.saved
    assert path == tmp_path / _host(site) / "tides.html"
    assert b"06:12" in path.read_bytes()


def test_a_crawl_follows_same_site_links_within_robots_and_meta_rules(
    site: str, tmp_path: Path
) -> None:
    limits = WebLimits(allow_private=True, follow=True, max_page_bytes=100_000)
    result = crawl([site + "/"], tmp_path, limits)
    kept = sorted(p.relative_to(tmp_path / _host(site)).as_posix() for p in result.saved)
    assert kept == ["docs/crew.html", "index.html", "tides.html"]
    reasons = {o.source.removeprefix(site): o.reason for o in result.outcomes}
    assert reasons == {
        "/private/codes": "robots.txt disallows it",
        "/hidden": "the page asks not to be indexed",
    }


def test_the_page_limit_and_the_size_limit_hold(site: str, tmp_path: Path) -> None:
    limited = WebLimits(allow_private=True, follow=True, max_pages=2, max_page_bytes=100_000)
    assert len(crawl([site + "/"], tmp_path / "a", limited).saved) == 2
    big = crawl([site + "/big"], tmp_path / "b", LOCAL)
    assert big.saved == [] and "over 97.7 KiB" in big.outcomes[0].reason


def test_a_sitemap_gives_its_pages_and_redirects_are_followed(site: str, tmp_path: Path) -> None:
    result = crawl([site + "/sitemap.xml", site + "/moved"], tmp_path, LOCAL)
    kept = sorted(p.name for p in result.saved)
    assert kept == ["quiet.html", "tides.html"]


def test_ingesting_an_address_makes_documents_cited_to_the_site(site: str, tmp_path: Path) -> None:
    limits = WebLimits(allow_private=True, follow=True, max_page_bytes=100_000)
    with Assistant(data_dir=tmp_path / "data", embedder="hashing") as a:
        report = a.ingest([site + "/"], web=limits)
        hit = a.search("pilots roster", k=1, mode="keyword").hits[0]
        sources = sorted(d.source for d in a.documents())
    host = _host(site)
    assert sources == [f"{host}/docs/crew.html", f"{host}/index.html", f"{host}/tides.html"]
    assert hit.source == f"{host}/docs/crew.html"
    assert {o.source: o.status for o in report.outcomes}[site + "/private/codes"] == "skipped"
    assert (tmp_path / "data" / "web" / "default" / host / "tides.html").exists()


def test_the_cli_ingests_an_address_and_refuses_a_private_one_unless_allowed(
    site: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CITEWISE_EMBEDDER", "hashing")
    env = {"CITEWISE_DATA_DIR": str(tmp_path / "data")}
    refused = CliRunner().invoke(app, ["ingest", site + "/tides", "--json"], env=env)
    assert refused.exit_code == 1 and "loopback" in refused.output
    allowed = CliRunner().invoke(
        app, ["ingest", site + "/tides", "--allow-private", "--json"], env=env
    )
    assert allowed.exit_code == 0, allowed.output
    assert f'"{_host(site)}/tides.html"' in allowed.stdout
