"""Check-set corpus "licences": the licence texts Debian ships in /usr/share/common-licenses
(package base-files), in mixed formats:

    gpl-3.pdf        GNU GPL version 3 (PDF pages)
    apache-2.0.docx  Apache License 2.0
    mpl-2.0.html     Mozilla Public License 2.0 (a web page with a site header and footer)
    lgpl-2.1.txt     GNU LGPL version 2.1 (as shipped)
    cc0-1.0.md       CC0 1.0 Universal (Markdown)
    bsd.txt          BSD licence (as shipped)
    artistic.txt     the Artistic License (as shipped)

    python benchmarks/corpora/build_licences.py [--out DIR]
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from _writers import (
    Item,
    build_main,
    paragraphs,
    read_text,
    write_docx,
    write_html,
    write_markdown,
    write_pdf,
)

SRC = Path("/usr/share/common-licenses")
_NUMBERED = re.compile(r"^\d+(\.\d+)*\.? +\S")
_RULE = re.compile(r"^[=\-_ ]+$")


def licence_items(text: str) -> list[Item]:
    """Short lines standing alone become headings (numbered sub-sections level 2)."""
    items: list[Item] = []
    for para in paragraphs(text):
        para = " ".join(w for w in para.split(" ") if not _RULE.match(w)).strip()
        if not para:
            continue
        short = len(para) <= 70 and not para.endswith((",", ";", ":"))
        if short and _NUMBERED.match(para) and para.count(". ") <= 1:
            items.append(("h2" if re.match(r"^\d+\.\d+", para) else "h1", para))
        elif short and not para.endswith(".") and len(para.split()) <= 8 and not para[0].islower():
            items.append(("h1", para))
        else:
            items.append(("p", para))
    return items


def _mpl_items(text: str) -> list[Item]:
    # MPL underlines its headings: "1. Definitions\n--------------"
    text = re.sub(r"\n[=\-]{3,}\n", "\n\n", text)
    # a defined term ("1.1. "Contributor"") is followed by its indented definition
    text = re.sub(r'^(\d+\.\d+\. "[^"\n]+"[^\n]*)\n(?=\s)', r"\1\n\n", text, flags=re.M)
    return licence_items(text)


def build(out: Path) -> None:
    gpl = read_text(SRC / "GPL-3")
    write_pdf(out / "gpl-3.pdf", "GNU General Public License version 3", licence_items(gpl))
    apache = read_text(SRC / "Apache-2.0")
    write_docx(out / "apache-2.0.docx", "Apache License 2.0", licence_items(apache))
    mpl = read_text(SRC / "MPL-2.0")
    write_html(
        out / "mpl-2.0.html", "Mozilla Public License 2.0", _mpl_items(mpl), site="Licence library"
    )
    write_markdown(out / "cc0-1.0.md", licence_items(read_text(SRC / "CC0-1.0")))
    shutil.copyfile(SRC / "LGPL-2.1", out / "lgpl-2.1.txt")
    shutil.copyfile(SRC / "BSD", out / "bsd.txt")
    shutil.copyfile(SRC / "Artistic", out / "artistic.txt")


if __name__ == "__main__":
    build_main("licences", build)
