"""Check-set corpus "contracts": fifteen real agreements filed with the SEC as exhibits, from
two public repositories (not the CUAD collection): LexPredict/lexpredict-contraxsuite-samples
(CC BY-SA 4.0) and the EDGAR exhibits in LexPredict/lexpredict-lexnlp's test data. Several
agreements of one kind stand side by side, so the parties' names are what tells them apart:

    two distributor agreements of Western Traction Company (with Liebherr, with Blaw-Knox)
    two consulting agreements of Point Therapeutics (Donald R. Kiepert, Jr.; Richard N. Small)
    two construction management services agreements of Devoto Construction (two Theriac owners)
    three software licences (Akai Studio / Ceres Ventures, redacted; Validian / Ganthet Mobile;
        China Soar / Zhengzhou Xiangtian), a premises lease (Edward Hohman / Post Tension of
        Nevada), four employment agreements (Identive Group, Rock Energy Resources, Isle of
        Capri Casinos, EFJ) and an employment letter (FirstEnergy)

Each source text is checked against its SHA-256; EDGAR page markers and the leading file-name
line are dropped, the wording is kept, and the agreement is written as PDF, DOCX, HTML,
Markdown or plain text (names are a mix of exhibit numbers and descriptive names, as in a
real folder):

    python benchmarks/corpora/build_contracts.py [--out DIR] [--samples DIR] [--lexnlp DIR]

Sources are repository snapshots, bare git directories (HEAD is read) or checkouts; defaults
/work/.mirror/LexPredict+{lexpredict-contraxsuite-samples,lexpredict-lexnlp}/repo, or the
folders named by CITEWISE_SOURCE_CONTRACT_SAMPLES and CITEWISE_SOURCE_LEXNLP.
"""

from __future__ import annotations

import re
from pathlib import Path

from _writers import (
    Item,
    Snapshot,
    build_main,
    read_checked,
    squash,
    write_docx,
    write_html,
    write_markdown,
    write_pdf,
)

MIRROR = Path("/work/.mirror")
EMP = "agreements/employment/"
CON = "agreements/construction/"
LIC = "agreements/software_license/"
# target file: (source repository, path, SHA-256 of the source text, title)
AGREEMENTS: dict[str, tuple[str, str, str, str]] = {
    "ex10-89_distributor-agreement.pdf": (
        "samples",
        f"{CON}1035426_2000-04-04_LIEBHERR CONSTRUCTION EQUIPMENT CO DISTRIBUTOR.txt",
        "0a62e94e35b0513597dd25e3c7a506b998d8d74b37e04ad10172a265737ca965",
        "Liebherr Distributor Agreement",
    ),
    "ex10-83_sales-and-service-agreement.docx": (
        "samples",
        f"{CON}1035426_2000-04-04_BLAW-KNOX CONSTRUCTION EQUIPMENT SALES & SERVICE.txt",
        "ae43894ea98f55a653d195ba711c852e2bb6b3b05d2721e669cee24cf7d31bc6",
        "Blaw-Knox Sales & Service Agreement",
    ),
    "consulting-agreement-kiepert.md": (
        "samples",
        f"{EMP}919745_2007-11-09_CONSULTING AGREEMENT BY AND BETWEEN THE COMPANY AND "
        "DONALD R. KIEPERT, JR..txt",
        "e76f4698bca4b858b6a02ed729dfd4d550dd33ee8af1e36f40081d1690c5a7fd",
        "Consulting Agreement",
    ),
    "ex10-04.html": (
        "samples",
        f"{EMP}919745_2007-11-09_CONSULTING AGREEMENT BY AND BETWEEN THE COMPANY AND "
        "RICHARD N. SMALL.txt",
        "582c0e3a3391618a78a5e2bf2f78e8872927ab54915a24e716dc4c22491cb6f8",
        "Exhibit 10.04",
    ),
    "cms-agreement-littlestown.txt": (
        "samples",
        f"{CON}1056904_2007-02-15_CONSTRUCTION MANAGEMENT SERVICES AGREEMENT.txt",
        "a8e5a733bf926ef51897e1a6aceb14afaa763ee6ca97b3646a005a501fb8efb6",
        "Construction Management Services Agreement",
    ),
    "cms-agreement-lakewood-ranch.docx": (
        "samples",
        f"{CON}1056904_2007-08-03_CONSTRUCTION MANAGEMENT SERVICES AGREEMENT.txt",
        "fdc047e746f2ff4eb89de55066cc9312d2478c7e05176f5f3ea6c13dde1264f9",
        "Construction Management Services Agreement",
    ),
    "ceres_ex101.html": (
        "samples",
        f"{LIC}1002422_2013-05-01_REDACTED EXCLUSIVE SOFTWARE LICENSE AGREEMENT.txt",
        "b85c5da42ece0f0abdd596e6dd8b6e00fe30c15c52d5930e859eb9719a52aa06",
        "Exclusive Software License Agreement",
    ),
    "validian-software-license.pdf": (
        "lexnlp",
        "test_data/1100644_2016-11-21",
        "a5cbe6b37f5d7edcd1f98d5fbb00b03a861d0ec742c9f56cfa222aa9cefb6dfb",
        "Validian Software License Agreement",
    ),
    "license-and-royalty-agreement.txt": (
        "lexnlp",
        "test_data/1582586_2015-08-31",
        "cd1c5725ee84d981dbfa8dc49074ddc35e1bf66df550ff82af894fe1ecaa5bb7",
        "Software License and Royalty Agreement",
    ),
    "lease-1179-center-point-drive.md": (
        "lexnlp",
        "test_data/1205332_2008-05-08_3",
        "66ffd5b5838d22bab68d763f78a6bc2a3069cd4ab58b25f06f5b12fec940dc0a",
        "Lease Agreement",
    ),
    "executive-employment-agreement.pdf": (
        "samples",
        f"{EMP}1036044_2011-05-05_EXECUTIVE EMPLOYMENT AGREEMENT.txt",
        "8fafe3dbc09104ad8ae4ee5e6366f0fce5a04d3ffac642a3a8e90b695c696d01",
        "Executive Employment Agreement",
    ),
    "ex10-3_employment-agreement.docx": (
        "samples",
        f"{EMP}778165_2009-06-09_EMPLOYMENT AGREEMENT WITH TOM S. ELLIOTT.txt",
        "67328bea64c88c16865b2b25eeae8edc090909ccff4bef6a4a3013090f2366d4",
        "Employment Agreement",
    ),
    "goldstein-employment-agreement.txt": (
        "samples",
        f"{EMP}863015_2006-01-06_ROBERT GOLDSTEIN EMPLOYMENT AGREEMENT.txt",
        "153262c147b42865fcd294c4a4e14e100ddfc3f062a45620f9c691e283005dfc",
        "Employment Agreement",
    ),
    "ex10-2_employment-agreement.html": (
        "samples",
        f"{EMP}1023516_2007-11-16_EMPLOYMENT AGREEMENT.txt",
        "6c2789cfe4c0b57247b31faafa2e1937d215c2794c80f86d47ec8e5b1a73bd46",
        "Employment Agreement",
    ),
    "coo-offer-letter.md": (
        "lexnlp",
        "test_data/1031296_2004-11-04",
        "cbc2f934d0b412b16ac2b8fcfbb4a7cf924d6291648c28204ec45945c3ccdac9",
        "Letter Agreement",
    ),
}

_DROP = re.compile(r"^\s*(<PAGE>.*|\S+\.htm|EX-\d+\.\d+|exv\d+w\d+)\s*$", re.I)
_CLAUSE = re.compile(r"^\s*(\d+(\.\d+)*\.?\s|\(?[a-z]{1,3}\)\s|\(\d+\)\s|Section\s+\d|ARTICLE\s)")
_HEADING = re.compile(r"^(\d+(\.\d+)*\.?\s+)?[A-Z0-9][A-Z0-9 ,;:&'\"’“”()./-]{2,70}$")


def clean(text: str) -> str:
    """The source text without EDGAR page markers and file-name lines; non-breaking spaces
    as spaces."""
    lines = [ln.replace("\u00a0", " ").rstrip() for ln in text.splitlines()]
    return "\n".join(ln for ln in lines if not _DROP.match(ln)).strip() + "\n"


def agreement_items(text: str) -> list[Item]:
    """An agreement as headings and paragraphs: blank lines end a paragraph, and so does a
    line that ends a sentence or a clause before a line that starts a numbered clause; a short
    upper-case line (optionally numbered) is a heading."""
    items: list[Item] = []
    for chunk in re.split(r"\n\s*\n", text):
        lines = [ln for ln in chunk.split("\n") if ln.strip()]
        current: list[str] = []
        for line in lines:
            starts_clause = bool(_CLAUSE.match(line))
            ends = bool(current) and current[-1].rstrip().endswith((".", ":", ";"))
            if current and (starts_clause or (ends and line.lstrip()[:1].isupper())):
                items.append(_item(current))
                current = []
            current.append(line)
        if current:
            items.append(_item(current))
    return items


def _item(lines: list[str]) -> Item:
    text = squash(" ".join(lines))
    letters = [c for c in text if c.isalpha()]
    upper = letters and sum(c.isupper() for c in letters) / len(letters) > 0.9
    if upper and len(text.split()) <= 10 and _HEADING.match(text):
        return ("h2", text)
    return ("p", text)


def build(out: Path, samples: Path, lexnlp: Path) -> None:
    sources = {"samples": samples, "lexnlp": lexnlp}
    for name, (repo, path, sha256, title) in AGREEMENTS.items():
        data = read_checked(sources[repo], path, sha256)
        text = clean(data.decode("utf-8"))
        target = out / name
        items = agreement_items(text)
        if target.suffix == ".pdf":
            write_pdf(target, title, items)
        elif target.suffix == ".docx":
            write_docx(target, title, items)
        elif target.suffix == ".html":
            write_html(target, title, [("h1", title), *items])
        elif target.suffix == ".md":
            write_markdown(target, [("h1", title), *items])
        else:
            target.write_text(text, encoding="utf-8")


def main() -> None:
    build_main("contracts", build, [
        Snapshot("--samples", "CITEWISE_SOURCE_CONTRACT_SAMPLES",
                 MIRROR / "LexPredict+lexpredict-contraxsuite-samples" / "repo"),
        Snapshot("--lexnlp", "CITEWISE_SOURCE_LEXNLP",
                 MIRROR / "LexPredict+lexpredict-lexnlp" / "repo"),
    ])  # fmt: skip


if __name__ == "__main__":
    main()
