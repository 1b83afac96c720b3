"""Two journeys of issue 22 in a real browser, in Chinese and in English, desktop and
phone width:

- an over-budget bid: the procurement's ceiling is below the chosen bid's price; the
  plan shows the cluster over budget, the comparison marks the bid, the TCO page shows
  the variance, and the memo PDF states it;
- a blind evaluator who sees none of a vendor's aliases: the buyer previews what blind
  grading would leave visible, masks a code name said once with one click; the IT
  lead, blind, then reads the comparison and the bid without its legal name, short
  name, brand or model code.

Each page is checked for console errors, its language (`Watch`, shared with the
decision journey) and for a page wider than a 390 px phone viewport.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import new_page
from tests.browser.test_decision_journey import (
    Watch,
    procurement_with_workloads,
    t,
    two_bids,
)
from tests.browser.test_journeys import log_in, pdf_text
from tests.vendors.test_support import BALANCED_TEXT

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
CEILING = Decimal("10000000")  # CNY: below the balanced bid's quote
LEGAL = "上海华东智能计算技术有限公司"
LEAKS = ("华东智算", "天际", "TJ-AI8000", "HDZS-Q1", "上海华东")
PROPOSAL = (
    "华东智算为贵司提供天际 TJ-AI8000 集群，配套天际 AI 平台。Project code HDZS-Q1. "
)
SOFTWARE_LINE = "天际 AI 平台 软件许可"
CASE_STUDY = "华东智算为某银行交付 256 卡集群。"
TEXTS = (
    LEGAL,
    PROPOSAL,
    SOFTWARE_LINE,
    CASE_STUDY,
    "金融",
    "天际 TJ-AI8000",
    BALANCED_TEXT,
)


def _findings(watch, texts: tuple[str, ...] = ()) -> dict:
    """The language findings less CJK runs that are pieces of the vendors' own texts
    (a snippet, or a text with its names masked, is data, not UI copy)."""
    out = {}
    for step, found in watch.language_findings.items():
        if isinstance(found, list):
            found = [f for f in found if not any(f in text for text in texts)]
        if found:
            out[step] = found
    return out


def _fits_phone(page, watch, name: str) -> None:
    """At 390 px the page itself never scrolls sideways (tables scroll in cards)."""
    desktop = page.viewport_size
    page.set_viewport_size(PHONE)
    width = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert width <= PHONE["width"], f"{name}: {width} px wide at 390 px"
    watch.step(f"{name} (phone)")
    page.set_viewport_size(desktop)


def _decided_over_budget(procurement, buyer, manager, language):
    from django.utils import translation

    from sizing import services as sizing
    from tco import services as tco
    from tests.vendors.test_support import at_decision_stage
    from vendors.services import decisions

    procurement.budget_min, procurement.budget_max = None, CEILING
    procurement.save()
    sizing.compute_sizing_plan(procurement=procurement, user=buyer)
    bids = two_bids(procurement, buyer)
    chosen = next(iter(bids.values()))[0]
    at_decision_stage(procurement)
    decisions.record_decision(
        procurement=procurement,
        user=manager,
        bid=chosen,
        rationale="Balanced.",
        override_reason="Balanced design over rank.",  # kept only if it is one
    )
    with translation.override(language):  # capex lines are labelled when created
        scenario = tco.create_scenario_from_source(
            procurement=procurement, user=buyer, bid=chosen.pk
        )
    run = tco.request_tco_run(scenario=scenario, user=buyer, enqueue=False)
    return tco.execute_tco_run(run_id=run.pk)


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_an_over_budget_bid_is_marked_on_the_plan_comparison_tco_and_memo(
    browser, base_url, language, org, it_lead, buyer, manager, catalog, monkeypatch
):
    from tco import services as tco

    monkeypatch.setattr(tco, "MONTE_CARLO_DRAWS", 500)
    procurement = procurement_with_workloads(org, it_lead)
    run = _decided_over_budget(procurement, buyer, manager, language)
    page = new_page(browser, base_url, language)
    watch = Watch(page, language, f"over-budget-{language}")

    def _(msgid: str, **values) -> str:
        return t(language, msgid, **values)

    try:
        log_in(page, buyer.username, submit=_("Log in"))
        page.goto(f"/procurements/{procurement.pk}/sizing/")
        plan = page.locator("#plan-budget")
        expect(plan).to_have_attribute("data-over-budget", "true")
        expect(plan).to_contain_text(_("Over budget"))
        watch.step("plan over budget")
        _fits_phone(page, watch, "plan")

        page.goto(f"/procurements/{procurement.pk}/comparison/")
        row = page.locator("tr", has_text=_("Against the budget")).first
        expect(row.locator("td.over-budget").first).to_contain_text(_("Over budget"))
        expect(row).to_contain_text("10,000,000 CNY")
        watch.step("comparison marks the bid")
        _fits_phone(page, watch, "comparison")

        page.goto(f"/procurements/{procurement.pk}/tco/runs/{run.pk}/")
        variance = page.locator("#tco-budget")
        expect(variance).to_have_attribute("data-over-budget", "true")
        expect(variance).to_contain_text(_("variance"))
        watch.step("TCO variance")
        _fits_phone(page, watch, "TCO run")

        memo = page.request.get(
            f"/api/v1/procurements/{procurement.pk}/decision/memo.pdf",
            headers={"Accept-Language": language},
        )
        assert memo.ok, memo.status
        path = watch.dir / "memo.pdf"
        path.write_bytes(memo.body())
        assert _("Over budget") in pdf_text(path)
        assert watch.console == []
        assert _findings(watch, TEXTS) == {}
    except BaseException:
        watch.failure()
        raise
    finally:
        page.context.close()


def _blind_procurement(procurement, buyer):
    from tests.vendors.blind_support import QUOKKA_LINES, ZEBRA_LINES, _bid
    from tests.vendors.test_support import line
    from vendors.services import evaluation, suppliers

    org = procurement.organisation
    huadong = suppliers.create_vendor(organisation=org, name=LEGAL)
    bid = _bid(
        procurement,
        huadong,
        [
            *ZEBRA_LINES,
            line("software", 1, 88_888, description="天际 AI 平台 软件许可"),
        ],
        "华东智算为贵司提供天际 TJ-AI8000 集群，配套天际 AI 平台。Project code "
        "HDZS-Q1. " + BALANCED_TEXT,
        buyer,
    )
    bid.server_model = "天际 TJ-AI8000"
    bid.save()
    suppliers.create_case_study(
        vendor=huadong,
        bids=[bid],
        client_industry="金融",
        solution_details=CASE_STUDY,
    )
    quokka = suppliers.create_vendor(organisation=org, name="Quokka Systems")
    _bid(procurement, quokka, QUOKKA_LINES, BALANCED_TEXT, buyer)
    evaluation.update_evaluation_settings(
        procurement=procurement, user=buyer, blind_grading=True
    )
    return huadong, bid


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_blind_evaluator_sees_none_of_a_vendors_aliases(
    browser, base_url, language, org, it_lead, buyer, catalog
):
    procurement = procurement_with_workloads(org, it_lead)
    huadong, bid = _blind_procurement(procurement, buyer)
    page = new_page(browser, base_url, language)
    watch = Watch(page, language, f"blind-aliases-{language}")

    def _(msgid: str, **values) -> str:
        return t(language, msgid, **values)

    try:
        log_in(page, buyer.username, submit=_("Log in"))
        page.goto(f"/procurements/{procurement.pk}/bids/")
        page.locator("#blind-preview-link").click()
        card = page.locator(f"#masking-{huadong.pk}")
        expect(card.locator(".badge.learnt", has_text="华东智算")).to_be_visible()
        remaining = card.locator("table.remaining tr", has_text="HDZS-Q1")
        expect(remaining).to_contain_text("Project code HDZS-Q1")
        watch.step("preview: what would remain visible")
        _fits_phone(page, watch, "preview")
        remaining.get_by_role("button", name=_("Mask it")).click()
        expect(page.get_by_role("status").first).to_contain_text("HDZS-Q1")
        expect(card.locator(".badge.declared", has_text="HDZS-Q1")).to_be_visible()
        watch.step("code name masked")

        evaluator = new_page(browser, base_url, language)
        blind = Watch(evaluator, language, f"blind-aliases-evaluator-{language}")
        try:
            log_in(evaluator, it_lead.username, submit=_("Log in"))
            for url in (
                f"/procurements/{procurement.pk}/comparison/",
                f"/procurements/{procurement.pk}/bids/",
                f"/procurements/{procurement.pk}/bids/{bid.pk}/",
            ):
                evaluator.goto(url)
                text = evaluator.locator("body").inner_text()
                for leak in LEAKS:
                    assert leak not in text, (url, leak)
                if url.endswith(f"/bids/{bid.pk}/"):  # the masked text itself
                    assert _("[vendor]") in text
                blind.step(url)
                _fits_phone(evaluator, blind, url)
            assert blind.console == [] and _findings(blind, TEXTS) == {}
        except BaseException:
            blind.failure()
            raise
        finally:
            evaluator.context.close()
        assert watch.console == []
        assert _findings(watch, TEXTS) == {}
    except BaseException:
        watch.failure()
        raise
    finally:
        page.context.close()
