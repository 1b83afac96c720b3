"""A line item's term and scope in a real browser (issue 24), in Chinese and English:
entered in the bid page's line-item form, saved, shown in the line-item table, and
counted by the normalised TCO - a support line for contract years 4-5 for 2 years,
not the 5-year horizon; a 服务包 whose scope names network, storage and installation
is not filled in again. Fails on console errors, horizontal overflow and text in the
other language."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.browser.test_journeys import log_in
from tests.browser.test_live_estimates import _console_errors

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# What the reader of each language clicks and reads.
TEXT = {
    "en": {
        "add": "Add a line item",
        "category": "^Category",
        "description": "^Description",
        "quantity": "^Quantity",
        "unit_price": "^Unit price",
        "recurring": "Recurring (per year)",
        "year_from": "^From year",
        "year_to": "^To year",
        "button": "Add",
        "added": "Line item added",
        "support": "Support",
        "scope": ("Network", "Storage", "Installation"),
        "years": "years 4–5",
        "years_header": "Years covered",
        "support_basis": "x 2 y (years 4-5)",
        "breakdown": "Normalised TCO, item by item",
        "support_text": "Vendor support, contract years 4-5",
        "package_text": "Service package incl. fabric, storage and installation",
        "foreign": re.compile(r"覆盖年份|同时包含|报价明细|归一化"),
    },
    "zh-hans": {
        "add": "添加报价明细",
        "category": "^类别",
        "description": "^描述",
        "quantity": "^数量",
        "unit_price": "^单价",
        "recurring": "按年计费",
        "year_from": "^起始年",
        "year_to": "^截止年",
        "button": "添加",
        "added": "报价明细已添加",
        "support": "技术支持",
        "scope": ("网络", "存储", "安装调试"),
        "years": "第 4–5 年",
        "years_header": "覆盖年份",
        "support_basis": "x 2 年 (第 4-5 年)",
        "breakdown": "归一化 TCO 明细",
        "support_text": "原厂维保（第4–5年）",
        "package_text": "服务包（组网、存储、安装）",
        "foreign": re.compile(
            r"Years covered|Also covers|Add a line item|item by item"
        ),
    },
}


def _bid(org, buyer, language):
    from clusterbuy import services as core
    from tests.vendors.test_support import line, make_bid, make_vendor

    procurement = core.create_procurement(
        organisation=org,
        user=buyer,
        name=f"Line terms {language}",
        currency="CNY",
        horizon_years=5,
    )
    bid = make_bid(
        procurement,
        make_vendor(org, f"Term Systems {language}"),
        lines=[line("gpu_servers", 8, 2_000_000, description="8-GPU HGX server")],
        warranty_years=3,
    )
    return procurement, bid


def _add_line(page: Page, text: dict, values: dict) -> None:
    box = page.locator("details", has_text=text["add"])
    if box.get_attribute("open") is None:
        box.locator("summary").first.click()
    box.get_by_label(re.compile(text["category"])).select_option(values["category"])
    box.get_by_label(re.compile(text["description"])).fill(values["description"])
    box.get_by_label(re.compile(text["quantity"])).fill("1")
    box.get_by_label(re.compile(text["unit_price"])).fill(values["price"])
    box.get_by_label(text["recurring"]).set_checked(values.get("recurring", False))
    if "years" in values:
        box.get_by_label(re.compile(text["year_from"])).fill(values["years"][0])
        box.get_by_label(re.compile(text["year_to"])).fill(values["years"][1])
    for label in values.get("scope", ()):
        box.get_by_role("checkbox", name=label, exact=True).check()
    box.get_by_role("button", name=text["button"], exact=True).click()
    expect(page.get_by_role("status")).to_contain_text(text["added"])


def _overflow(page: Page) -> int:
    return page.evaluate(
        "() => document.scrollingElement.scrollWidth - window.innerWidth"
    )


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_support_term_and_a_package_scope_are_entered_shown_and_costed(
    request, browser, base_url, org, buyer, shots, language
):
    from tests.browser.conftest import new_page

    page = new_page(browser, base_url, language)
    request.addfinalizer(page.context.close)
    console_errors = _console_errors(page)
    text = TEXT[language]
    procurement, bid = _bid(org, buyer, language)

    log_in(page, buyer.username, submit="Log in" if language == "en" else "登录")
    page.goto(reverse("vendors:bid-detail", args=[procurement.pk, bid.pk]))
    _add_line(
        page,
        text,
        {
            "category": "support",
            "description": text["support_text"],
            "price": "300000",
            "recurring": True,
            "years": ("4", "5"),
        },
    )
    _add_line(
        page,
        text,
        {
            "category": "other",
            "description": text["package_text"],
            "price": "3000000",
            "scope": text["scope"],
        },
    )
    shots(page, f"{language} line items with term and scope")

    table = page.locator("table.line-items")
    expect(table.locator("thead")).to_contain_text(text["years_header"])
    support = table.locator("tr", has_text=text["support_text"])
    expect(support).to_contain_text(text["years"])
    package = table.locator("tr", has_text=text["package_text"])
    expect(package).to_contain_text(", ".join(text["scope"]))

    # The TCO: the support line for 2 years (300,000 x 2), not 5; the 3-year
    # warranty and the years-4-5 support cover the horizon, so ClusterBuy adds no
    # support; the package's scope covers network, storage and installation.
    page.locator("summary", has_text=text["breakdown"]).click()
    breakdown = page.locator("details.breakdown", has_text=text["breakdown"])
    # the engine's basis "300,000.00/y x 2 y (years 4-5)" in the page's language
    row = breakdown.locator("tr", has_text=text["support_basis"])
    expect(row).to_have_count(1)
    expect(row.locator("td.num")).to_have_text("600,000.00")
    # one support row, the quoted one: no "support after warranty" added
    expect(breakdown.locator("tr", has_text=text["support"])).to_have_count(1)

    from vendors.comparison import pricing

    tco = pricing.bid_tco(
        bid, pricing.bid_lines(bid), procurement=procurement, plan=None
    )
    added = {h["category"] for h in tco.hidden_costs}
    assert not added & {"network", "storage", "installation", "support"}
    assert tco.covered_years == 5.0

    body = page.locator("main").inner_text()
    assert not text["foreign"].search(body), text["foreign"].search(body)
    assert _overflow(page) <= 0
    assert page.js_errors == []
    assert console_errors == []
