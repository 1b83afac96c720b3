"""SVG building blocks of the TCO charts: scales, axes, legends, text, in pure Python.

No chart library: a chart is a few hundred short strings joined, about a millisecond
to build (matplotlib took 55-105 ms a chart and 0.5 s of CPU to import). Text stays text
(``<text>``), so the page uses the browser's fonts, the PDF draws it with the
report's @font-face subset, and the labels stay searchable in both.

Geometry is in viewBox units: a chart is ``WIDTH`` x ``HEIGHT`` units and scales to
its box (``max-width: 100 %; height: auto`` on the page). Every label is at least
``TEXT`` units high, so it is at least 11 px on screen down to a chart box
``MIN_BOX_PX`` wide (a card of the two-column chart grid, whose columns are at least
480 px) and about 9.5 pt in the PDF, where the charts are 140 mm wide.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

WIDTH = 520
HEIGHT = 300
TEXT = 13  # every label, tick and legend entry
TITLE = 14
MIN_BOX_PX = WIDTH * 11 / TEXT  # = 440 px: labels are >= 11 px on a box this wide
INK = "#1d2430"
MUTED = "#5b6575"
GRID = "#e3e7ee"
AXIS = "#404040"
FONT_STACK = (
    "'Noto Sans SC Subset', 'PingFang SC', 'Microsoft YaHei', 'Noto Sans CJK SC', "
    "'WenQuanYi Micro Hei', sans-serif"
)
LEGEND_ROW = 18
LEGEND_SWATCH = 12


def text_width(text: str, size: float = TEXT) -> float:
    """Approximate advance of ``text``: wide (CJK) characters 1 em, others 0.6 em."""
    ems = sum(1.0 if unicodedata.east_asian_width(ch) in "WF" else 0.6 for ch in text)
    return ems * size


def fit(text: str, max_width: float, size: float = TEXT) -> str:
    """``text`` cut with an ellipsis so it fits ``max_width``."""
    if text_width(text, size) <= max_width:
        return text
    while text and text_width(text + "…", size) > max_width:
        text = text[:-1]
    return text + "…"


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values (1, 2, 2.5 or 5 x 10^n apart) covering ``low``..``high``."""
    if not (math.isfinite(low) and math.isfinite(high)):
        low, high = 0.0, 1.0
    if high < low:
        low, high = high, low
    if high == low:
        pad = abs(low) * 0.1 or 1.0
        low, high = low - pad, high + pad
    raw = (high - low) / count * 0.8  # up to ~count * 1.25 intervals
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.floor(low / step + 1e-9) * step
    n = math.ceil((high - first) / step - 1e-9)
    return [first + i * step for i in range(n + 1)]


def millions(step: float):
    """Formatter of money ticks in millions with as many decimals as the step needs."""
    decimals = min(3, max(1, -math.floor(math.log10(step / 1e6)))) if step else 1
    return lambda value: f"{value / 1e6:,.{decimals}f}"


def plain(step: float):
    decimals = min(3, max(0, -math.floor(math.log10(step)))) if step else 0
    return lambda value: f"{value:,.{decimals}f}"


@dataclass
class Frame:
    """The plot area in viewBox units and its two linear scales."""

    left: float
    top: float
    right: float
    bottom: float
    x_domain: tuple[float, float] = (0.0, 1.0)
    y_domain: tuple[float, float] = (0.0, 1.0)

    def x(self, value: float) -> float:
        lo, hi = self.x_domain
        return self.left + (value - lo) / ((hi - lo) or 1) * (self.right - self.left)

    def y(self, value: float) -> float:
        lo, hi = self.y_domain
        return self.bottom - (value - lo) / ((hi - lo) or 1) * (self.bottom - self.top)


def n(value: float) -> str:
    """A coordinate, short."""
    return f"{value:.1f}"


def backed_text(x: float, y: float, content: str, fill: str) -> str:
    """A label on a translucent white box, legible over the lines it sits on."""
    return (
        f'<rect x="{n(x - 2)}" y="{n(y - TEXT + 1)}" width="{n(text_width(content) + 4)}" '
        f'height="{TEXT + 3}" fill="#fff" fill-opacity="0.85"/>'
    ) + text(x, y, content, fill=fill)


def text(
    x: float,
    y: float,
    content: str,
    *,
    anchor: str = "start",
    size: float = TEXT,
    fill: str = INK,
    extra: str = "",
) -> str:
    size_attr = "" if size == TEXT else f' font-size="{size}"'
    fill_attr = "" if fill == INK else f' fill="{fill}"'
    anchor_attr = "" if anchor == "start" else f' text-anchor="{anchor}"'
    return (
        f'<text x="{n(x)}" y="{n(y)}"{anchor_attr}{size_attr}{fill_attr}{extra}>'
        f"{escape(content)}</text>"
    )


def open_svg(title: str, chart_id: str) -> list[str]:
    """The root element (responsive, text in the font stack) and the chart's title."""
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" class="tco-chart" '
        f'id="chart-{chart_id}" aria-label="{escape(title)}" '
        f'font-family="{FONT_STACK}" font-size="{TEXT}" fill="{INK}">',
        text(
            WIDTH / 2,
            18,
            title,
            anchor="middle",
            size=TITLE,
            extra=' font-weight="700"',
        ),
    ]


def y_axis(
    frame: Frame, ticks: Sequence[float], label_of, title: str, grid: bool = True
) -> list[str]:
    """Tick labels (and grid lines) left of the plot, the axis title turned upright."""
    parts = []
    for tick in ticks:
        y = frame.y(tick)
        if grid:
            parts.append(
                f'<line x1="{n(frame.left)}" y1="{n(y)}" x2="{n(frame.right)}" '
                f'y2="{n(y)}" stroke="{GRID}"/>'
            )
        parts.append(text(frame.left - 6, y + 4.5, label_of(tick), anchor="end"))
    middle = (frame.top + frame.bottom) / 2
    parts.append(
        f'<text transform="translate(14 {n(middle)}) rotate(-90)" '
        f'text-anchor="middle">{escape(title)}</text>'
    )
    return parts


def x_axis(frame: Frame, ticks: Sequence[tuple[float, str]], title: str) -> list[str]:
    """The base line, tick marks and labels under the plot, and the axis title."""
    parts = [
        f'<line x1="{n(frame.left)}" y1="{n(frame.bottom)}" x2="{n(frame.right)}" '
        f'y2="{n(frame.bottom)}" stroke="{AXIS}"/>'
    ]
    for x, label in ticks:
        parts.append(
            f'<line x1="{n(x)}" y1="{n(frame.bottom)}" x2="{n(x)}" '
            f'y2="{n(frame.bottom + 4)}" stroke="{AXIS}"/>'
        )
        parts.append(text(x, frame.bottom + 18, label, anchor="middle"))
    middle = (frame.left + frame.right) / 2
    parts.append(text(middle, frame.bottom + 37, title, anchor="middle"))
    return parts


@dataclass(frozen=True)
class Entry:
    colour: str
    label: str
    line: bool = False  # a line swatch (series) instead of a square (area)
    dashed: bool = False


def _swatch(x: float, y: float, entry: Entry) -> str:
    if entry.line:
        dash = ' stroke-dasharray="4 3"' if entry.dashed else ""
        return (
            f'<line x1="{n(x)}" y1="{n(y - 4)}" x2="{n(x + LEGEND_SWATCH + 4)}" '
            f'y2="{n(y - 4)}" stroke="{entry.colour}" stroke-width="2.5"{dash}/>'
        )
    return (
        f'<rect x="{n(x)}" y="{n(y - 10)}" width="{LEGEND_SWATCH}" '
        f'height="{LEGEND_SWATCH}" fill="{entry.colour}"/>'
    )


def legend_width(entries: Sequence[Entry]) -> float:
    """Width of ``legend_column``: swatch, gap and the longest label."""
    return max((text_width(e.label) for e in entries), default=0) + LEGEND_SWATCH + 8


def legend_column(x: float, y: float, entries: Sequence[Entry]) -> list[str]:
    """Entries one under the other from (x, y), the first baseline at y."""
    parts = []
    for k, entry in enumerate(entries):
        row_y = y + LEGEND_ROW * k
        parts.append(_swatch(x, row_y, entry))
        parts.append(text(x + LEGEND_SWATCH + 8, row_y, entry.label))
    return parts


def legend_rows(
    left: float, right: float, y: float, entries: Sequence[Entry]
) -> tuple[list[str], float]:
    """Entries side by side from ``left``, wrapping before ``right``.

    Returns the markup and the baseline of the last row.
    """
    parts: list[str] = []
    x = left
    for entry in entries:
        width = text_width(entry.label) + LEGEND_SWATCH + 8 + 16
        if x > left and x + width - 16 > right:
            x, y = left, y + LEGEND_ROW
        parts.append(_swatch(x, y, entry))
        parts.append(text(x + LEGEND_SWATCH + 8, y, entry.label))
        x += width
    return parts, y
