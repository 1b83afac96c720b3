"""Import a bid's line items from an XLSX or CSV upload, and build the blank template.

Pure engine, no Django: bytes in, frozen rows out. All-or-nothing: every bad row is
reported with its spreadsheet row number (header = row 1) in one ``LineItemImportError``
and nothing is returned, so a half-imported bid never reaches the comparison.

The file type is decided by content, not by the name a browser sent; reading the
sheet within its row, column, size and time caps is ``vendors.engine.spreadsheets``' job.
"""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any, BinaryIO

import openpyxl

from .spreadsheets import SheetReadError, read_sheet_rows

__all__ = [
    "CATEGORIES",
    "LineItemImportError",
    "LineItemRow",
    "RowError",
    "SheetVocabulary",
    "build_template_csv",
    "build_template_xlsx",
    "escape_cell",
    "parse_line_items",
]

CATEGORIES = (
    "gpu_servers",
    "network",
    "storage",
    "software",
    "installation",
    "support",
    "power_cooling",
    "training",
    "other",
)
REQUIRED_COLUMNS = ("category", "description", "quantity", "unit_price", "recurring")
#: Optional: the contract years a line covers (a support line for years 4-5) and the
#: other categories its price covers (a 服务包 incl. network, storage, installation).
OPTIONAL_COLUMNS = ("year_from", "year_to", "scope")
COLUMNS = REQUIRED_COLUMNS + OPTIONAL_COLUMNS
LINE_TERM_MAX_YEAR = 30
MAX_UPLOAD_BYTES = 5 * 1024 * 1024
IMPORT_TIME_BUDGET_S = 10.0

_OLE_MAGIC = b"\xd0\xcf\x11\xe0"  # legacy .xls

_HEADER_ALIASES = {
    "category": "category", "类别": "category", "类型": "category", "分类": "category",
    "description": "description", "描述": "description", "说明": "description",
    "名称": "description",
    "quantity": "quantity", "qty": "quantity", "数量": "quantity",
    "unit_price": "unit_price", "unit price": "unit_price", "单价": "unit_price",
    "单价(元)": "unit_price", "单价（元）": "unit_price",
    "recurring": "recurring", "是否年付": "recurring", "按年": "recurring",
    "是否按年": "recurring", "年付": "recurring",
    "year_from": "year_from", "from year": "year_from", "起始年": "year_from",
    "自第几年": "year_from", "year_to": "year_to", "to year": "year_to",
    "截止年": "year_to", "至第几年": "year_to",
    "scope": "scope", "also covers": "scope", "包含": "scope", "含": "scope",
    "范围": "scope", "同时包含": "scope",
}  # fmt: skip
_CATEGORY_ALIASES = {
    "gpu服务器": "gpu_servers", "gpu 服务器": "gpu_servers", "服务器": "gpu_servers",
    "网络": "network", "存储": "storage", "软件": "software",
    "安装": "installation", "安装实施": "installation", "实施": "installation",
    "支持": "support", "维保": "support", "运维": "support", "技术支持": "support",
    "电力制冷": "power_cooling", "供电制冷": "power_cooling", "电力与制冷": "power_cooling",
    "培训": "training", "员工培训": "training", "训练": "training",  # earlier label
    "其他": "other", "其它": "other",
}  # fmt: skip
_TRUE = {"yes", "true", "1", "是", "y"}
_FALSE = {"no", "false", "0", "否", "n"}
_FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True)
class SheetVocabulary:
    """Labels a sheet may use besides the codes, lower-cased: the app passes the
    column and value labels of every language it speaks (the engine knows none)."""

    headers: Mapping[str, str] = field(default_factory=dict)  # label -> column code
    #: column code -> {label -> value code}, e.g. {"category": {"network": "network"}}
    values: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def column(self, header: str) -> str | None:
        key = header.strip().lstrip("\ufeff").lower()
        return _HEADER_ALIASES.get(key) or self.headers.get(key)

    def code(self, column: str, text: str) -> str:
        """The code a cell's label stands for; anything else is left as it is."""
        return self.values.get(column, {}).get(text.strip().lower(), text)


@dataclass(frozen=True)
class RowError:
    """One problem of an upload. ``message`` is English (logs); ``code`` and
    ``params`` let the app say it in the user's language (vendors/import_errors.py)."""

    row: int  # spreadsheet row number, header = 1
    column: str  # canonical column name, "" for the whole row/file
    message: str
    code: str = ""
    params: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def __str__(self) -> str:
        where = f"row {self.row}" + (f", {self.column}" if self.column else "")
        return f"{where}: {self.message}"


class LineItemImportError(ValueError):
    """The upload cannot be imported; ``errors`` lists every problem found."""

    def __init__(self, errors: list[RowError]) -> None:
        self.errors = errors
        super().__init__("; ".join(str(e) for e in errors[:20]))


@dataclass(frozen=True)
class LineItemRow:
    row: int
    category: str
    description: str
    quantity: Decimal
    unit_price: Decimal
    recurring: bool
    year_from: int | None = None
    year_to: int | None = None
    scope: tuple[str, ...] = ()
    amount: Decimal = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "amount", self.quantity * self.unit_price)


def _file_error(
    message: str, code: str, params: dict[str, Any] | None = None
) -> LineItemImportError:
    return LineItemImportError([RowError(0, "", message, code, params or {})])


def _map_header(
    header: list[str], vocabulary: SheetVocabulary
) -> tuple[dict[str, int], list[RowError]]:
    positions: dict[str, int] = {}
    errors: list[RowError] = []
    for index, raw in enumerate(header):
        name = vocabulary.column(raw)
        if name is None:
            continue  # extra columns (totals, notes) are ignored
        if name in positions:
            errors.append(
                RowError(
                    1,
                    name,
                    f"column appears twice ({raw!r})",
                    "duplicate_column",
                    {"header": raw},
                )
            )
        positions[name] = index
    for name in REQUIRED_COLUMNS:
        if name not in positions:
            errors.append(RowError(1, name, "missing column", "missing_column"))
    return positions, errors


def _decimal(text: str) -> Decimal | None:
    cleaned = text.replace(",", "").replace("¥", "").replace("￥", "").strip()
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        return None
    return value if value.is_finite() else None


def _parse_row(
    number: int, cells: dict[str, str]
) -> tuple[LineItemRow | None, list[RowError]]:
    errors: list[RowError] = []
    raw_category = cells["category"].lower()
    category = _CATEGORY_ALIASES.get(
        raw_category, raw_category.replace(" ", "_").replace("-", "_")
    )
    if category not in CATEGORIES:
        errors.append(
            RowError(
                number,
                "category",
                f"unknown category {cells['category']!r}; use one of {', '.join(CATEGORIES)}",
                "unknown_category",
                {"value": cells["category"]},
            )
        )
    description = cells["description"]
    if not description:
        errors.append(RowError(number, "description", "required", "required"))
    quantity = _decimal(cells["quantity"])
    if quantity is None or quantity <= 0:
        errors.append(
            RowError(
                number,
                "quantity",
                f"must be a number above 0, got {cells['quantity']!r}",
                "not_positive",
                {"value": cells["quantity"]},
            )
        )
    unit_price = _decimal(cells["unit_price"])
    if unit_price is None or unit_price < 0:
        errors.append(
            RowError(
                number,
                "unit_price",
                f"must be a number of at least 0, got {cells['unit_price']!r}",
                "negative",
                {"value": cells["unit_price"]},
            )
        )
    flag = cells["recurring"].lower()
    if flag not in _TRUE | _FALSE:
        errors.append(
            RowError(
                number,
                "recurring",
                f"must be yes/no, true/false, 1/0 or 是/否, got {cells['recurring']!r}",
                "not_a_flag",
                {"value": cells["recurring"]},
            )
        )
    year_from, year_to, scope = _parse_terms(number, cells, errors)
    if errors or quantity is None or unit_price is None:
        return None, errors
    row = LineItemRow(
        number,
        category,
        description,
        quantity,
        unit_price,
        flag in _TRUE,
        year_from,
        year_to,
        scope,
    )
    return row, []


def _year(number: int, column: str, text: str, errors: list[RowError]) -> int | None:
    if not text.strip():
        return None
    value = _decimal(text)
    if (
        value is None
        or value != value.to_integral()
        or not 1 <= value <= LINE_TERM_MAX_YEAR
    ):
        errors.append(
            RowError(
                number,
                column,
                f"must be a whole year from 1 to {LINE_TERM_MAX_YEAR}, got {text!r}",
                "not_a_year",
                {"value": text, "max": LINE_TERM_MAX_YEAR},
            )
        )
        return None
    return int(value)


_SCOPE_SEPARATORS = (",", "，", "、", ";", "；", "/", "+")


def _scope(number: int, text: str, labels: Mapping[str, str], errors: list[RowError]):
    parts = [text]
    for separator in _SCOPE_SEPARATORS:
        parts = [piece for part in parts for piece in part.split(separator)]
    codes = []
    for raw in (part.strip() for part in parts):
        if not raw:
            continue
        key = raw.lower()
        code = labels.get(key) or _CATEGORY_ALIASES.get(key) or key.replace(" ", "_")
        if code not in CATEGORIES:
            errors.append(
                RowError(
                    number,
                    "scope",
                    f"unknown category {raw!r}; use one of {', '.join(CATEGORIES)}",
                    "unknown_category",
                    {"value": raw},
                )
            )
        elif code not in codes:
            codes.append(code)
    return tuple(codes)


def _parse_terms(
    number: int, cells: dict[str, str], errors: list[RowError]
) -> tuple[int | None, int | None, tuple[str, ...]]:
    """The optional term (years from/to) and scope of a row."""
    year_from = _year(number, "year_from", cells.get("year_from", ""), errors)
    year_to = _year(number, "year_to", cells.get("year_to", ""), errors)
    if year_from and year_to and year_to < year_from:
        errors.append(
            RowError(
                number,
                "year_to",
                f"year {year_to} is before year {year_from}",
                "years_out_of_order",
                {"from": year_from, "to": year_to},
            )
        )
    labels = cells.get("__category_labels__") or {}
    scope = _scope(number, cells.get("scope", ""), labels, errors)
    return year_from, year_to, scope


def parse_line_items(
    fileobj: BinaryIO,
    filename: str,
    *,
    time_budget_s: float = IMPORT_TIME_BUDGET_S,
    clock: Callable[[], float] = time.monotonic,
    vocabulary: SheetVocabulary | None = None,
) -> list[LineItemRow]:
    """Parse an uploaded line-item sheet; raise ``LineItemImportError`` listing every
    problem. ``filename`` is used only in messages about legacy .xls files: the type is
    detected from the content. File-level errors carry row 0, among them a value
    outside the sheet's caps (found before its rows are loaded) and reading for longer
    than ``time_budget_s``. ``vocabulary`` adds the header and value labels the
    sheet may use (the template's, in every language).
    """
    vocabulary = vocabulary or SheetVocabulary()
    data = fileobj.read(MAX_UPLOAD_BYTES + 1)
    if len(data) > MAX_UPLOAD_BYTES:
        megabytes = MAX_UPLOAD_BYTES // 1024 // 1024
        raise _file_error(
            f"the file is larger than {megabytes} MB", "too_large", {"mb": megabytes}
        )
    if not data.strip():
        raise _file_error("the file is empty", "empty")
    if data.startswith(_OLE_MAGIC):
        raise _file_error(
            f"{filename}: legacy .xls is not supported; save as .xlsx or CSV",
            "legacy_xls",
            {"filename": filename},
        )
    try:
        rows = read_sheet_rows(data, time_budget_s=time_budget_s, clock=clock)
    except SheetReadError as exc:
        raise _file_error(str(exc), exc.code, exc.params) from exc
    if not rows:
        raise _file_error("the file is empty", "empty")
    positions, errors = _map_header(rows[0], vocabulary)
    if errors:
        raise LineItemImportError(errors)
    parsed: list[LineItemRow] = []
    for number, cells in enumerate(rows[1:], start=2):
        if not any(c for c in cells):
            continue
        values: dict[str, Any] = {
            name: vocabulary.code(name, cells[i] if i < len(cells) else "")
            for name, i in positions.items()
        }
        values["__category_labels__"] = vocabulary.values.get("category", {})
        row, row_errors = _parse_row(number, values)
        errors.extend(row_errors)
        if row is not None:
            parsed.append(row)
    if not parsed and not errors:
        errors.append(
            RowError(2, "", "no line items below the header", "no_line_items")
        )
    if errors:
        raise LineItemImportError(errors)
    return parsed


_EXAMPLE_ROWS = (
    (
        "gpu_servers",
        "8x H100 SXM server, 2x CPU, 2 TB RAM",
        16,
        Decimal("2700000.00"),
        "no",
        None,
        None,
        "installation",
    ),
    (
        "support",
        "24x7 hardware support after the warranty, per year",
        1,
        Decimal("350000.00"),
        "yes",
        4,
        5,
        "",
    ),
)


def build_template_xlsx() -> bytes:
    """A workbook with the header and two example rows, for users to fill in."""
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = "line_items"
    sheet.append(list(COLUMNS))
    for row in _EXAMPLE_ROWS:
        sheet.append([float(v) if isinstance(v, Decimal) else v for v in row])
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def build_template_csv() -> bytes:
    """The same template as CSV, UTF-8 with BOM so Excel opens Chinese text correctly."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for row in _EXAMPLE_ROWS:
        writer.writerow([escape_cell(v) if isinstance(v, str) else v for v in row])
    return buffer.getvalue().encode("utf-8-sig")


def escape_cell(value: object) -> object:
    """Neutralise spreadsheet formula injection in exported cells.

    Text starting with = + - @ tab or CR is prefixed with an apostrophe so Excel and
    LibreOffice show it as text instead of evaluating it (OWASP, "CSV Injection").
    Non-text values are returned unchanged: numbers cannot carry a formula.
    """
    if isinstance(value, str) and value.startswith(_FORMULA_PREFIXES):
        return "'" + value
    return value
