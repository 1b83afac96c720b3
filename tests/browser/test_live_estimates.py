"""Live estimates in a real browser (issue 13): they follow every field while the form
is still incomplete, and nothing on the page breaks the Content-Security-Policy.

Issue 13, done when: "A browser test changes each TCO input before naming the
scenario and sees the estimate change." The scenario name (the one required field)
stays empty throughout; every numeric input of the form is changed in turn and the
estimate must change with it, with no console error (CSP reports included).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_journeys import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: A new value for every numeric input of the TCO form, each within its range and
#: different from the value before it. The scenario is first switched to USD so that
#: the exchange rate matters (it converts the CNY defaults); capex line 1 is filled so
#: that support, warranty, failures and residual value have hardware to act on. A
#: numeric input missing here fails the test: a new input must be added.
NEW_VALUES = {
    "fx_usd_cny": "7.5",
    "capex-0-amount": "2000000",
    "horizon_years": "3",
    "gpu_count": "16",
    "it_power_kw": "50",
    "load_factor": "0.85",
    "pue": "1.5",
    "electricity_price_per_kwh": "0.12",
    "electricity_escalation": "0.03",
    "colocation_per_kw_month": "20",
    "support_rate": "0.15",
    "warranty_years": "2",
    "software_per_year": "10000",
    "staff_fte": "2",
    "staff_cost_per_fte_year": "70000",
    "staff_escalation": "0.08",
    "annual_failure_rate": "0.06",
    "replacement_cost_share": "0.5",
    "discount_rate": "0.1",
    "residual_value_rate": "0.2",
    "utilization": "0.8",
    "cloud_on_demand_per_gpu_hour": "9",
    "cloud_reserved_per_gpu_hour": "3.5",
    "cloud_spot_per_gpu_hour": "4",
    "spot_overhead": "0.25",
    "hybrid_cloud_share": "0.4",
}
#: Empty capex rows (no category) are not lines: their amounts need no value.
SKIPPED = re.compile(r"^capex-[12]-amount$")


def _console_errors(page: Page) -> list[str]:
    """Console errors (CSP violations are reported there), except the browser's own
    request for /favicon.ico, which the pages do not link (the layout's business)."""
    errors: list[str] = []

    def record(message) -> None:
        if message.type == "error" and not message.location.get("url", "").endswith(
            "/favicon.ico"
        ):
            errors.append(f"{message.text} at {message.location.get('url')}")

    page.on("console", record)
    return errors


def _preview_answer(page: Page):
    return page.expect_response(
        lambda r: r.url.endswith("/tco/preview/") and r.request.method == "POST"
    )


def _change(page: Page, control, value: str, *, select: bool = False) -> str:
    """Set ``control`` to ``value`` and return the estimate once it has changed."""
    preview = page.locator("#tco-preview")
    before = preview.inner_text()
    with _preview_answer(page) as answer:
        if select:
            control.select_option(value)
        else:
            control.fill(value)
    assert answer.value.status == 200
    expect(preview).not_to_have_text(before)
    return preview.inner_text()


def test_changes_each_tco_input_before_naming_the_scenario_and_sees_the_estimate_change(
    page_en: Page, it_lead, procurement, shots
):
    page = page_en
    console_errors = _console_errors(page)
    log_in(page, it_lead.username)
    page.goto(f"/procurements/{procurement.pk}/tco/")
    form = page.locator("#tco-form")
    expect(page.locator("#preview-total")).to_be_visible()
    name = form.locator("[name=name]")
    expect(name).to_have_value("")

    _change(page, form.locator("[name=currency]"), "USD", select=True)
    expect(page.locator("#preview-total")).to_contain_text("USD")
    form.locator("[name=capex-0-category]").select_option("gpu_servers")

    numeric = [
        n
        for n in form.locator("input[type=number]").evaluate_all(
            "els => els.map(e => e.name)"
        )
        if not SKIPPED.match(n)
    ]
    assert set(numeric) == set(NEW_VALUES), "every numeric input needs a new value"
    changed = []
    for input_name in ["fx_usd_cny", "capex-0-amount"] + [
        n for n in numeric if n not in ("fx_usd_cny", "capex-0-amount")
    ]:
        _change(page, form.locator(f"[name={input_name}]"), NEW_VALUES[input_name])
        expect(page.locator(f"#errors-{input_name}")).to_be_empty()
        expect(page.locator("#tco-preview [data-partial]")).to_have_count(0)
        changed.append(input_name)
    assert len(changed) == len(NEW_VALUES) == 26
    expect(name).to_have_value("")  # never named
    shots(page, "every input changed, no name")

    # An out-of-range value: its error beside it, named by its label with the range,
    # the rest still counted and the estimate greyed with a note; then corrected.
    _change(page, form.locator("[name=pue]"), "0.8")
    expect(page.locator("#errors-pue")).to_have_text(
        "PUE: Must be a number from 1 to 5."
    )
    expect(page.locator("#tco-preview [data-partial]")).to_have_count(1)
    expect(page.locator("#tco-preview-note")).to_contain_text(
        "Not counted until corrected: PUE."
    )
    shots(page, "invalid pue greyed")
    _change(page, form.locator("[name=pue]"), "1.4")
    expect(page.locator("#errors-pue")).to_be_empty()
    expect(page.locator("#tco-preview-note")).to_have_text("")
    expect(page.locator("#tco-preview [data-partial]")).to_have_count(0)

    assert page.js_errors == []
    assert console_errors == []


def test_the_stage_filter_works_under_the_content_security_policy(
    page_en: Page, it_lead, procurement
):
    from clusterbuy.models import Stage

    page = page_en
    console_errors = _console_errors(page)
    log_in(page, it_lead.username)
    page.goto("/procurements/")
    expect(page.get_by_role("link", name=procurement.name)).to_be_visible()
    other = next(value for value, _label in Stage.choices if value != procurement.stage)

    with page.expect_navigation():
        page.locator("select[name=stage]").select_option(str(other))

    assert f"stage={other}" in page.url
    expect(page.get_by_role("link", name=procurement.name)).to_have_count(0)
    assert page.js_errors == []
    assert console_errors == []


def test_quick_calculator_follows_region_targets_and_invalid_counts(
    page_en: Page, catalog
):
    page = page_en
    console_errors = _console_errors(page)
    page.goto("/quick/")
    form = page.locator("#quick-form")
    result = page.locator("#quick-result")

    def answer(action) -> None:
        with page.expect_response(
            lambda r: r.url.endswith("/quick/") and r.request.method == "POST"
        ) as response:
            action()
        assert response.value.status == 200

    answer(lambda: form.locator("[name=accelerator]").select_option("h20-sxm-96gb"))
    availability = result.locator("#quick-checks tr", has_text="Availability in")
    expect(availability).to_contain_text("Outside China")
    expect(availability).to_contain_text("cannot be bought")

    answer(lambda: form.locator("[name=region]").select_option("cn"))
    expect(availability).to_contain_text("Mainland China")
    expect(availability).to_contain_text("can be bought under conditions")

    answer(lambda: form.locator("[name=tpot_ms]").fill("1"))
    expect(result.locator("#quick-checks tr", has_text="TPOT")).to_contain_text(
        "misses target"
    )

    # GPU count 0: the browser's own check (min=1) must not hold the request back;
    # the field error replaces the previous result.
    answer(lambda: form.locator("[name=gpu_count]").fill("0"))
    expect(result.locator("#quick-checks")).to_have_count(0)
    expect(result).to_contain_text(
        "GPU count: Ensure this value is greater than or equal to 1."
    )
    answer(lambda: form.locator("[name=gpu_count]").fill("8"))
    expect(result.locator("#quick-checks")).to_be_visible()

    assert page.js_errors == []
    assert console_errors == []
