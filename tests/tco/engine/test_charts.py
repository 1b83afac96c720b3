import re

import pytest

from tco.engine import charts, compute, monte_carlo, sensitivity, svg


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


def ids(markup: str, prefix: str) -> list[str]:
    return re.findall(rf'id="({prefix}[^"]*)"', markup)


def element(markup: str, element_id: str) -> dict[str, str]:
    """The attributes of the element with ``element_id``."""
    tag = re.search(rf'<\w+ id="{element_id}"([^>]*)/?>', markup).group(1)
    return dict(re.findall(r'([\w-]+)="([^"]*)"', tag))


def test_stacked_bars_one_bar_per_category_and_year(analysis):
    markup = charts.stacked_bars_svg(analysis["result"], lang="zh-hans")
    assert markup.startswith("<svg") and markup.endswith("</svg>")
    # 6 capex categories + energy, support, software, staff, failures + residual
    # = 12 non-zero categories, each drawn for years 0..3
    assert len(ids(markup, "bar-")) == 12 * 4
    assert "bar-residual-3" in markup
    for label in ("GPU服务器", "电费", "残值", "年份"):
        assert f">{label}</text>" in markup


def test_stacked_bar_heights_are_proportional_to_the_amounts(analysis):
    result = analysis["result"]
    markup = charts.stacked_bars_svg(result, lang="en")
    year0 = result["years"][0]
    gpu = element(markup, "bar-gpu_servers-0")
    network = element(markup, "bar-network-0")
    ratio = float(gpu["height"]) / float(network["height"])
    assert ratio == pytest.approx(year0["gpu_servers"] / year0["network"], rel=0.01)
    # the network bar sits on top of the GPU servers bar
    assert float(network["y"]) + float(network["height"]) == pytest.approx(
        float(gpu["y"]), abs=0.11
    )
    # the residual value is below zero: its bar starts at the zero line, goes down
    residual = element(markup, "bar-residual-3")
    zero_line_y = float(re.search(r'y1="([\d.]+)"[^>]*stroke-width="0.8"', markup)[1])
    assert float(residual["y"]) == pytest.approx(zero_line_y, abs=0.11)


def test_cumulative_marks_break_even(analysis):
    markup = charts.cumulative_svg(analysis["result"], lang="en")
    assert set(ids(markup, "breakeven-")) == {
        "breakeven-on_demand",
        "breakeven-reserved",
        "breakeven-spot",
    }
    assert len(ids(markup, "line-")) == 4
    assert ">Break-even M14</text>" in markup
    points = element(markup, "line-onprem")["points"].split()
    assert len(points) == 3 * 12 + 1  # months 0..36


def test_tornado_two_bars_per_parameter_largest_swing_on_top(analysis):
    rows = analysis["sensitivity"]
    markup = charts.tornado_svg(rows, lang="zh-hans")
    assert len(ids(markup, "tornado-")) == 2 * len(rows)
    assert "电价" in markup and "折现率" in markup
    first, last = rows[0]["parameter"], rows[-1]["parameter"]
    top = element(markup, f"tornado-{first}-high")
    bottom = element(markup, f"tornado-{last}-high")
    assert float(top["y"]) < float(bottom["y"])
    assert float(top["width"]) >= float(bottom["width"])


def test_histogram_bins_percentiles_and_custom_labels(analysis):
    mc = analysis["monte_carlo"]
    markup = charts.histogram_svg(
        mc, lang="en", labels={"title_histogram": "Custom <title> & co"}
    )
    assert len(ids(markup, "hist-bin-")) == len(mc["histogram"]["counts"])
    assert ">Custom &lt;title&gt; &amp; co</text>" in markup  # escaped
    xs = [float(element(markup, f"hist-{p}")["x1"]) for p in ("p10", "p50", "p90")]
    assert xs == sorted(xs) and xs[0] < xs[2]
    assert "hist-deterministic" in markup
    counts = mc["histogram"]["counts"]
    tallest = max(range(len(counts)), key=counts.__getitem__)
    heights = [
        float(element(markup, f"hist-bin-{i}")["height"]) for i in range(len(counts))
    ]
    assert max(heights) == heights[tallest]


@pytest.mark.parametrize("lang", ["en", "zh-hans"])
def test_text_stays_text_readable_at_card_width_and_output_is_deterministic(
    analysis, lang
):
    made = [
        charts.stacked_bars_svg(analysis["result"], lang),
        charts.cumulative_svg(analysis["result"], lang),
        charts.tornado_svg(analysis["sensitivity"], lang),
        charts.histogram_svg(analysis["monte_carlo"], lang),
    ]
    assert made[0] == charts.stacked_bars_svg(analysis["result"], lang)
    for markup in made:
        assert f'viewBox="0 0 {svg.WIDTH} {svg.HEIGHT}"' in markup
        assert "font-family=\"'Noto Sans SC Subset'" in markup
        assert "<path" not in markup  # no glyph outlines
        sizes = [float(s) for s in re.findall(r'font-size="([\d.]+)"', markup)]
        assert min(sizes) >= svg.TEXT == 13
        # 13 units of a 520-unit-wide drawing on a 440 px card: 11 px
        assert min(sizes) * svg.MIN_BOX_PX / svg.WIDTH >= 11


def test_nice_ticks():
    assert svg.nice_ticks(0, 23.1e6) == [0, 5e6, 10e6, 15e6, 20e6, 25e6]
    assert svg.nice_ticks(-3.3e6, 23.1e6) == [-5e6, 0, 5e6, 10e6, 15e6, 20e6, 25e6]
    assert svg.nice_ticks(0, 7) == [0, 2, 4, 6, 8]
    # one value: +/- 10 % around it
    assert svg.nice_ticks(5, 5) == pytest.approx([4.4, 4.6, 4.8, 5.0, 5.2, 5.4, 5.6])
    assert svg.nice_ticks(0, 0) == [-1.0, -0.5, 0.0, 0.5, 1.0]


def test_text_width_and_fit():
    assert svg.text_width("电费", 10) == 20  # wide characters: 1 em
    assert svg.text_width("PUE", 10) == pytest.approx(18)  # others 0.6 em
    assert svg.fit("Cloud price (cloud reserved total)", 100).endswith("…")
    assert svg.text_width(svg.fit("Cloud price (cloud reserved total)", 100)) <= 100
    assert svg.fit("电价", 100) == "电价"
