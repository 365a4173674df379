"""Real public files of the newer formats that Debian packages install (install.sh's apt
list: debian-policy, libreoffice-*-nogui); each test skips when its package is missing."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.ingest.parsers import parse_file

POLICY = Path("/usr/share/doc/debian-policy/policy.epub")
INDEX_ODT = Path("/usr/lib/libreoffice/share/template/common/internal/idxexample.odt")
CL_ODS = Path("/usr/lib/libreoffice/program/opencl/cl-test.ods")


def _need(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"{path} is not installed (a Debian package of install.sh)")
    return path


def test_the_debian_policy_epub_reads_its_chapters_in_order() -> None:
    doc = parse_file(_need(POLICY))
    assert (doc.format, doc.title) == ("epub", "Debian Policy Manual")
    sections = list(dict.fromkeys(b.heading_path[:2] for b in doc.blocks if b.heading_path))
    assert ("1. About this manual", "1.1. Scope") in sections
    chapters = [s[0] for s in sections if s[0][:2].rstrip(".").isdigit()]
    numbers = [int(c.split(".")[0]) for c in dict.fromkeys(chapters)]
    assert numbers[:5] == [1, 2, 3, 4, 5]  # spine order
    assert any("Debian Policy version" in b.text for b in doc.blocks)


def test_libreoffice_samples_read_as_text_and_sheet() -> None:
    odt = parse_file(_need(INDEX_ODT))
    assert ("HEADING1", "HEADING11") in [b.heading_path for b in odt.blocks]
    ods = parse_file(_need(CL_ODS))
    assert ods.blocks[0].heading_path == ("OpenCLTest", "rows 2–6")
    assert "Tolerance" in ods.blocks[0].text
