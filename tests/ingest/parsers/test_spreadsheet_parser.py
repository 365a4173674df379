"""Spreadsheets and CSV/TSV: every visible sheet, rows read with their header, cited by
sheet and row range; formulas as their cached values; big sheets in row blocks."""

from __future__ import annotations

import io
import itertools
from pathlib import Path

import pytest
import xlsxwriter

from citewise.errors import CorruptDocumentError
from citewise.ingest.chunking import chunk_document
from citewise.ingest.parsers import choose_parser, parse_bytes, parse_file
from citewise.ingest.parsers.delimited import stream_delimited
from citewise.ingest.parsers.spreadsheet import spreadsheet_blocks
from format_files import ods, xlsx


def _words(text: str) -> int:
    return len(text.split())


def _span(label: str) -> tuple[int, int]:
    """("rows 2–12" or "row 401") → (first, last)."""
    numbers = label.split(" ")[1].split("–")
    return int(numbers[0]), int(numbers[-1])


def test_xlsx_reads_visible_sheets_with_headers_and_cached_formula_values(tmp_path: Path) -> None:
    doc = parse_file(xlsx(tmp_path / "shop.xlsx"))
    assert (doc.format, doc.title) == ("spreadsheet", "shop")
    assert [(b.heading_path, b.header) for b in doc.blocks] == [
        (("Prices", "rows 2–5"), "Product | Region | Price | Stock"),
        (("Staff", "row 2"), "Name | Role"),
    ]
    prices = doc.blocks[0].text.splitlines()
    assert prices[1] == "Product: Otter plush · Region: South · Price: 24 · Stock: 8"
    assert prices[3] == "Product: Total · Price: 29.75"  # the formula's last calculated value
    assert "hidden-sheet-marker" not in " ".join(b.text for b in doc.blocks)


def test_ods_is_read_like_an_excel_workbook(tmp_path: Path) -> None:
    path = ods(tmp_path / "tides.ods", {
        "Tides": [["Port", "High tide"], ["Whitby", "06:12"], ["Oban", 7.5]],
        "Blank": [],
    })  # fmt: skip
    doc = parse_file(path)
    assert doc.format == "spreadsheet"
    assert [(b.heading_path, b.text) for b in doc.blocks] == [
        (("Tides", "rows 2–3"), "Port: Whitby · High tide: 06:12\nPort: Oban · High tide: 7.5")
    ]


def test_a_big_sheet_is_cut_into_row_blocks_each_cited_by_its_rows(tmp_path: Path) -> None:
    path = tmp_path / "ledger.xlsx"
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Ledger")
    sheet.write_row(0, 0, ["Invoice", "Customer", "Amount"])
    for row in range(1, 401):
        sheet.write_row(row, 0, [f"INV-{row:04d}", f"Customer number {row}", row * 10])
    book.close()
    doc = parse_file(path)
    assert len(doc.blocks) > 10
    spans = [_span(b.heading_path[1]) for b in doc.blocks]
    assert spans[0][0] == 2 and spans[-1][1] == 401
    for before, after in itertools.pairwise(spans):  # contiguous, no row lost
        assert after[0] == before[1] + 1
    chunks = chunk_document(doc, _words)
    assert all(c.text.startswith("Invoice | Customer | Amount\n") for c in chunks.children)
    (hit,) = [c for c in chunks.children if "INV-0250 ·" in c.text]
    first, last = _span(hit.section.removeprefix("Ledger > "))
    assert hit.section.startswith("Ledger > rows ") and first <= 251 <= last


def test_wrong_extensions_are_judged_by_content(tmp_path: Path) -> None:
    data = xlsx(tmp_path / "shop.xlsx").read_bytes()
    assert choose_parser(data, "shop.ods") == "spreadsheet"
    assert choose_parser(data, "shop.csv") == "spreadsheet"
    assert parse_bytes(data, "report.docx").format == "spreadsheet"
    with pytest.raises(CorruptDocumentError, match=r"not a spreadsheet.*plain text"):
        parse_bytes(b"Product,Price\nKelp,3\n", "prices.xlsx")


def test_csv_delimiter_is_judged_from_the_content() -> None:
    semicolons = "Hafen;Tiefe\nKiel;12,5\nRöstock;9\n".encode()
    assert parse_bytes(semicolons, "häfen.csv").blocks[0].text == (
        "Hafen: Kiel · Tiefe: 12,5\nHafen: Röstock · Tiefe: 9"
    )
    tabs = b"Port\tDepth\nKiel\t12\n"
    assert parse_bytes(tabs, "ports.tsv").blocks[0].text == "Port: Kiel · Depth: 12"


def test_a_streamed_csv_gives_the_blocks_of_a_whole_read() -> None:
    rows = "".join(f"V-{i},vessel {i},{i % 7}\r\n" for i in range(3000))
    data = ("Id,Name,Berth\r\n" + rows).encode()
    whole = parse_bytes(data, "fleet.csv").blocks
    assert tuple(stream_delimited(io.BytesIO(data), "fleet.csv", piece_bytes=4096)) == whole


def test_a_streamed_workbook_gives_the_blocks_of_a_whole_read(tmp_path: Path) -> None:
    path = xlsx(tmp_path / "shop.xlsx")
    with path.open("rb") as fh:
        streamed = tuple(spreadsheet_blocks(fh, kind="xlsx"))
    assert streamed == parse_file(path).blocks


def test_openpyxl_rows_read_are_dropped_from_the_sheet_tree() -> None:
    """openpyxl clears a parsed row but keeps it under <sheetData> (memory growing with the
    sheet); the wrapped iterparse removes it once the reader has moved past it."""
    import io
    from xml.etree.ElementTree import iterparse

    from citewise.ingest.parsers._xlsx_prune import _pruning

    ns = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    xml = (
        f'<worksheet xmlns="{ns}"><sheetData>' + "<row><c/></row>" * 3 + "</sheetData></worksheet>"
    )
    seen: dict[str, object] = {}
    for _, element in _pruning(iterparse)(io.BytesIO(xml.encode())):
        if element.tag.endswith("}row"):
            element.clear()  # as openpyxl's reader does
        seen[element.tag.rsplit("}", 1)[1]] = element
    sheet_data = seen["sheetData"]
    assert len(list(sheet_data)) == 0  # type: ignore[call-overload]
    assert [e.tag for e in seen["worksheet"]] == [f"{{{ns}}}sheetData"]  # type: ignore[attr-defined]
