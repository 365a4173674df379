"""Check-set corpus "policy": standards and policy manuals that Debian's debian-policy package
ships in /usr/share/doc/debian-policy, as shipped (no conversion):

    fhs-3.0.pdf                  Filesystem Hierarchy Standard 3.0 (the shipped PDF)
    policy/*.html                Debian Policy Manual chapters (Sphinx HTML with navigation)
    menu-policy/*.html           Debian Menu sub-policy (DocBook chunked HTML, Prev/Next bars)
    copyright-format-1.0.html    Machine-readable debian/copyright file format (one page)

    python benchmarks/corpora/build_policy.py [--out DIR]
"""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

from _writers import build_main

SRC = Path("/usr/share/doc/debian-policy")
CHAPTERS = (
    "index", "ch-scope", "ch-archive", "ch-binary", "ch-source", "ch-controlfields",
    "ch-maintainerscripts", "ch-relationships", "ch-sharedlibs", "ch-opersys", "ch-files",
    "ch-customized-programs", "ch-docs",
)  # fmt: skip


def build(out: Path) -> None:
    (out / "fhs-3.0.pdf").write_bytes(gzip.decompress((SRC / "fhs/fhs-3.0.pdf.gz").read_bytes()))
    (out / "policy").mkdir()
    for name in CHAPTERS:
        shutil.copyfile(SRC / "policy.html" / f"{name}.html", out / "policy" / f"{name}.html")
    shutil.copytree(SRC / "menu-policy.html", out / "menu-policy")
    shutil.copyfile(SRC / "copyright-format-1.0.html", out / "copyright-format-1.0.html")


if __name__ == "__main__":
    build_main("policy", build)
