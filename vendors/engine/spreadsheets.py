"""Rows of an uploaded XLSX or CSV sheet as text, read within fixed caps.

Pure, no Django: bytes in, rows of strings out, or ``SheetReadError`` saying what to
fix. The file type is decided by content: a ZIP signature means XLSX (opened with
openpyxl), anything else must decode as UTF-8 (with or without BOM) or GBK text, the
two encodings Excel writes CSV in on Chinese Windows. CSV is read with the standard
``csv`` module rather than pandas so that ragged rows become per-row errors for the
caller instead of one parser failure, and row numbers stay exact.

Small uploads can be expensive to read: a 1.6 KB XLSX declaring the dimension
``A1:XFD1048576`` with one cell in row 1,048,576 made openpyxl pad a million rows of
16,384 cells (5 GB). So the declared dimension is never trusted; the XML tags of the
whole workbook are counted before openpyxl opens it; the first sheet's XML is scanned
for values beyond MAX_SHEET_ROWS rows and MAX_COLUMNS columns before its rows are
loaded; only that range is then read; and reading stops after a time budget.
"""

from __future__ import annotations

import csv
import io
import string
import zipfile
from collections.abc import Callable
from typing import Any, BinaryIO
from xml.parsers import expat

import openpyxl
from openpyxl.utils.cell import column_index_from_string, get_column_letter

__all__ = ["MAX_COLUMNS", "MAX_ROWS", "SheetReadError", "read_sheet_rows"]

MAX_UNZIPPED_BYTES = 50 * 1024 * 1024  # guards against zip bombs
MAX_ROWS = 5000  # data rows below the header
MAX_SHEET_ROWS = MAX_ROWS + 1  # no value may sit below this row...
MAX_COLUMNS = 30  # ...nor right of this column (AD)
# A full 5,001 x 30 sheet saved by openpyxl, shared strings included, has about
# 640,000 tags; no line-item workbook needs more.
MAX_XML_TAGS = 1_000_000
# Excel's 16,384 columns (A to XFD), each cell with a value element, and then some.
MAX_ELEMENTS_PER_ROW = 65_536

_CHUNK_BYTES = 64 * 1024
_ZIP_MAGIC = b"PK\x03\x04"
_SHEET_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_ROW_TAG = _SHEET_NS + "row"
_CELL_TAG = _SHEET_NS + "c"
_VALUE_TAGS = frozenset({_SHEET_NS + "v", _SHEET_NS + "is"})


#: The caps a message about an oversized sheet states.
_CAPS = {"max_rows": MAX_ROWS, "max_columns": MAX_COLUMNS}


class SheetReadError(ValueError):
    """The upload cannot be read as a sheet; the message tells the user why (in
    English; ``code`` and ``params`` let the app say it in the user's language)."""

    def __init__(
        self, message: str, code: str = "", params: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.params = dict(params or {})


def read_sheet_rows(
    data: bytes, *, time_budget_s: float, clock: Callable[[], float]
) -> list[list[str]]:
    """The first sheet's rows (header = row 1), each MAX_COLUMNS cells wide for XLSX.

    ``clock`` measures the budget (``time.monotonic``; tests pass a fake one).
    """
    budget = _TimeBudget(time_budget_s, clock)
    if data.startswith(_ZIP_MAGIC):
        return _xlsx_rows(data, budget)
    return _csv_rows(data, budget)


def _cell_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


class _TimeBudget:
    """Seconds one upload may take to read. Checked between chunks and rows: a file
    within every size cap can still be slow to parse, and openpyxl takes no timeout."""

    def __init__(self, seconds: float, clock: Callable[[], float]) -> None:
        self.seconds = seconds
        self.clock = clock
        self.deadline = clock() + seconds

    def check(self) -> None:
        if self.clock() > self.deadline:
            raise SheetReadError(
                f"the file took more than {self.seconds:g} s to read; import at most "
                f"{MAX_ROWS} line items and {MAX_COLUMNS} columns",
                "too_slow",
                {"seconds": self.seconds, **_CAPS},
            )


def _column_label(number: int) -> str:
    try:
        return get_column_letter(number)
    except ValueError:
        return str(number)


def _check_within_caps(row: int, column: int) -> None:
    """Refuse a value outside rows 1..MAX_SHEET_ROWS and columns 1..MAX_COLUMNS."""
    if row > MAX_SHEET_ROWS:
        raise SheetReadError(
            f"the sheet has data in row {row}; at most {MAX_SHEET_ROWS} rows are read "
            f"(a header and {MAX_ROWS} line items): delete the rows below",
            "too_many_rows",
            {"row": row, **_CAPS},
        )
    if column > MAX_COLUMNS:
        raise SheetReadError(
            f"the sheet has data in column {_column_label(column)}; at most "
            f"{MAX_COLUMNS} columns (A to {_column_label(MAX_COLUMNS)}) are read: "
            "delete the columns to the right",
            "too_many_columns",
            {"column": _column_label(column), **_CAPS},
        )


def _check_xml_tag_count(archive: zipfile.ZipFile, budget: _TimeBudget) -> None:
    """Refuse a workbook holding more XML tags than a full sheet needs, before
    openpyxl parses any: it reads some parts whole when opening (shared strings,
    styles, every sheet without a <dimension>), and every tag costs time and memory."""
    tags = 0
    for member in archive.infolist():
        with archive.open(member) as stream:
            while chunk := stream.read(_CHUNK_BYTES):
                tags += chunk.count(b"<")
                if tags > MAX_XML_TAGS:
                    raise SheetReadError(
                        f"the workbook has more than {MAX_XML_TAGS:,} XML tags; "
                        f"import at most {MAX_ROWS} line items and {MAX_COLUMNS} "
                        "columns, without other sheets",
                        "too_many_tags",
                        {"tags": MAX_XML_TAGS, **_CAPS},
                    )
                budget.check()


class _UsedRangeScan:
    """One pass of expat over the sheet XML, building nothing, that refuses a value
    beyond the caps before openpyxl loads a row. The declared <dimension> is ignored:
    positions are computed as openpyxl's reader computes them (a row's or cell's
    ``r``, else one after the previous). A cell holds a value when it has a <v> or
    <is> element, as openpyxl reads it. Counting the elements between row starts also
    bounds what openpyxl holds in memory for one row."""

    def __init__(self) -> None:
        self.row = 0
        self.column = 0
        self.elements_in_row = 0

    def start(self, name: str, attributes: dict[str, str]) -> None:
        if name == _CELL_TAG:
            reference = attributes.get("r")
            self.column = _column_index(reference) if reference else self.column + 1
        elif name in _VALUE_TAGS:
            _check_within_caps(self.row, self.column)
        elif name == _ROW_TAG:
            self.row = _row_number(attributes.get("r"), self.row)
            self.column = self.elements_in_row = 0
        self.elements_in_row += 1
        if self.elements_in_row > MAX_ELEMENTS_PER_ROW:
            raise SheetReadError(
                f"row {self.row} has more than {MAX_ELEMENTS_PER_ROW:,} XML elements",
                "row_too_wide",
                {"row": self.row, "elements": MAX_ELEMENTS_PER_ROW},
            )

    def run(self, stream: BinaryIO, budget: _TimeBudget) -> None:
        parser = expat.ParserCreate(namespace_separator="}")
        parser.StartElementHandler = self.start
        while chunk := stream.read(_CHUNK_BYTES):
            parser.Parse(chunk, False)
            budget.check()
        parser.Parse(b"", True)


def _column_index(reference: str) -> int:
    """The column of a cell reference such as "AB12" (openpyxl rejects what this
    rejects; references without digits fail in openpyxl when it reads the row)."""
    return column_index_from_string(reference.rstrip(string.digits))


def _row_number(text: str | None, previous: int) -> int:
    """A row's number as openpyxl's reader takes it ("5" or "5.0"; absent: next)."""
    if text is None:
        return previous + 1
    try:
        return int(text)
    except ValueError:
        number = float(text)
        if not number.is_integer():
            raise
        return int(number)


def _xlsx_rows(data: bytes, budget: _TimeBudget) -> list[list[str]]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as exc:
        raise SheetReadError(
            "the file is not a valid XLSX workbook", "not_xlsx"
        ) from exc
    with archive:
        names = archive.namelist()
        if "[Content_Types].xml" not in names or not any(
            n.startswith("xl/") for n in names
        ):
            raise SheetReadError(
                "the file is a ZIP archive but not an XLSX workbook", "not_xlsx"
            )
        if sum(info.file_size for info in archive.infolist()) > MAX_UNZIPPED_BYTES:
            raise SheetReadError(
                "the workbook is too large once unpacked", "too_large_unpacked"
            )
        try:
            return _read_first_sheet(archive, data, budget)
        except SheetReadError:
            raise
        except Exception as exc:  # zipfile, expat and openpyxl raise many types
            raise SheetReadError(
                "the XLSX workbook could not be read", "not_xlsx"
            ) from exc


def _read_first_sheet(
    archive: zipfile.ZipFile, data: bytes, budget: _TimeBudget
) -> list[list[str]]:
    """The first sheet's rows within the caps, each MAX_COLUMNS wide."""
    _check_xml_tag_count(archive, budget)
    workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    try:
        if not workbook.worksheets:
            raise SheetReadError("the workbook has no worksheet", "no_worksheet")
        sheet = workbook.worksheets[0]
        sheet.reset_dimensions()  # the declared <dimension> is never trusted
        # openpyxl exposes no public name for the sheet's part (pinned at 3.1.5).
        with archive.open(sheet._worksheet_path) as stream:
            _UsedRangeScan().run(stream, budget)
        rows = []
        for values in sheet.iter_rows(
            max_row=MAX_SHEET_ROWS, max_col=MAX_COLUMNS, values_only=True
        ):
            rows.append([_cell_text(value) for value in values])
            budget.check()
        return rows
    finally:
        workbook.close()


def _decode_text(data: bytes) -> str:
    if b"\x00" in data:
        raise SheetReadError(
            "the file is neither XLSX nor a CSV text file", "not_a_sheet"
        )
    for encoding in ("utf-8-sig", "gbk"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise SheetReadError("the CSV is not UTF-8 or GBK encoded", "bad_encoding")


def _csv_rows(data: bytes, budget: _TimeBudget) -> list[list[str]]:
    """Rows of a CSV within the caps; one record is one spreadsheet row even if a
    quoted cell spans lines, so record numbers match what the user sees in Excel."""
    rows: list[list[str]] = []
    records = csv.reader(io.StringIO(_decode_text(data), newline=""))
    try:
        for number, record in enumerate(records, start=1):
            if number % 256 == 0:  # blank lines are cheap; the clock is not
                budget.check()
            if not any(record):
                if number <= MAX_SHEET_ROWS:
                    rows.append([])
                continue
            cells = [cell.strip() for cell in record]
            last = max((i for i, cell in enumerate(cells, start=1) if cell), default=0)
            if last:
                _check_within_caps(number, last)
            if number <= MAX_SHEET_ROWS:
                rows.append(cells[:MAX_COLUMNS])
    except csv.Error as exc:
        raise SheetReadError(f"the CSV could not be parsed: {exc}") from exc
    return rows
