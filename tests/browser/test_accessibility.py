"""axe-core on the key pages, in Chinese and English (issue 13).

Issue 13, done when: "Accessibility: axe-core (e.g. the axe-playwright-python package,
which bundles it) reports no serious or critical violation on the key pages." The
pages are the demo procurement's: the procurement list, its overview, the
questionnaire, the sizing plan, the comparison and a TCO run. Every violation found
(any impact) is written to test-artifacts/axe-<language>.json for a human reader.
"""

from __future__ import annotations

import json
import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

from tests.browser.conftest import ARTIFACTS, new_page
from tests.browser.test_journeys import demo, log_in_demo  # noqa: F401 - fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BLOCKING = {"serious", "critical"}


def pages_of(procurement) -> list[tuple[str, str]]:
    from tco.models import TcoRun

    pk = procurement.pk
    run = TcoRun.objects.filter(scenario__procurement=procurement).order_by("-pk")
    assert run.exists(), "the demo has a TCO run"
    return [
        ("procurement list", "/procurements/"),
        ("overview", f"/procurements/{pk}/"),
        ("questionnaire", f"/procurements/{pk}/requirements/"),
        ("sizing plan", f"/procurements/{pk}/sizing/"),
        ("comparison", f"/procurements/{pk}/comparison/"),
        ("tco run", f"/procurements/{pk}/tco/runs/{run.first().pk}/"),
    ]


def _summary(violation: dict) -> str:
    targets = [", ".join(node["target"]) for node in violation["nodes"][:4]]
    return (
        f"{violation['impact']} {violation['id']}: {violation['help']}"
        f" ({len(violation['nodes'])}x: {'; '.join(targets)})"
    )


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_key_pages_have_no_serious_or_critical_axe_violation(
    browser,
    base_url,
    demo,  # noqa: F811 - the imported fixture
    language,
):
    page: Page = new_page(browser, base_url, language)
    axe = Axe()
    log_in_demo(
        page, "demo-admin", submit="登录" if language == "zh-hans" else "Log in"
    )
    report, blocking = {}, []
    for name, url in pages_of(demo):
        response = page.goto(url)
        assert response.status == 200, f"{url}: {response.status}"
        page.wait_for_function("() => !document.querySelector('.htmx-request')")
        violations = axe.run(page).response["violations"]
        report[name] = [_summary(v) for v in violations]
        blocking += [
            f"{name} ({url}): {_summary(v)}"
            for v in violations
            if v["impact"] in BLOCKING
        ]
    page.context.close()
    ARTIFACTS.mkdir(exist_ok=True)
    slug = re.sub(r"[^a-z]+", "-", language)
    (ARTIFACTS / f"axe-{slug}.json").write_text(
        json.dumps(report, ensure_ascii=False, indent=2), encoding="utf-8"
    )
    assert not blocking, "serious or critical axe violations:\n" + "\n".join(blocking)


PHONE = {"width": 390, "height": 844}


def test_phone_comparison_keeps_row_labels_and_charts_open_large(
    browser,
    base_url,
    demo,  # noqa: F811 - the imported fixture
):
    """At 390 px the comparison scrolls inside its card with the row labels in view;
    on a desktop a TCO chart opens large in a dialog and closes again, by mouse and
    by keyboard (static/js/lightbox.js)."""
    page: Page = new_page(browser, base_url, "en")
    page.set_viewport_size(PHONE)
    log_in_demo(page, "demo-admin", submit="Log in")
    pk = demo.pk

    page.goto(f"/procurements/{pk}/comparison/")
    wrap = page.locator(".comparison-wrap").first
    label = wrap.locator("th[scope=row]").first
    width = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert width <= PHONE["width"]
    scrollable = wrap.evaluate("el => el.scrollWidth - el.clientWidth")
    assert scrollable > 50, "four vendors do not fit 390 px: the card scrolls"
    before = label.bounding_box()["x"]
    wrap.evaluate("el => { el.scrollLeft = el.scrollWidth; }")
    page.wait_for_function(
        "el => el.scrollLeft > 0", arg=wrap.element_handle(), polling="raf"
    )
    assert abs(label.bounding_box()["x"] - before) < 1, "row label scrolled away"
    cell = wrap.locator("tbody tr:has(th[scope=row]) td").first
    assert cell.bounding_box()["x"] < before, "the vendor cells did scroll"

    from tco.models import TcoRun

    run = TcoRun.objects.filter(scenario__procurement=demo).order_by("-pk").first()
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(f"/procurements/{pk}/tco/runs/{run.pk}/")
    chart = page.locator(".chart svg").first
    chart.click()
    dialog = page.locator("dialog.lightbox")
    dialog.wait_for(state="visible")
    small = chart.bounding_box()["width"]
    large = dialog.locator("svg").bounding_box()["width"]
    assert large > small, (small, large)
    dialog.get_by_role("button", name="Close").click()
    dialog.wait_for(state="detached")
    chart.focus()
    page.keyboard.press("Enter")
    dialog.wait_for(state="visible")
    page.keyboard.press("Escape")
    dialog.wait_for(state="detached")
    assert not page.js_errors
    page.context.close()
