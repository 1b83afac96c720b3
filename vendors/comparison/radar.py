"""The radar chart of section scores, as hand-built SVG (no chart library on the
page, and the same markup goes into the PDF export)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.translation import gettext as _

from .result import Column, Comparison, SectionInfo

RADAR_COLOURS = (
    "#2563eb",
    "#dc2626",
    "#059669",
    "#d97706",
    "#7c3aed",
    "#0891b2",
    "#be185d",
    "#4b5563",
)


RADAR_MAX_WIDTH_PX = 520
PAD_X_PX = 110  # room for the axis labels left and right
PAD_Y_PX = 34  # and above and below
LEGEND_ROW_PX = 18


def _label_lines(text: str, width: int = 16) -> list[str]:
    """Split a long Latin-script label at the space nearest its middle (CJK labels are
    short enough as they are)."""
    if len(text) <= width or " " not in text:
        return [text]
    middle = len(text) // 2
    spaces = [i for i, ch in enumerate(text) if ch == " "]
    cut = min(spaces, key=lambda i: abs(i - middle))
    return [text[:cut], text[cut + 1 :]]


@dataclass(frozen=True)
class _Frame:
    """The drawing's geometry: ``axes`` spokes from the centre, one per section."""

    size: int
    axes: int

    @property
    def centre(self) -> tuple[float, float]:
        return PAD_X_PX + self.size / 2, PAD_Y_PX + self.size / 2

    @property
    def radius(self) -> float:
        return self.size / 2

    def angle(self, axis: int) -> float:
        return (-math.pi / 2) + 2 * math.pi * axis / self.axes

    def point(self, axis: int, distance: float) -> tuple[float, float]:
        centre_x, centre_y = self.centre
        return (
            centre_x + distance * math.cos(self.angle(axis)),
            centre_y + distance * math.sin(self.angle(axis)),
        )

    def polygon(self, distances: list[float]) -> str:
        return " ".join(
            f"{x:.1f},{y:.1f}"
            for x, y in (self.point(i, d) for i, d in enumerate(distances))
        )


def _rings(frame: _Frame) -> list[str]:
    return [
        f'<polygon points="{frame.polygon([frame.radius * level / 5] * frame.axes)}" '
        'fill="none" stroke="#d1d5db" stroke-width="1"/>'
        for level in range(1, 6)
    ]


def _axis(frame: _Frame, axis: int, title: str) -> list[str]:
    """The spoke of one section and its label, placed outside the outer ring."""
    centre_x, centre_y = frame.centre
    x, y = frame.point(axis, frame.radius)
    label_x, label_y = frame.point(axis, frame.radius + 12)
    cos = math.cos(frame.angle(axis))
    anchor = "start" if cos > 0.2 else "end" if cos < -0.2 else "middle"
    lines = _label_lines(title)
    if math.sin(frame.angle(axis)) < -0.2:  # upper half: grow upwards
        label_y -= 13 * (len(lines) - 1)
    elif math.sin(frame.angle(axis)) > 0.2:
        label_y += 9
    tspans = "".join(
        f'<tspan x="{label_x:.1f}" dy="{0 if k == 0 else 13}">{escape(text)}</tspan>'
        for k, text in enumerate(lines)
    )
    return [
        f'<line x1="{centre_x:.1f}" y1="{centre_y:.1f}" x2="{x:.1f}" y2="{y:.1f}" '
        'stroke="#d1d5db"/>',
        f'<text x="{label_x:.1f}" y="{label_y:.1f}" font-size="12" fill="#374151" '
        f'text-anchor="{anchor}">{tspans}</text>',
    ]


def _scores(
    frame: _Frame, column: Column, sections: list[SectionInfo], colour: str
) -> str:
    distances = [
        frame.radius * (column.sections.get(s.code) or 0) / 5 for s in sections
    ]
    return (
        f'<polygon points="{frame.polygon(distances)}" fill="{colour}" '
        f'fill-opacity="0.12" stroke="{colour}" stroke-width="2"/>'
    )


def _legend(columns: list[Column], size: int, width: int, per_row: int) -> list[str]:
    parts = []
    cell_width = (width - 20) / per_row
    for k, column in enumerate(columns):
        colour = RADAR_COLOURS[k % len(RADAR_COLOURS)]
        x = 10 + cell_width * (k % per_row)
        y = size + 2 * PAD_Y_PX + 12 + LEGEND_ROW_PX * (k // per_row)
        label = column.label if len(column.label) <= 30 else column.label[:29] + "…"
        parts.append(
            f'<rect x="{x:.1f}" y="{y - 10}" width="11" height="11" fill="{colour}"/>'
        )
        parts.append(
            f'<text x="{x + 16:.1f}" y="{y}" font-size="12">{escape(label)}</text>'
        )
    return parts


def radar_svg(comparison: Comparison, size: int = 300) -> str:
    """Section scores (0-5) of every bid as polygons on one radar, as SVG markup.

    The drawing is ``size`` px across plus room for the axis labels, at most
    RADAR_MAX_WIDTH_PX wide on the page, with a compact legend in columns below.
    """
    sections = comparison.sections
    columns = comparison.columns
    if len(sections) < 3 or not columns:
        return ""
    frame = _Frame(size=size, axes=len(sections))
    width = size + 2 * PAD_X_PX
    per_row = 2 if len(columns) <= 4 else 3
    legend_rows = math.ceil(len(columns) / per_row)
    height = size + 2 * PAD_Y_PX + LEGEND_ROW_PX * legend_rows + 4
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" class="radar" role="img" '
        f'style="max-width:{RADAR_MAX_WIDTH_PX}px;width:100%;height:auto" '
        f'aria-label="{escape(_("Section scores"))}">'
    ]
    parts += _rings(frame)
    for axis, section in enumerate(sections):
        parts += _axis(frame, axis, section.title)
    for k, column in enumerate(columns):
        colour = RADAR_COLOURS[k % len(RADAR_COLOURS)]
        parts.append(_scores(frame, column, sections, colour))
    parts += _legend(columns, size, width, per_row)
    parts.append("</svg>")
    return "".join(parts)
