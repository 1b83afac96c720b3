"""The buyer's RFP page on a phone, in Chinese: reached from the procurement's tabs,
no sideways scroll at 390 px (wide tables scroll inside the card), the settings saved
through the form and the weights column appearing once published, and the PDF pack
downloaded from its button."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from tests.browser.conftest import new_page
from tests.browser.test_journeys import demo, log_in_demo  # noqa: F401 - fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def _page_width(page: Page) -> int:
    return page.evaluate("() => document.scrollingElement.scrollWidth")


def test_rfp_page_on_a_phone_in_chinese(
    browser,
    base_url,
    demo,  # noqa: F811 - the imported fixture
):
    from vendors.models import RfpSettings

    page: Page = new_page(browser, base_url, "zh-hans")
    page.set_viewport_size(PHONE)
    log_in_demo(page, "demo-buyer", submit="登录")
    page.goto(f"/procurements/{demo.pk}/")
    page.get_by_role("link", name="招标文件").click()
    expect(page.locator("#rfp-minimums")).to_contain_text("交付算力")
    expect(page.locator("#rfp-minimums")).to_contain_text("≥")
    assert _page_width(page) <= PHONE["width"]
    assert page.js_errors == []

    deadline = timezone.localtime(timezone.now() + timedelta(days=10))
    page.locator("#id_deadline").fill(deadline.strftime("%Y-%m-%dT%H:%M"))
    page.locator("#id_publish_weights").check()
    page.locator("#id_instructions").fill("请附上至少两个案例。")
    page.get_by_role("button", name="保存招标设置").click()
    expect(page.locator("#rfp-criteria thead")).to_contain_text("权重")
    assert _page_width(page) <= PHONE["width"]
    row = RfpSettings.objects.get(procurement=demo)
    assert row.publish_weights is True
    assert row.instructions == "请附上至少两个案例。"
    assert timezone.localtime(row.deadline).strftime("%Y-%m-%d %H:%M") == (
        deadline.strftime("%Y-%m-%d %H:%M")
    )

    with page.expect_download() as download:
        page.get_by_role("link", name="PDF").click()
    pdf = PdfReader(io.BytesIO(open(download.value.path(), "rb").read()))
    text = "".join(p.extract_text() for p in pdf.pages)
    assert "投标必须满足的最低要求" in text
    assert "请附上至少两个案例。" in text
    page.context.close()
