"""Vector SVG charts of a TCO analysis, for the web page and the PDF report.

Text is drawn as paths (``svg.fonttype='path'``) so an SVG renders identically in
WeasyPrint and browsers without any font installed; the glyphs come from the Noto
Sans SC subset shipped in ``static/fonts`` (registered with matplotlib's font
manager), so Chinese labels render. ``svg.hashsalt`` and a blank date make the output
deterministic. No pyplot: each call builds its own ``Figure`` inside an
``rc_context``, so concurrent renders in one worker do not share state.

Every function takes the JSON produced by the engine (``TcoResult.to_dict()``,
``sensitivity()``, ``monte_carlo()``), a ``lang`` ("zh-hans" or "en") and an optional
``labels`` dict overriding any built-in label, and returns an SVG string. Drawn
elements carry ids (``bar-energy-1``, ``breakeven-reserved``, ``tornado-pue-high``,
``hist-bin-3``) so tests and the front end can find them.
"""

from __future__ import annotations

import io
import threading
from pathlib import Path
from typing import Any

import matplotlib
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter

from .cashflow import CLOUD_OPTIONS, COST_CATEGORIES, TcoResult
from .palette import COLORS, chart_labels

FONT_DIR = Path(__file__).resolve().parents[2] / "static" / "fonts"
FONT_FILES = ("NotoSansSC-Subset-Regular.otf", "NotoSansSC-Subset-Bold.otf")
FONT_FAMILY = "Noto Sans SC Subset"
HASH_SALT = "clusterbuy-tco"
FIGSIZE_IN = (7.0, 3.8)

_font_lock = threading.Lock()
_fonts_registered = False


def register_fonts(font_dir: Path = FONT_DIR) -> bool:
    """Add the shipped CJK subset to matplotlib's font manager (once per process)."""
    global _fonts_registered
    with _font_lock:
        if _fonts_registered:
            return True
        from matplotlib import font_manager

        found = False
        for name in FONT_FILES:
            path = font_dir / name
            if path.exists():
                font_manager.fontManager.addfont(str(path))
                found = True
        _fonts_registered = found
        return found


def _rc(text_as_paths: bool) -> dict[str, Any]:
    return {
        "svg.fonttype": "path" if text_as_paths else "none",
        "svg.hashsalt": HASH_SALT,
        "font.family": "sans-serif",
        "font.sans-serif": [FONT_FAMILY, "DejaVu Sans"],
        "font.size": 8,
        "axes.unicode_minus": False,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "path.simplify": True,
    }


def _as_dict(result: TcoResult | dict) -> dict:
    return result.to_dict() if isinstance(result, TcoResult) else result


def _millions(value: float, _pos: Any = None) -> str:
    return f"{value / 1e6:,.1f}"


def _render(draw, text_as_paths: bool, margins: dict[str, float] | None = None) -> str:
    margins = {
        "left": 0.1,
        "right": 0.97,
        "top": 0.9,
        "bottom": 0.13,
        **(margins or {}),
    }
    register_fonts()
    with matplotlib.rc_context(_rc(text_as_paths)):
        # Fixed margins instead of a layout engine: constrained layout doubles the time.
        fig = Figure(figsize=FIGSIZE_IN)
        fig.subplots_adjust(**margins)
        draw(fig)
        buffer = io.StringIO()
        fig.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()


def stacked_bars_svg(
    result: TcoResult | dict,
    lang: str = "en",
    labels: dict[str, str] | None = None,
    text_as_paths: bool = True,
) -> str:
    """Year 0 = capex by category, years 1..H = opex by category; residual below 0."""
    data = _as_dict(result)
    text = chart_labels(lang, labels)
    rows = data["years"]
    years = [r["year"] for r in rows]
    shown = [c for c in COST_CATEGORIES if any(r[c] != 0 for r in rows)]

    def draw(fig: Figure) -> None:
        ax = fig.add_subplot()
        bottom_pos = [0.0] * len(rows)
        bottom_neg = [0.0] * len(rows)
        for cat in shown:
            values = [r[cat] for r in rows]
            bottoms = [
                bn if v < 0 else bp
                for v, bp, bn in zip(values, bottom_pos, bottom_neg, strict=True)
            ]
            bars = ax.bar(
                years,
                values,
                bottom=bottoms,
                color=COLORS[cat],
                label=text[cat],
                width=0.6,
            )
            for year, bar in zip(years, bars, strict=True):
                bar.set_gid(f"bar-{cat}-{year}")
            for i, v in enumerate(values):
                if v < 0:
                    bottom_neg[i] += v
                else:
                    bottom_pos[i] += v
        ax.axhline(0, color="#404040", linewidth=0.6)
        ax.set_xticks(years)
        ax.set_xlabel(text["year"])
        ax.set_ylabel(text["money_axis"].format(currency=text[data["currency"]]))
        ax.yaxis.set_major_formatter(FuncFormatter(_millions))
        ax.set_title(text["title_stacked"])
        ax.legend(
            loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False, fontsize=7
        )

    return _render(draw, text_as_paths, {"right": 0.76})


def _mark_break_even(ax, option: str, month: int, y: float, last_month: int, text):
    """A dot where on-prem becomes cheaper than ``option``, labelled with the month."""
    marker = ax.scatter(
        [month],
        [y],
        s=28,
        color=COLORS[option],
        zorder=5,
        edgecolors="white",
        linewidths=0.8,
    )
    marker.set_gid(f"breakeven-{option}")
    near_end = month > 0.75 * last_month
    ax.annotate(
        text["break_even"].format(month=month),
        (month, y),
        xytext=(-4 if near_end else 4, -10),
        textcoords="offset points",
        ha="right" if near_end else "left",
        fontsize=7,
        color=COLORS[option],
    )


def cumulative_svg(
    result: TcoResult | dict,
    lang: str = "en",
    labels: dict[str, str] | None = None,
    text_as_paths: bool = True,
) -> str:
    """Cumulative nominal cost by month, on-prem vs each cloud option, break-even marked."""
    data = _as_dict(result)
    text = chart_labels(lang, labels)
    cum = data["cumulative"]
    months = cum["month"]

    def draw(fig: Figure) -> None:
        ax = fig.add_subplot()
        (line,) = ax.plot(
            months,
            cum["onprem"],
            color=COLORS["onprem"],
            linewidth=2,
            label=text["onprem"],
        )
        line.set_gid("line-onprem")
        for option in CLOUD_OPTIONS:
            (line,) = ax.plot(
                months,
                cum[option],
                color=COLORS[option],
                linewidth=1.3,
                label=text[option],
            )
            line.set_gid(f"line-{option}")
            month = data["break_even_month"].get(option)
            if month is not None:
                y = cum["onprem"][month]
                _mark_break_even(ax, option, month, y, months[-1], text)
        ax.set_xlim(0, months[-1])
        ax.set_xticks(list(range(0, months[-1] + 1, 12)))
        ax.set_xlabel(text["month"])
        ax.set_ylabel(text["money_axis"].format(currency=text[data["currency"]]))
        ax.yaxis.set_major_formatter(FuncFormatter(_millions))
        ax.set_title(text["title_cumulative"])
        ax.legend(loc="upper left", frameon=False, fontsize=7)
        ax.grid(axis="y", linewidth=0.3, alpha=0.5)

    return _render(draw, text_as_paths)


def tornado_svg(
    rows: list[dict],
    lang: str = "en",
    labels: dict[str, str] | None = None,
    text_as_paths: bool = True,
) -> str:
    """Change of each row's metric (% of its base) at the low and the high input."""
    text = chart_labels(lang, labels)
    ordered = list(reversed(rows))  # largest swing on top

    def pct(row: dict, key: str) -> float:
        base = row["base_value"]
        return row[key] / abs(base) * 100 if base else 0.0

    def draw(fig: Figure) -> None:
        ax = fig.add_subplot()
        ys = list(range(len(ordered)))
        low = [pct(r, "low_change") for r in ordered]
        high = [pct(r, "high_change") for r in ordered]
        low_bars = ax.barh(ys, low, color="#2e75b6", label=text["low"], height=0.6)
        high_bars = ax.barh(ys, high, color="#c00000", label=text["high"], height=0.6)
        for row, lb, hb in zip(ordered, low_bars, high_bars, strict=True):
            lb.set_gid(f"tornado-{row['parameter']}-low")
            hb.set_gid(f"tornado-{row['parameter']}-high")
        ax.set_yticks(ys)
        ax.set_yticklabels(
            [
                f"{text.get(r['parameter'], r['parameter'])} ({text.get(r['metric'], r['metric'])})"
                for r in ordered
            ]
        )
        ax.axvline(0, color="#404040", linewidth=0.6)
        ax.set_xlabel(text["change_pct"])
        ax.set_title(text["title_tornado"])
        ax.legend(loc="lower right", frameon=False, fontsize=7)

    return _render(draw, text_as_paths, {"left": 0.36})


def histogram_svg(
    simulation: dict,
    lang: str = "en",
    labels: dict[str, str] | None = None,
    text_as_paths: bool = True,
) -> str:
    """Histogram of the simulated total cost with P10 / P50 / P90 and the deterministic total."""
    text = chart_labels(lang, labels)
    currency = simulation.get("currency", "CNY")
    edges = simulation["histogram"]["bin_edges"]
    counts = simulation["histogram"]["counts"]

    def draw(fig: Figure) -> None:
        ax = fig.add_subplot()
        widths = [b - a for a, b in zip(edges[:-1], edges[1:], strict=True)]
        bars = ax.bar(
            edges[:-1],
            counts,
            width=widths,
            align="edge",
            color="#9dc3e6",
            edgecolor="white",
            linewidth=0.4,
        )
        for i, bar in enumerate(bars):
            bar.set_gid(f"hist-bin-{i}")
        for key, style in (("p10", ":"), ("p50", "-"), ("p90", ":")):
            x = simulation["total_cost"][key]
            line = ax.axvline(x, color="#1f4e79", linestyle=style, linewidth=1)
            line.set_gid(f"hist-{key}")
            ax.annotate(
                key.upper(),
                (x, 1.0),
                xycoords=("data", "axes fraction"),
                xytext=(2, -8),
                textcoords="offset points",
                fontsize=7,
            )
        det = ax.axvline(
            simulation["deterministic_total"],
            color="#c00000",
            linewidth=1,
            label=text["deterministic"],
        )
        det.set_gid("hist-deterministic")
        ax.xaxis.set_major_formatter(FuncFormatter(_millions))
        ax.set_xlabel(text["money_axis"].format(currency=text.get(currency, currency)))
        ax.set_ylabel(text["count"])
        ax.set_title(text["title_histogram"])
        ax.legend(loc="upper right", frameon=False, fontsize=7)

    return _render(draw, text_as_paths)
