"""The pieces of the comparison table (`table`): cells with the lines under them,
rows and groups of rows, as the page, the PDF and the workbook show them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Detail:
    """One line under a cell's value: an optional code badge, the text, a tooltip."""

    text: str
    badge: str = ""
    title: str = ""

    def __str__(self) -> str:
        return f"{self.badge}: {self.text}" if self.badge else self.text


@dataclass
class Cell:
    text: str
    css: str = ""
    detail: list[Detail] = field(default_factory=list)
    #: The figure behind ``text`` (None for text cells), a number in the workbook.
    value: Any = None
    number_format: str = ""  # the cell's own, instead of its row's


@dataclass
class Row:
    label: str
    cells: list[Cell]
    help: str = ""
    #: The page shows each cell's detail folded (a <details> element).
    expandable: bool = False
    #: How the workbook shows the row's figures: an Excel number format, or MONEY
    #: (the procurement's currency) or PERCENT (a figure in per cent, stored as a share).
    number_format: str = "General"
    #: Which figure the row shows, for an export that picks rows (`summary`).
    code: str = ""


MONEY = "money"
PERCENT = "percent"


@dataclass
class Group:
    label: str
    rows: list[Row]
    #: Which group it is, for an export that prints only some (`exports`).
    code: str = ""
