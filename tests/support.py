"""Test support: a small real corpus written at run time."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from citewise.assistant import Assistant

CORPUS = {
    "guides/logging.md": (
        "---\ntitle: Logging guide\ntags: [ops, logs]\n---\n# Logging\n\n"
        "## Rotation\n\nRotate the log files every night with logrotate. Keep seven "
        "rotated files and compress the older ones with gzip.\n\n"
        "## Levels\n\nThe default level is WARNING, so info messages are hidden until you "
        "configure the root logger.\n"
    ),
    "guides/backup.md": (
        "# Backups\n\nTake a snapshot of the database every six hours. Store snapshots in a "
        "second region and test a restore once a month.\n"
    ),
    "reference/limits.txt": (
        "Limits\n\nUploads larger than 25 MB are rejected with status 413. The default "
        "request timeout is 30 seconds.\n"
    ),
    "reference/api.html": (
        "<html><head><title>API reference</title></head><body><nav>Home | Docs</nav>"
        "<main><h1>API</h1><h2>Authentication</h2><p>Send the token in the Authorization "
        "header as a bearer token. Tokens expire after 12 hours.</p></main>"
        "<footer>Copyright</footer></body></html>"
    ),
}


def write_corpus(root: Path, files: dict[str, str | bytes] | None = None) -> Path:
    for rel, content in (files or CORPUS).items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


@contextmanager
def ingested(root: Path, files: dict[str, str]) -> Iterator[Assistant]:
    """An assistant (hashing embedder, data in `root/data`) that ingested `files` written to
    `root/docs`; closed after."""
    from citewise.assistant import Assistant

    with Assistant(data_dir=root / "data", embedder="hashing") as made:
        made.ingest([write_corpus(root / "docs", files)])
        yield made
