"""URLs: their scheme (which backend a URL names) and, in messages and logs, the URL
without its password."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit


def redact_url(url: str) -> str:
    """The URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def scheme(url: str) -> str:
    """The URL's scheme in lower case, without a driver suffix (`postgresql+psycopg://` →
    `postgresql`); a spec without `:` (a bare name such as `sqlite` or `thread`) is its own
    scheme."""
    return url.strip().split(":", 1)[0].split("+", 1)[0].lower()
