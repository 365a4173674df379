"""Tables on PDF pages read as rows (a label, each value with its column header), on a
statement drawn with reportlab at run time and on plain line values; their chunks' line
rectangles still land on the rows."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from reportlab.pdfgen import canvas

from citewise.ingest.chunking import ChunkingOptions, chunk_document
from citewise.ingest.parsers import parse_file
from citewise.ingest.parsers._pdf_layout import Line, Word
from citewise.ingest.parsers._pdf_tables import Table, looks_tabular, split_tables
from citewise.ingest.pdf_positions import chunk_line_boxes, page_order_index
from citewise.types.positions import alnum_index

COLUMNS = (400, 470, 540)  # right edges of the figure columns
PROSE_ABOVE = [
    "Our cash flows were strong in 2018, as the table below shows for the",
    "three years ended December 31, with capital spending up by 204 million.",
]
STATEMENT = [
    ("Cash Flows from Investing Activities", ()),
    ("Purchases of property, plant and equipment (PP&E)", ("(1,577)", "(1,373)", "(1,420)")),
    ("Proceeds from sale of PP&E and other assets", ("262", "49", "58")),
    ("Acquisitions, net of cash acquired", ("13", "(2,023)", "(16)")),
    ("Proceeds from maturities and sale of marketable", ()),
    ("   securities and investments", ("2,497", "1,354", "1,247")),
    ("Net cash provided by (used in) investing activities", ("$ 222", "$ (3,086)", "$ (1,403)")),
]
PROSE_BELOW = "The accompanying notes are an integral part of this statement."


def _statement_pdf(path: Path, *, prose_above: bool = True) -> Path:
    c = canvas.Canvas(str(path))
    c.setFont("Helvetica-Bold", 14)
    c.drawString(72, 780, "Consolidated Statement of Cash Flows")
    c.setFont("Helvetica", 10)
    y = 750
    for line in PROSE_ABOVE if prose_above else []:
        c.drawString(72, y, line)
        y -= 13
    y -= 14
    c.drawString(72, y, "(Millions)")
    for right, year in zip(COLUMNS, ("2018", "2017", "2016"), strict=True):
        c.drawRightString(right, y, year)
    for label, values in STATEMENT:
        y -= 14
        c.drawString(72, y, label)
        for right, value in zip(COLUMNS, values, strict=False):
            c.drawRightString(right, y, value)
    c.drawString(72, y - 28, PROSE_BELOW)
    c.showPage()
    c.save()
    return path


def test_a_statement_reads_as_rows_with_their_column_headers(tmp_path: Path) -> None:
    doc = parse_file(_statement_pdf(tmp_path / "cash.pdf"))
    (table,) = [b for b in doc.blocks if b.kind == "table"]
    assert table.page == 1
    assert table.header == "(Millions) | 2018 | 2017 | 2016"
    assert table.text.split("\n") == [
        "Cash Flows from Investing Activities",
        "Purchases of property, plant and equipment (PP&E) | 2018: (1,577) | 2017: (1,373)"
        " | 2016: (1,420)",
        "Proceeds from sale of PP&E and other assets | 2018: 262 | 2017: 49 | 2016: 58",
        "Acquisitions, net of cash acquired | 2018: 13 | 2017: (2,023) | 2016: (16)",
        "Proceeds from maturities and sale of marketable securities and investments"
        " | 2018: 2,497 | 2017: 1,354 | 2016: 1,247",
        "Net cash provided by (used in) investing activities | 2018: $222 | 2017: $(3,086)"
        " | 2016: $(1,403)",
    ]


def test_a_title_right_above_a_table_joins_its_header(tmp_path: Path) -> None:
    doc = parse_file(_statement_pdf(tmp_path / "cash.pdf", prose_above=False))
    (table,) = [b for b in doc.blocks if b.kind == "table"]
    assert table.header == "Consolidated Statement of Cash Flows | (Millions) | 2018 | 2017 | 2016"


def test_text_around_a_table_stays_prose(tmp_path: Path) -> None:
    doc = parse_file(_statement_pdf(tmp_path / "cash.pdf"))
    texts = [b.text for b in doc.blocks if b.kind == "text"]
    assert " ".join(PROSE_ABOVE) in texts
    assert PROSE_BELOW in texts


def test_table_rows_keep_their_line_rectangles(tmp_path: Path) -> None:
    pdf = _statement_pdf(tmp_path / "cash.pdf")
    doc = parse_file(pdf)
    chunked = chunk_document(doc, lambda text: len(text.split()), ChunkingOptions(child_tokens=400))
    (child,) = [c for c in chunked.children if "(1,577)" in c.text]
    (boxes,) = chunk_line_boxes(pdf, [child])
    row = next(b for b in boxes if "(1,577)" in child.text[b.start : b.end])
    baseline = 750 - 2 * 13 - 14 - 2 * 14  # the PP&E row
    assert row.y0 <= baseline + 1 <= row.y1
    assert row.x0 < 80 and row.x1 >= COLUMNS[-1] - 8  # from the label to the last figure
    assert len({round(b.y0) for b in boxes}) >= len(STATEMENT)  # every row is marked


def test_column_names_are_left_out_of_the_page_lookup() -> None:
    row = "Net sales | 2020: $519,926 | 2019: $510,329"
    chars, offsets = page_order_index(row)
    assert chars == alnum_index("Net sales $519,926 $510,329")[0]
    assert row[offsets[-1]] == "9"
    assert page_order_index("Note 3: leases")[0] == alnum_index("Note 3: leases")[0]


def _line(text: str, bottom: float, cells: list[tuple[str, float]]) -> Line:
    """A line of `cells`, each (text, left edge), words 6 units per character."""
    words = []
    for cell, left in cells:
        x = left
        for word in cell.split():
            words.append(Word(word, x, x + 6 * len(word)))
            x += 6 * len(word) + 3
    return Line(text, bottom + 10, bottom, words[0].left, words[-1].right, 10, words=tuple(words))


def test_prose_ending_in_numbers_is_not_a_table() -> None:
    lines = [
        _line(t, 700 - 12 * i, [(t, 72)])
        for i, t in enumerate(
            ["Sales grew in 2018 2017 and 2016", "by 12 14 16", "units 1,200 1,400", "ok 3 4"]
        )
    ]
    assert split_tables(lines) == [lines]


def test_rows_without_a_header_keep_bare_values() -> None:
    rows = [("Land", "824", "769"), ("Buildings", "12,393", "10,800"), ("Leases", "3,659", "3")]
    lines = [
        _line(" ".join(r), 700 - 12 * i, [(r[0], 72), (r[1], 400), (r[2], 470)])
        for i, r in enumerate(rows)
    ]
    (table,) = split_tables(lines)
    assert isinstance(table, Table)
    assert table.rows == ("Land | 824 | 769", "Buildings | 12,393 | 10,800", "Leases | 3,659 | 3")


def test_only_pages_with_rows_of_figures_look_tabular() -> None:
    assert looks_tabular(["Net sales $ 1 $ 2", "Cost 3 4", "Other (5) (6)"])
    assert not looks_tabular(["In 2018 we sold 4 units.", "Page 3", "Revenue rose 2%"])


def test_numbered_equations_and_code_are_not_tables() -> None:
    equations = [
        _line(f"Ax = b{i} ({i}.{i})", 700 - 12 * i, [(f"Ax = b{i}", 72), (f"({i}.{i})", 500)])
        for i in range(1, 5)
    ]
    assert split_tables(equations) == [equations]
    code = [
        replace(
            _line(
                f"x = {i} {i * 2} {i * 3}",
                700 - 12 * i,
                [(f"x = {i}", 72), (str(i * 2), 300), (str(i * 3), 400)],
            ),
            mono=True,
        )
        for i in range(1, 5)
    ]
    assert split_tables(code) == [code]


def test_a_single_column_of_negative_figures_is_a_table() -> None:
    rows = [("Tax benefit", "(37)"), ("Settlements", "(3,226)"), ("Balance", "19,739")]
    lines = [
        _line(" ".join(r), 700 - 12 * i, [(r[0], 72), (r[1], 400)]) for i, r in enumerate(rows)
    ]
    (table,) = split_tables(lines)
    assert isinstance(table, Table)
    assert table.rows == ("Tax benefit | (37)", "Settlements | (3,226)", "Balance | 19,739")


def test_a_header_read_as_one_line_over_two_baselines_names_its_columns() -> None:
    """pdfium may read 'As of December 31,' and the years below it as one line."""
    header = Line(
        "As of December 31, 2017 2016", 720, 710, 380, 560, 10,
        words=(Word("As", 380, 392, 722), Word("of", 395, 405, 722),
               Word("December", 408, 450, 722), Word("31,", 453, 468, 722),
               Word("2017", 376, 400, 710), Word("2016", 536, 560, 710)),
    )  # fmt: skip
    rows = [("Total current liabilities", "5,466,312", "4,586,657"), ("Other", "1", "2"),
            ("Total liabilities", "15,430,786", "10,906,810")]  # fmt: skip
    body = [
        _line(" ".join(r), 690 - 12 * i, [(r[0], 72), (r[1], 346), (r[2], 500)])
        for i, r in enumerate(rows)
    ]
    (table,) = split_tables([header, *body])
    assert isinstance(table, Table)
    assert table.header == "As of December 31, | 2017 | 2016"
    assert table.rows[0] == "Total current liabilities | 2017: 5,466,312 | 2016: 4,586,657"
