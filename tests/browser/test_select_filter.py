"""The bid form's accelerator select: a filter box (static/js/app.js, no inline
script) narrows the grouped options as the user types, the accelerators buyable in
the procurement's region listed first (issue 13: "catalog selects with search")."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import new_page
from tests.browser.test_journeys import demo, log_in_demo  # noqa: F401 - fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VISIBLE_OPTIONS = """() => [...document.querySelectorAll(
  "select[name=accelerator] option")].filter(o => o.value && !o.hidden)
  .map(o => o.value)"""
VISIBLE_GROUPS = """() => [...document.querySelectorAll(
  "select[name=accelerator] optgroup")].filter(g => !g.hidden).map(g => g.label)"""


def test_typing_in_the_filter_narrows_the_accelerators_and_picks_a_single_match(
    browser,
    base_url,
    demo,  # noqa: F811 - the imported fixture
):
    page: Page = new_page(browser, base_url, "zh-hans")
    page.js_errors.clear()
    log_in_demo(page, "demo-buyer", submit="登录")
    page.goto(f"/procurements/{demo.pk}/bids/new/")
    box = page.get_by_role("searchbox", name="筛选加速卡")
    assert box.get_attribute("placeholder") == "筛选：输入名称，例如 H200"
    everything = page.evaluate(VISIBLE_OPTIONS)
    assert len(everything) > 10
    groups = page.evaluate(VISIBLE_GROUPS)
    assert groups[-1].endswith("无法购买（出口管制）")  # the region's others last

    box.fill("mi300")
    assert page.evaluate(VISIBLE_OPTIONS) == ["mi300x-oam-192gb"]
    assert page.evaluate(VISIBLE_GROUPS) == [groups[-1]]
    assert page.locator("select[name=accelerator]").input_value() == (
        "mi300x-oam-192gb"
    )

    box.fill("h 20")  # spaces and case aside: H20, H200, H20-3e ...
    shown = page.evaluate(VISIBLE_OPTIONS)
    assert "h20-sxm-96gb" in shown and "h200-sxm-141gb" in shown
    assert all("h20" in key for key in shown)

    box.fill("")
    assert page.evaluate(VISIBLE_OPTIONS) == everything
    assert page.js_errors == []
    page.context.close()
