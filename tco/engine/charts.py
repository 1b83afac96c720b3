"""Vector SVG charts of a TCO analysis, for the web page and the PDF report.

Hand-written SVG (building blocks in ``svg.py``, no chart library, no Django): about
a millisecond a chart, text kept as ``<text>`` in the font stack ``svg.FONT_STACK``
(the PDF draws it with the report's Noto Sans SC subset, the page with the browser's
CJK font), ``viewBox`` geometry so a chart scales to its card. The output depends
only on the data, so it is deterministic.

Every function takes the JSON produced by the engine (``TcoResult.to_dict()``,
``sensitivity()``, ``monte_carlo()``), a ``lang`` ("zh-hans" or "en") and an optional
``labels`` dict overriding any built-in label, and returns an SVG string. Drawn
elements carry ids (``bar-energy-1``, ``breakeven-reserved``, ``tornado-pue-high``,
``hist-bin-3``) so tests and the front end can find them.
"""

from __future__ import annotations

from .cashflow import CLOUD_OPTIONS, COST_CATEGORIES, TcoResult
from .palette import COLORS, chart_labels
from .svg import (
    AXIS,
    GRID,
    HEIGHT,
    LEGEND_ROW,
    TEXT,
    WIDTH,
    Entry,
    Frame,
    backed_text,
    fit,
    legend_column,
    legend_rows,
    legend_width,
    millions,
    n,
    nice_ticks,
    open_svg,
    plain,
    text,
    text_width,
    x_axis,
    y_axis,
)

TOP_LEGEND_Y = 40  # baseline of the first legend row under the title
PLOT_BOTTOM = HEIGHT - 46  # room for tick labels and the x-axis title
LOW_COLOUR, HIGH_COLOUR, HIST_COLOUR, MARK_COLOUR = (
    "#2e75b6",
    "#c00000",
    "#9dc3e6",
    "#1f4e79",
)


def _as_dict(result: TcoResult | dict) -> dict:
    return result.to_dict() if isinstance(result, TcoResult) else result


def _left_margin(tick_labels: list[str]) -> float:
    """Room for the upright axis title (26) and the widest tick label."""
    return 26 + max(text_width(label) for label in tick_labels) + 8


def _zero_line(frame: Frame) -> str:
    y = frame.y(0)
    return (
        f'<line x1="{n(frame.left)}" y1="{n(y)}" x2="{n(frame.right)}" y2="{n(y)}" '
        f'stroke="{AXIS}" stroke-width="0.8"/>'
    )


def stacked_bars_svg(
    result: TcoResult | dict, lang: str = "en", labels: dict[str, str] | None = None
) -> str:
    """Year 0 = capex by category, years 1..H = opex by category; residual below 0."""
    data = _as_dict(result)
    words = chart_labels(lang, labels)
    rows = data["years"]
    shown = [c for c in COST_CATEGORIES if any(r[c] != 0 for r in rows)]
    up = [sum(r[c] for c in shown if r[c] > 0) for r in rows]
    down = [sum(r[c] for c in shown if r[c] < 0) for r in rows]
    ticks = nice_ticks(min(down + [0.0]), max(up + [0.0]))
    label_of = millions(ticks[1] - ticks[0])
    entries = [Entry(COLORS[c], fit(words[c], 150)) for c in shown]
    frame = Frame(
        left=_left_margin([label_of(t) for t in ticks]),
        top=34,
        right=WIDTH - legend_width(entries) - 24,
        bottom=PLOT_BOTTOM,
        y_domain=(ticks[0], ticks[-1]),
    )
    band = (frame.right - frame.left) / max(len(rows), 1)
    parts = open_svg(words["title_stacked"], "stacked")
    parts += y_axis(
        frame,
        ticks,
        label_of,
        words["money_axis"].format(currency=words[data["currency"]]),
    )
    bases_up, bases_down = [0.0] * len(rows), [0.0] * len(rows)
    for cat in shown:
        parts.append(f'<g fill="{COLORS[cat]}">')
        for i, row in enumerate(rows):
            value = row[cat]
            bases = bases_down if value < 0 else bases_up
            y0, y1 = frame.y(bases[i]), frame.y(bases[i] + value)
            bases[i] += value
            parts.append(
                f'<rect id="bar-{cat}-{row["year"]}" x="{n(frame.left + band * (i + 0.2))}" '
                f'y="{n(min(y0, y1))}" width="{n(band * 0.6)}" height="{n(abs(y1 - y0))}"/>'
            )
        parts.append("</g>")
    if ticks[0] < 0:
        parts.append(_zero_line(frame))
    year_ticks = [
        (frame.left + band * (i + 0.5), str(r["year"])) for i, r in enumerate(rows)
    ]
    parts += x_axis(frame, year_ticks, words["year"])
    parts += legend_column(frame.right + 16, 44, entries)
    parts.append("</svg>")
    return "".join(parts)


def _break_even_marks(
    frame: Frame, data: dict, words: dict[str, str], cum: dict
) -> list[str]:
    """A dot where on-prem becomes cheaper than each option, labelled with the month;
    a label that would cover an earlier one moves down a row."""
    parts, placed = [], []
    last_month = cum["month"][-1]
    for option in CLOUD_OPTIONS:
        month = data["break_even_month"].get(option)
        if month is None:
            continue
        x, y = frame.x(month), frame.y(cum["onprem"][month])
        label = words["break_even"].format(month=month)
        width = text_width(label)
        near_end = month > 0.75 * last_month
        left = x - 7 - width if near_end else x + 7
        label_y = y + 17
        while any(
            abs(label_y - py) < LEGEND_ROW and left < px + pw and px < left + width
            for px, py, pw in placed
        ):
            label_y += LEGEND_ROW
        placed.append((left, label_y, width))
        parts.append(
            f'<circle id="breakeven-{option}" cx="{n(x)}" cy="{n(y)}" r="4.5" '
            f'fill="{COLORS[option]}" stroke="#fff" stroke-width="1.2"/>'
        )
        parts.append(backed_text(left, label_y, label, COLORS[option]))
    return parts


def cumulative_svg(
    result: TcoResult | dict, lang: str = "en", labels: dict[str, str] | None = None
) -> str:
    """Cumulative nominal cost by month, on-prem vs each cloud option, break-even marked."""
    data = _as_dict(result)
    words = chart_labels(lang, labels)
    cum = data["cumulative"]
    months = cum["month"]
    series = ["onprem", *CLOUD_OPTIONS]
    values = [v for key in series for v in cum[key]]
    ticks = nice_ticks(min(values + [0.0]), max(values + [0.0]))
    label_of = millions(ticks[1] - ticks[0])
    entries = [Entry(COLORS[key], words[key], line=True) for key in series]
    left = _left_margin([label_of(t) for t in ticks])
    legend, last_row = legend_rows(left, WIDTH - 12, TOP_LEGEND_Y, entries)
    frame = Frame(
        left=left,
        top=last_row + 14,
        right=WIDTH - 14,
        bottom=PLOT_BOTTOM,
        x_domain=(0, months[-1] or 1),
        y_domain=(ticks[0], ticks[-1]),
    )
    parts = open_svg(words["title_cumulative"], "cumulative") + legend
    parts += y_axis(
        frame,
        ticks,
        label_of,
        words["money_axis"].format(currency=words[data["currency"]]),
    )
    for key in series:
        points = " ".join(
            f"{n(frame.x(m))},{n(frame.y(v))}"
            for m, v in zip(months, cum[key], strict=True)
        )
        width = "2.5" if key == "onprem" else "1.6"
        parts.append(
            f'<polyline id="line-{key}" points="{points}" fill="none" '
            f'stroke="{COLORS[key]}" stroke-width="{width}" stroke-linejoin="round"/>'
        )
    parts += _break_even_marks(frame, data, words, cum)
    month_ticks = [(frame.x(m), str(m)) for m in range(0, months[-1] + 1, 12)]
    parts += x_axis(frame, month_ticks, words["month"])
    parts.append("</svg>")
    return "".join(parts)


def tornado_svg(
    rows: list[dict], lang: str = "en", labels: dict[str, str] | None = None
) -> str:
    """Change of each row's metric (% of its base) at the low and the high input;
    rows in the given order (largest swing first) from the top."""
    words = chart_labels(lang, labels)

    def pct(row: dict, key: str) -> float:
        base = row["base_value"]
        return row[key] / abs(base) * 100 if base else 0.0

    changes = [(pct(r, "low_change"), pct(r, "high_change")) for r in rows]
    ticks = nice_ticks(
        min([0.0, *(min(c) for c in changes)]), max([0.0, *(max(c) for c in changes)])
    )
    label_of = plain(ticks[1] - ticks[0])
    names = [
        fit(
            f"{words.get(r['parameter'], r['parameter'])} "
            f"({words.get(r['metric'], r['metric'])})",
            240,
        )
        for r in rows
    ]
    entries = [Entry(LOW_COLOUR, words["low"]), Entry(HIGH_COLOUR, words["high"])]
    left = max([text_width(name) for name in names] + [40]) + 14
    legend, last_row = legend_rows(left, WIDTH - 12, TOP_LEGEND_Y, entries)
    frame = Frame(
        left=left,
        top=last_row + 12,
        right=WIDTH - 18,
        bottom=PLOT_BOTTOM,
        x_domain=(ticks[0], ticks[-1]),
    )
    parts = open_svg(words["title_tornado"], "tornado") + legend
    for tick in ticks:
        x = frame.x(tick)
        parts.append(
            f'<line x1="{n(x)}" y1="{n(frame.top)}" x2="{n(x)}" y2="{n(frame.bottom)}" '
            f'stroke="{GRID}"/>'
        )
    band = (frame.bottom - frame.top) / max(len(rows), 1)
    zero = frame.x(0)
    for i, (row, name, (low, high)) in enumerate(
        zip(rows, names, changes, strict=True)
    ):
        y = frame.top + band * i
        for side, value, colour in (
            ("low", low, LOW_COLOUR),
            ("high", high, HIGH_COLOUR),
        ):
            x = frame.x(value)
            parts.append(
                f'<rect id="tornado-{row["parameter"]}-{side}" x="{n(min(x, zero))}" '
                f'y="{n(y + band * 0.2)}" width="{n(abs(x - zero))}" '
                f'height="{n(band * 0.6)}" fill="{colour}"/>'
            )
        parts.append(text(frame.left - 6, y + band / 2 + 4.5, name, anchor="end"))
    parts.append(
        f'<line x1="{n(zero)}" y1="{n(frame.top)}" x2="{n(zero)}" '
        f'y2="{n(frame.bottom)}" stroke="{AXIS}"/>'
    )
    parts += x_axis(
        frame, [(frame.x(t), label_of(t)) for t in ticks], words["change_pct"]
    )
    parts.append("</svg>")
    return "".join(parts)


def _percentile_marks(frame: Frame, simulation: dict) -> list[str]:
    parts, last_x = [], None
    label_y = frame.top + TEXT
    for key, dash in (("p10", "3 3"), ("p50", ""), ("p90", "3 3")):
        x = frame.x(simulation["total_cost"][key])
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(
            f'<line id="hist-{key}" x1="{n(x)}" y1="{n(frame.top)}" x2="{n(x)}" '
            f'y2="{n(frame.bottom)}" stroke="{MARK_COLOUR}" stroke-width="1.2"{dash_attr}/>'
        )
        if last_x is not None and x - last_x < text_width("P50") + 6:
            label_y += TEXT + 2  # too close to the previous label: one row lower
        parts.append(text(x + 3, label_y, key.upper(), fill=MARK_COLOUR))
        last_x = x
    return parts


def histogram_svg(
    simulation: dict, lang: str = "en", labels: dict[str, str] | None = None
) -> str:
    """Histogram of the simulated total cost with P10 / P50 / P90 and the deterministic total."""
    words = chart_labels(lang, labels)
    currency = simulation.get("currency", "CNY")
    edges = simulation["histogram"]["bin_edges"]
    counts = simulation["histogram"]["counts"]
    deterministic = simulation["deterministic_total"]
    x_ticks = nice_ticks(min(edges[0], deterministic), max(edges[-1], deterministic))
    y_ticks = nice_ticks(0, max(counts + [5]))
    count_of = plain(y_ticks[1] - y_ticks[0])
    money_of = millions(x_ticks[1] - x_ticks[0])
    entries = [Entry(HIGH_COLOUR, words["deterministic"], line=True)]
    left = _left_margin([count_of(t) for t in y_ticks])
    legend, last_row = legend_rows(left, WIDTH - 12, TOP_LEGEND_Y, entries)
    frame = Frame(
        left=left,
        top=last_row + 12,
        right=WIDTH - 18,
        bottom=PLOT_BOTTOM,
        x_domain=(x_ticks[0], x_ticks[-1]),
        y_domain=(y_ticks[0], y_ticks[-1]),
    )
    parts = open_svg(words["title_histogram"], "histogram") + legend
    parts += y_axis(frame, y_ticks, count_of, words["count"])
    parts.append(f'<g fill="{HIST_COLOUR}" stroke="#fff" stroke-width="0.5">')
    for i, (count, a, b) in enumerate(zip(counts, edges[:-1], edges[1:], strict=True)):
        x0, x1, y = frame.x(a), frame.x(b), frame.y(count)
        parts.append(
            f'<rect id="hist-bin-{i}" x="{n(x0)}" y="{n(y)}" width="{n(x1 - x0)}" '
            f'height="{n(frame.bottom - y)}"/>'
        )
    parts.append("</g>")
    parts += _percentile_marks(frame, simulation)
    x = frame.x(deterministic)
    parts.append(
        f'<line id="hist-deterministic" x1="{n(x)}" y1="{n(frame.top)}" x2="{n(x)}" '
        f'y2="{n(frame.bottom)}" stroke="{HIGH_COLOUR}" stroke-width="1.5"/>'
    )
    axis_title = words["money_axis"].format(currency=words.get(currency, currency))
    parts += x_axis(frame, [(frame.x(t), money_of(t)) for t in x_ticks], axis_title)
    parts.append("</svg>")
    return "".join(parts)
