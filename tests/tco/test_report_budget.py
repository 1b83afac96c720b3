"""The TCO page and PDF hold the run's total against the procurement's budget ceiling
(issue 22: the budget variance was shown nowhere)."""

from decimal import Decimal

from django.urls import reverse

from tco import services
from tco.models import RunStatus
from tco.report import run_budget
from tests.tco.test_report import pdf_text


def _run(scenario, it_lead, lang):
    run = services.request_tco_run(
        scenario=scenario, user=it_lead, lang=lang, enqueue=False
    )
    return services.execute_tco_run(run_id=run.pk)


def test_the_pdf_and_the_page_show_the_budget_variance(
    scenario, it_lead, few_draws, client
):
    procurement = scenario.procurement
    procurement.budget_max = Decimal("1500000")
    procurement.save()
    run = _run(scenario, it_lead, "en")
    assert run.status == RunStatus.SUCCEEDED, run.error_message
    check = run_budget(run, run.result)
    # The hand-computed total of HAND_INPUTS is 1,595,180 CNY (test_api.py).
    assert check.amount == Decimal("1595180.00")
    assert check.variance == Decimal("95180.00")
    assert check.over is True and check.share_pct == Decimal("106.3")
    text = pdf_text(run.pdf.path)
    assert "Over budget" in text
    assert "+95,180 CNY" in text
    client.force_login(it_lead)
    html = client.get(
        reverse("tco:run", args=[procurement.pk, run.pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert 'id="tco-budget"' in html and 'data-over-budget="true"' in html
    assert "+95,180 CNY" in html


def test_a_usd_scenario_is_converted_to_the_procurements_currency(
    scenario, it_lead, few_draws
):
    procurement = scenario.procurement
    procurement.budget_max = Decimal("100000000")
    procurement.save()
    run = _run(scenario, it_lead, "en")
    analysis = {
        **run.result,
        "result": {**run.result["result"], "currency": "USD", "total_cost": 1000.0},
        "inputs": {**run.result["inputs"], "fx_usd_cny": 7.1},
    }
    check = run_budget(run, analysis)
    assert check.currency == "CNY" and check.amount == Decimal("7100.00")
    assert check.over is False
