"""Spreadsheet parser: every visible worksheet, rows read with their header (see `_rows`),
formulas as the values the workbook last calculated, hidden and chart sheets left out.

Excel workbooks (.xlsx/.xlsm) are read with openpyxl in read-only mode, which parses a sheet's
XML as a stream: memory stays flat whatever the sheet's size (python-calamine, measured on a
38 MB workbook, held 478 MB; openpyxl 110 MB). OpenDocument (.ods) and legacy Excel (.xls)
sheets are read with python-calamine, which loads one sheet at a time.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any, BinaryIO

from citewise.errors import CorruptDocumentError, EncryptedDocumentError, TooLargeError
from citewise.ingest.parsers._common import finish, stem
from citewise.ingest.parsers._rows import Cell, row_blocks
from citewise.ingest.parsers._sniff import sniff
from citewise.text.sizes import human_size
from citewise.types import Block, ParsedDocument

NO_TEXT = "the spreadsheet has no visible sheet with any value in it"
# openpyxl keeps a workbook's shared strings in memory: their part is capped
MAX_SHARED_STRINGS = 64 * 2**20
MAX_CELLS = 4_000_000  # an OpenDocument sheet's extent (calamine holds it whole)
_TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
_OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
Source = bytes | Path | BinaryIO  # a file object: its position follows the reading


def _xlsx_sheets(source: Source, stack: ExitStack) -> Iterator[tuple[str, int, Iterator[Any]]]:
    import openpyxl

    from citewise.ingest.parsers._xlsx_prune import prune_finished_rows

    prune_finished_rows()
    _check_shared_strings(source)
    try:
        book = openpyxl.load_workbook(
            _readable(source), read_only=True, data_only=True, keep_links=False
        )
    except Exception as exc:  # openpyxl raises what its XML and zip readers raise
        raise CorruptDocumentError(f"the Excel workbook cannot be opened ({exc})") from exc
    stack.callback(book.close)
    for sheet in book.worksheets:
        if getattr(sheet, "sheet_state", "visible") != "visible":
            continue
        # rows as stored: a declared extent ("A1:XFD1048576") would pad every row to 16,384
        # cells and add a million empty rows at the end
        sheet.reset_dimensions()
        yield sheet.title, 1, sheet.iter_rows(values_only=True)


def _check_shared_strings(source: Source) -> None:
    try:
        with zipfile.ZipFile(_readable(source)) as z:
            info = next((i for i in z.infolist() if i.filename == "xl/sharedStrings.xml"), None)
    except (zipfile.BadZipFile, OSError) as exc:
        raise CorruptDocumentError(f"the ZIP container is damaged ({exc})") from exc
    if info is not None and info.file_size > MAX_SHARED_STRINGS:
        raise TooLargeError(
            f"the workbook's shared strings take {human_size(info.file_size)}, over the limit "
            f"of {human_size(MAX_SHARED_STRINGS)}"
        )


def _readable(source: Source) -> Path | BinaryIO:
    return io.BytesIO(source) if isinstance(source, bytes) else source


def _check_ods_extent(source: Source) -> None:
    """Refuses an OpenDocument sheet whose cells span more than `MAX_CELLS`: calamine holds a
    sheet as its full rectangle, and a row "repeated" a million times takes a few bytes."""
    import lxml.etree

    try:
        with zipfile.ZipFile(_readable(source)) as archive, archive.open("content.xml") as xml:
            for _, table in lxml.etree.iterparse(xml, tag=f"{{{_TABLE}}}table", huge_tree=False):
                rows, cols = _extent(table)
                table.clear()
                if rows * cols > MAX_CELLS:
                    raise TooLargeError(
                        f"a sheet spans {rows:,} rows by {cols:,} columns, over the limit of "
                        f"{MAX_CELLS:,} cells"
                    )
    except (KeyError, zipfile.BadZipFile, lxml.etree.XMLSyntaxError, OSError) as exc:
        raise CorruptDocumentError(f"the OpenDocument spreadsheet is damaged ({exc})") from exc


def _extent(table: Any) -> tuple[int, int]:
    """The rows and columns up to the last cell holding a value, repeats counted."""
    row = last_row = last_col = 0
    for tr in table.iter(f"{{{_TABLE}}}table-row"):
        repeat_rows = int(tr.get(f"{{{_TABLE}}}number-rows-repeated", "1") or 1)
        col = 0
        for cell in tr:
            repeat = int(cell.get(f"{{{_TABLE}}}number-columns-repeated", "1") or 1)
            col += repeat
            if len(cell) or cell.get(f"{{{_OFFICE}}}value-type"):
                last_col = max(last_col, col)
                last_row = row + repeat_rows
        row += repeat_rows
    return last_row, last_col


def _calamine_sheets(source: Source, stack: ExitStack) -> Iterator[tuple[str, int, Iterator[Any]]]:
    import python_calamine as pc

    try:
        book = pc.CalamineWorkbook.from_object(_readable(source))
    except pc.PasswordError as exc:
        raise EncryptedDocumentError(
            "the workbook is encrypted with a password; remove the password and save it again"
        ) from exc
    except (pc.CalamineError, ValueError, OSError) as exc:
        raise CorruptDocumentError(f"the spreadsheet cannot be opened ({exc})") from exc
    stack.callback(book.close)
    for meta in book.sheets_metadata:
        if meta.visible != pc.SheetVisibleEnum.Visible or meta.typ != pc.SheetTypeEnum.WorkSheet:
            continue
        try:
            sheet = book.get_sheet_by_name(meta.name)
        except (pc.CalamineError, ValueError) as exc:
            raise CorruptDocumentError(f"the sheet {meta.name!r} cannot be read ({exc})") from exc
        start = sheet.start
        yield meta.name, (start[0] + 1 if start else 1), sheet.iter_rows()


def spreadsheet_blocks(source: Source, *, kind: str = "") -> Iterator[Block]:
    """Each visible sheet's row blocks in workbook order, read lazily; `kind` is the
    sniffed format ("xlsx", "ods", "xls"), judged from the bytes when not given."""
    if not kind:
        kind = sniff(source if isinstance(source, bytes) else _all_bytes(source))
    reader = _xlsx_sheets if kind == "xlsx" else _calamine_sheets
    if kind == "ods":
        _check_ods_extent(source)
    with ExitStack() as stack:
        for name, first_row, rows in reader(source, stack):
            yield from row_blocks(_guarded(rows, name), name, first_row=first_row)


def _guarded(rows: Iterator[Sequence[Cell]], sheet: str) -> Iterator[Sequence[Cell]]:
    """The rows, with a damaged sheet reported as such instead of a reader's own error."""
    try:
        yield from rows
    except (ValueError, KeyError, OSError, zipfile.BadZipFile, EOFError) as exc:
        raise CorruptDocumentError(f"the sheet {sheet!r} is damaged ({exc})") from exc
    except Exception as exc:
        if type(exc).__module__.startswith(("python_calamine", "xml.", "lxml")):
            raise CorruptDocumentError(f"the sheet {sheet!r} is damaged ({exc})") from exc
        raise


def _all_bytes(source: Path | BinaryIO) -> bytes:
    if isinstance(source, Path):
        return source.read_bytes()
    data = source.read()
    source.seek(0)
    return data


def parse_spreadsheet(data: bytes, name: str) -> ParsedDocument:
    return finish(
        title=stem(name), blocks=spreadsheet_blocks(data), fmt="spreadsheet", no_text=NO_TEXT
    )
