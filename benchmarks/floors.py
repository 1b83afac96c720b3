"""Floors measured in the same run as the figures they bound (not a bench_ module).

- ``pdf_floor_html``: a plain table filling exactly ``pages`` A4 pages, in the
  report's font (the Noto Sans SC subset, via the same @font-face) and size: what
  WeasyPrint needs for that many pages of text, with no charts and no report logic.
  It goes through ``clusterbuy.pdf.render_pdf``, the pipeline of every PDF.
- ``numpy_monte_carlo_floor``: the array work of a 10,000-draw Monte Carlo written as
  straight numpy: triangular draws of 11 parameters, a (draws x months) opex matrix,
  its cumulative sum, break-even against three cloud options, percentiles, histogram.
- ``page_count`` / ``floor_html``: the pages of an HTML document as the app renders
  it, and the plain table of exactly that many pages (rows per page checked).
- ``timed`` / ``best_of``: wall and CPU time of one call / best wall and best CPU time (time.process_time) of a few calls; the CPU
  figure is what a busy machine inflates least.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

ROWS_PER_PAGE = 34  # rows of the floor table that fit on one A4 page (checked)

_ZH = [
    "GPU服务器",
    "网络设备",
    "并行存储",
    "供电与制冷",
    "机柜托管",
    "维保服务",
    "人员成本",
]
_EN = ["GPU servers", "Network", "Storage", "Power & cooling", "Colocation", "Support"]


def pdf_floor_html(
    pages: int, font_dir_url: str, rows_per_page: int = ROWS_PER_PAGE
) -> str:
    """``pages`` pages, each a heading, a line of Chinese text and a full table."""
    page_parts = []
    for page in range(pages):
        rows = "".join(
            f"<tr><td>{page * rows_per_page + i + 1}</td>"
            f"<td>{_ZH[i % len(_ZH)]}</td><td>{_EN[i % len(_EN)]}</td>"
            f'<td class="num">{(i + 1) * 1_234_567 % 98_765_432:,}</td>'
            f"<td>第{i + 1}年 · 名义值</td></tr>"
            for i in range(rows_per_page)
        )
        page_parts.append(
            f"<section><h2>成本明细 {page + 1}</h2><p>以下金额单位为元，按年度列出。</p>"
            "<table><thead><tr><th>序号</th><th>类别</th><th>Category</th>"
            f'<th class="num">金额</th><th>说明</th></tr></thead><tbody>{rows}'
            "</tbody></table></section>"
        )
    return (
        '<!DOCTYPE html><html lang="zh-hans"><head><meta charset="utf-8"><style>'
        '@font-face { font-family: "Noto Sans SC Subset"; font-weight: 400; '
        f'src: url("{font_dir_url}/NotoSansSC-Subset-Regular.otf"); }}'
        '@font-face { font-family: "Noto Sans SC Subset"; font-weight: 700; '
        f'src: url("{font_dir_url}/NotoSansSC-Subset-Bold.otf"); }}'
        "@page { size: A4; margin: 18mm 15mm 20mm 15mm; }"
        'html { font-family: "Noto Sans SC Subset", sans-serif; font-size: 9.5pt; '
        "line-height: 1.45; }"
        "section + section { page-break-before: always; }"
        "table { width: 100%; border-collapse: collapse; }"
        "th, td { border-bottom: 0.5pt solid #d9dee6; padding: 1.2mm 1.5mm; "
        "text-align: left; }"
        "td.num, th.num { text-align: right; }"
        f"</style></head><body>{''.join(page_parts)}</body></html>"
    )


def page_count(html: str) -> int:
    """Pages of ``html`` rendered as the app renders its PDFs (``clusterbuy.pdf``)."""
    from clusterbuy.pdf import render_document

    return len(render_document(html).pages)


def floor_html(pages: int) -> str:
    """The plain table of ``pages`` full pages (rows per page checked on one page)."""
    from clusterbuy.pdf import FONT_DIR

    font_dir = FONT_DIR.as_uri()
    rows = ROWS_PER_PAGE
    while page_count(pdf_floor_html(1, font_dir, rows + 1)) == 1:
        rows += 1
    while rows > 1 and page_count(pdf_floor_html(1, font_dir, rows)) > 1:
        rows -= 1
    html = pdf_floor_html(pages, font_dir, rows)
    assert page_count(html) == pages, "the floor must have the report's page count"
    return html


def _triangular(u: np.ndarray, low: float, mode: float, high: float) -> np.ndarray:
    f_mode = (mode - low) / (high - low)
    left = low + np.sqrt(u * (high - low) * (mode - low))
    right = high - np.sqrt((1 - u) * (high - low) * (high - mode))
    return np.where(u < f_mode, left, right)


def numpy_monte_carlo_floor(draws: int = 10_000, months: int = 60, seed: int = 1):
    """The minimum array work of the engine's Monte Carlo, same shapes."""
    rng = np.random.default_rng(seed)
    factors = _triangular(rng.random((11, draws)), 0.8, 1.0, 1.2)
    escalation = 1.03 ** (np.arange(months) // 12)
    opex = np.outer(factors[0] * 36_000.0, escalation)  # energy: per draw and month
    opex += (factors[1:8] * 10_000.0).sum(axis=0)[:, None]  # flat monthly costs
    capex = 23_000_000.0 * factors[8]
    cumulative = np.empty((draws, months + 1))
    cumulative[:, 0] = capex
    np.cumsum(opex, axis=1, out=cumulative[:, 1:])
    cumulative[:, 1:] += capex[:, None]
    cumulative[:, -1] -= 0.1 * capex * factors[9]
    total = cumulative[:, -1]
    out = {"total": np.percentile(total, (10, 50, 90))}
    month_index = np.arange(months + 1)
    for price in (120_000.0, 70_000.0, 50_000.0):
        cloud = np.outer(factors[10] * price * 12, month_index)
        cheaper = cumulative <= cloud
        first = np.where(cheaper.any(axis=1), cheaper.argmax(axis=1), -1)
        out[price] = (
            np.quantile(first, (0.1, 0.5, 0.9)),
            (total < cloud[:, -1]).mean(),
        )
    out["histogram"] = np.histogram(total, bins=30)
    return out


def timed(fn: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU seconds of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def best_of(fn: Callable[[], object], repeat: int = 5) -> tuple[float, float]:
    """Best wall and best CPU seconds of ``repeat`` calls after one warm-up call."""
    fn()
    times = [timed(fn) for _ in range(repeat)]
    return min(w for w, _ in times), min(c for _, c in times)
