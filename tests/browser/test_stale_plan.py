"""The stale-plan banner in a browser (issue 21, item 10): after a workload edit the
sizing and RFP tabs say the plan is out of date, in Chinese, and the banner's button
recomputes it (a control that does something)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import new_page
from tests.browser.test_journeys import demo, log_in_demo  # noqa: F401 - fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_workload_edit_shows_the_banner_and_recompute_clears_it(
    browser,
    base_url,
    demo,  # noqa: F811 - the imported fixture
):
    from sizing import services
    from sizing.models import SizingPlan, Workload

    page: Page = new_page(browser, base_url, "zh-hans")
    log_in_demo(page, "demo-it", submit="登录")
    page.goto(f"/procurements/{demo.pk}/sizing/")
    expect(page.locator("#stale-plan")).to_have_count(0)

    workload = Workload.objects.for_procurement(demo).first()
    services.update_workload(workload=workload, name=workload.name + " v2")
    for tab in ("rfp", "sizing"):
        page.goto(f"/procurements/{demo.pk}/{tab}/")
        expect(page.locator("#stale-plan")).to_contain_text("方案已过期")
    plans = SizingPlan.objects.filter(procurement=demo).count()
    page.get_by_role("button", name="重新计算方案").click()
    expect(page.locator("#stale-plan")).to_have_count(0)
    assert SizingPlan.objects.filter(procurement=demo).count() == plans + 1
    assert page.js_errors == []
