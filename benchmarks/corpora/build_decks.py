"""Check-set corpus "decks": six real slide decks of talks on the OWASP Top 10 from the public
repository OWASP/Top10 (CC BY-SA 4.0), copied unchanged (each copy is checked against its
SHA-256). Bullets, tables and speaker notes rather than sentences; four decks cover the same
ten risks in different years, so the year (or the speaker) is what tells them apart:

    OWASP_Top_10_-_2010 Presentation.pptx        Dave Wichers's talk on the 2010 list (PPTX)
    OWASP_Top-10_2013 - Presentation.pptx        the 2013 list, item by item (PPTX)
    OWASP_Top-10_2013 - Changes-from-2010.pptx   what changed from 2010 to 2013 (PPTX)
    OWASP Top 10-2017 (en).pptx                  the 2017 document as slides, with tables
    OWASP Top Ten 2025.pdf                       Tanya Janca and Neil Smithline's 2025 talk
    Owasp Top Ten 2025-Making Of.pdf             Brian Glas on how the 2025 list was built

    python benchmarks/corpora/build_decks.py [--source DIR] [--out DIR]

`--source` is a clone of the repository: a bare git directory (read with `git show HEAD:…`)
or a checkout; default /work/.mirror/OWASP+Top10/repo or CITEWISE_SOURCE_OWASP_TOP10.
"""

from __future__ import annotations

from pathlib import Path

from _writers import Snapshot, build_main, read_checked

SOURCE = Snapshot("--source", "CITEWISE_SOURCE_OWASP_TOP10", Path("/work/.mirror/OWASP+Top10/repo"))
DECKS = {
    "2010/presentations/OWASP_Top_10_-_2010 Presentation.pptx":
        "b30bb49bb6238d9f2f56127d9acb1d5635d36f943d6ba73b4355507a318ff56d",
    "2013/presentations/OWASP_Top-10_2013 - Presentation.pptx":
        "882b71bc5108e463a365e20cad7fa35ff4d48c07145f7b984b1b6d55b2d9d802",
    "2013/presentations/OWASP_Top-10_2013 - Changes-from-2010.pptx":
        "06d4e6e43819ed5c4dca263ecee5718ab802a6ffbc49333d6be516990772d2aa",
    "2017/OWASP Top 10-2017 (en).pptx":
        "d55ab1a7a28c0bd082d6ec51947eccda9aec17a9b038f3dcefceeaf4e5597223",
    "2025/Presentations/OWASP Top Ten 2025.pdf":
        "35c1a750ff5691313916b541a766f23ef999263b92ce6004ffceaa66062c5566",
    "2025/Presentations/Owasp Top Ten 2025-Making Of.pdf":
        "5da64a692453bca3a5d7fc495676fd8de23e0ef38b6f40a6c759ae9ff1df07eb",
}  # fmt: skip


def build(out: Path, source: Path) -> None:
    for path, sha256 in DECKS.items():
        (out / Path(path).name).write_bytes(read_checked(source, path, sha256))


def main() -> None:
    build_main("decks", build, [SOURCE])


if __name__ == "__main__":
    main()
