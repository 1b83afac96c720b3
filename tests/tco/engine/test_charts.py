import re

import pytest
from matplotlib import font_manager

from tco.engine import charts, compute, monte_carlo, sensitivity


@pytest.fixture(scope="module")
def analysis():
    from tco.engine import inputs_from_dict

    from .conftest import HAND_CASE

    inputs = inputs_from_dict(HAND_CASE)
    return {
        "result": compute(inputs).to_dict(),
        "sensitivity": sensitivity(inputs),
        "monte_carlo": monte_carlo(inputs, draws=2_000),
    }


def ids(svg: str, prefix: str) -> list[str]:
    return re.findall(rf'id="({prefix}[^"]*)"', svg)


def test_shipped_cjk_font_is_registered():
    assert charts.register_fonts()
    path = font_manager.findfont(
        font_manager.FontProperties(family=charts.FONT_FAMILY),
        fallback_to_default=False,
    )
    assert path.endswith("NotoSansSC-Subset-Regular.otf")


def test_stacked_bars_one_bar_per_category_and_year(analysis):
    svg = charts.stacked_bars_svg(
        analysis["result"], lang="zh-hans", text_as_paths=False
    )
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    # 6 capex categories + energy, support, software, staff, failures + residual
    # = 12 non-zero categories, each drawn for years 0..3
    assert len(ids(svg, "bar-")) == 12 * 4
    assert "bar-residual-3" in svg
    for label in ("GPU服务器", "电费", "残值", "年份"):
        assert label in svg


def test_cumulative_marks_break_even(analysis):
    svg = charts.cumulative_svg(analysis["result"], lang="en", text_as_paths=False)
    assert set(ids(svg, "breakeven-")) == {
        "breakeven-on_demand",
        "breakeven-reserved",
        "breakeven-spot",
    }
    assert len(ids(svg, "line-")) == 4
    assert "Break-even M14" in svg


def test_tornado_two_bars_per_parameter(analysis):
    rows = analysis["sensitivity"]
    svg = charts.tornado_svg(rows, lang="zh-hans", text_as_paths=False)
    assert len(ids(svg, "tornado-")) == 2 * len(rows)
    assert "电价" in svg and "折现率" in svg


def test_histogram_bins_and_custom_labels(analysis):
    mc = analysis["monte_carlo"]
    svg = charts.histogram_svg(
        mc, lang="en", labels={"title_histogram": "Custom title"}, text_as_paths=False
    )
    assert len(ids(svg, "hist-bin-")) == len(mc["histogram"]["counts"])
    assert "Custom title" in svg
    assert "hist-deterministic" in svg


def test_text_is_drawn_as_paths_by_default_and_output_is_deterministic(analysis):
    first = charts.stacked_bars_svg(analysis["result"], lang="zh-hans")
    second = charts.stacked_bars_svg(analysis["result"], lang="zh-hans")
    assert first == second
    assert (
        "<text" not in first
    )  # glyphs are paths; matplotlib keeps the string as a comment
    assert "<!-- GPU服务器 -->" in first
    assert 'id="NotoSansSCSubset-Regular-' in first
    assert 'id="bar-gpu_servers-0"' in first
