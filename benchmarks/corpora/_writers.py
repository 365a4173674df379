"""What the check-set corpus builders share: where a corpus is built, plain text split into
headings and paragraphs, and deterministic writers for PDF, DOCX, PPTX, HTML and Markdown.

A document is a list of `Item`s: ("h1" | "h2" | "h3" | "p" | "pre", text). The writers keep the
wording of the source text exactly (only line wrapping changes), so gold quotes taken from the
source text occur in the parsed text of the built file.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import html
import os
import re
import shutil
import subprocess
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

Item = tuple[str, str]

_WS = re.compile(r"\s+")


def default_root() -> Path:
    base = os.environ.get("CITEWISE_CHECKSETS_DIR")
    if base:
        return Path(base)
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return cache / "citewise" / "check-sets"


@dataclass(frozen=True)
class Snapshot:
    """A repository snapshot a builder reads: its flag, the variable that overrides its default."""

    flag: str
    env: str
    default: Path

    def path(self) -> Path:
        return Path(os.environ.get(self.env) or self.default)


def build_main(name: str, build: Callable[..., None], snapshots: Sequence[Snapshot] = ()) -> Path:
    """Command line of every builder: `--out DIR` (default: the cache dir for `name`) and a
    flag a snapshot; `build(out, *snapshot_dirs)` writes the corpus into a fresh `out`."""
    parser = argparse.ArgumentParser(description=f"Build the '{name}' check-set corpus.")
    parser.add_argument("--out", type=Path, default=default_root() / name)
    for snap in snapshots:
        parser.add_argument(snap.flag, type=Path, default=snap.path(), help=f"or ${snap.env}")
    args = parser.parse_args()
    dirs = [getattr(args, snap.flag.lstrip("-").replace("-", "_")) for snap in snapshots]
    for found in dirs:
        if not found.is_dir():
            parser.error(f"no repository snapshot at {found} (see --help for the sources)")
    out: Path = args.out
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    build(out, *dirs)
    for f in sorted(out.rglob("*")):
        if f.is_file():
            print(f.relative_to(out), f.stat().st_size)
    print(out)
    return out


def read_source(root: Path, path: str) -> bytes:
    """A file of a repository snapshot: from a checkout when it has one, else from HEAD of a
    bare git directory."""
    if (root / path).is_file():
        return (root / path).read_bytes()
    done = subprocess.run(
        ["git", "-C", str(root), "show", f"HEAD:{path}"], capture_output=True, check=True
    )
    return done.stdout


def read_checked(root: Path, path: str, sha256: str) -> bytes:
    """`read_source`, refusing a file whose SHA-256 is not the one the set was written on."""
    data = read_source(root, path)
    found = hashlib.sha256(data).hexdigest()
    if found != sha256:
        raise SystemExit(f"{path}: SHA-256 {found}, expected {sha256}")
    return data


def read_text(path: str | Path) -> str:
    p = Path(path)
    if p.suffix == ".gz":
        return gzip.decompress(p.read_bytes()).decode("utf-8")
    return p.read_text(encoding="utf-8")


def squash(text: str) -> str:
    return _WS.sub(" ", text).strip()


def paragraphs(text: str) -> list[str]:
    """Blank-line separated paragraphs, each unwrapped to one line."""
    return [squash(p) for p in re.split(r"\n\s*\n", text) if p.strip()]


# --- PDF -------------------------------------------------------------------------------


def write_pdf(path: Path, title: str, items: Sequence[Item]) -> None:
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, Preformatted, SimpleDocTemplate, Spacer

    styles = getSampleStyleSheet()
    style = {
        "h1": styles["Heading1"],
        "h2": styles["Heading2"],
        "h3": styles["Heading3"],
        "p": styles["BodyText"],
    }
    story: list[object] = []
    for kind, text in items:
        if kind == "pre":
            story.append(Preformatted(text, styles["Code"]))
        else:
            story.append(Paragraph(html.escape(text), style[kind]))
        story.append(Spacer(1, 4))
    doc = SimpleDocTemplate(str(path), pagesize=A4, title=title, author="", creator="", invariant=1)
    doc.build(story)


# --- DOCX ------------------------------------------------------------------------------


def write_docx(path: Path, title: str, items: Sequence[Item]) -> None:
    import datetime

    from docx import Document

    doc = Document()
    fixed = datetime.datetime(2020, 1, 1)
    props = doc.core_properties
    props.title, props.author, props.created, props.modified = title, "", fixed, fixed
    props.last_modified_by = ""
    for kind, text in items:
        if kind == "h1":
            doc.add_heading(text, level=1)
        elif kind in ("h2", "h3"):
            doc.add_heading(text, level=int(kind[1]))
        else:
            doc.add_paragraph(text)
    doc.save(str(path))


# --- PPTX ------------------------------------------------------------------------------


def write_pptx(path: Path, slides: Iterable[tuple[str, Sequence[str], str]]) -> None:
    """Each slide: a title, bullet lines, speaker notes."""
    from pptx import Presentation

    prs = Presentation()
    layout = prs.slide_layouts[1]  # title and content
    for title, bullets, notes in slides:
        slide = prs.slides.add_slide(layout)
        slide.shapes.title.text = title
        body = slide.placeholders[1].text_frame
        for i, line in enumerate(bullets):
            para = body.paragraphs[0] if i == 0 else body.add_paragraph()
            para.text = line
        if notes:
            slide.notes_slide.notes_text_frame.text = notes
    prs.save(str(path))


# --- HTML / Markdown -------------------------------------------------------------------


def write_html(path: Path, title: str, items: Sequence[Item], *, site: str = "") -> None:
    """A plain web page; with `site`, a header navigation bar and a footer as a site has."""
    tags = {"h1": "h1", "h2": "h2", "h3": "h3", "p": "p", "pre": "pre"}
    body = "\n".join(f"<{tags[k]}>{html.escape(t)}</{tags[k]}>" for k, t in items)
    nav = ""
    foot = ""
    if site:
        nav = (
            f'<header><nav><a href="index.html">{html.escape(site)}</a> | '
            '<a href="index.html">Home</a> | <a href="licenses.html">Licenses</a> | '
            '<a href="contact.html">Contact</a></nav></header>\n'
        )
        foot = f"<footer><p>{html.escape(site)} | Back to top</p></footer>\n"
    page = (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title></head>\n<body>\n{nav}<main>\n{body}\n</main>\n"
        f"{foot}</body></html>\n"
    )
    path.write_text(page, encoding="utf-8")


def write_markdown(path: Path, items: Sequence[Item]) -> None:
    marks = {"h1": "# ", "h2": "## ", "h3": "### ", "p": ""}
    out = []
    for kind, text in items:
        out.append(f"```\n{text}\n```" if kind == "pre" else marks[kind] + text)
    path.write_text("\n\n".join(out) + "\n", encoding="utf-8")


_ITEM_START = re.compile(r"^\s*(\d+\.|\*|[a-z]\.|[ivx]+\.)\s+\S")
_HEADING_NUMBER = re.compile(r"^[0-9A-Z]+(\.\d+)*\.\s+\S")
_UNDERLINE = re.compile(r"^\s*[=\-*_]{3,}\s*$")


def text_items(text: str) -> list[Item]:
    """Plain text as headings and paragraphs: a one-line chunk indented at most two spaces that
    reads as a title is a heading (level 2 when numbered "N.N."); list items become paragraphs
    of their own; underline and rule lines are dropped."""
    items: list[Item] = []
    for chunk in re.split(r"\n\s*\n", text):
        lines = [ln for ln in chunk.split("\n") if ln.strip() and not _UNDERLINE.match(ln)]
        if not lines:
            continue
        first = lines[0]
        indent = len(first) - len(first.lstrip())
        title = squash(first)
        if len(lines) == 1 and (indent <= 2 or indent >= 8) and _reads_as_title(title):
            level = "h2" if re.match(r"^[0-9A-Z]+\.\d+\.", title) else "h1"
            items.append((level, title))
            continue
        current: list[str] = []
        for line in lines:
            if current and _ITEM_START.match(line) and len(line) - len(line.lstrip()) >= 2:
                items.append(("p", squash(" ".join(current))))
                current = []
            current.append(line)
        if current:
            items.append(("p", squash(" ".join(current))))
    return items


def _reads_as_title(line: str) -> bool:
    if len(line) > 75 or (line.endswith((",", ";", ":", ".")) and not _HEADING_NUMBER.match(line)):
        return False
    words = line.split()
    return len(words) <= 12 and (line[0].isupper() or line[0].isdigit() or line[0] == '"')
