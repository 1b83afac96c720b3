"""The decision memo holds the chosen bid against the budget ceiling (issue 22: the
chosen bid's quote and TCO were compared with the budget nowhere)."""

from decimal import Decimal

import pytest
from django.utils import translation

from tests.vendors.test_decision_memo import memo, pdf_text
from tests.vendors.test_prescoring import planned  # noqa: F401 (fixture)
from tests.vendors.test_support import at_decision_stage, three_bids
from vendors import comparison
from vendors.models import Decision
from vendors.services.decision_memo import memo_context


@pytest.fixture
def over_budget_decision(planned, api_for, org, procurement, manager):  # noqa: F811
    _gpu_only, _promise, balanced = three_bids(procurement, org)
    live = comparison.build_comparison(procurement=procurement, user=manager)
    column = next(c for c in live.columns if c.bid.pk == balanced.pk)
    # A ceiling between the chosen bid's quoted price and its normalised TCO.
    ceiling = (column.quoted_total + column.normalized_tco) / 2
    procurement.budget_max = ceiling.quantize(Decimal(1))
    procurement.save()
    at_decision_stage(procurement)
    response = api_for(manager).put(
        f"/api/v1/procurements/{procurement.pk}/decision/",
        {"bid": balanced.pk, "rationale": "Balanced design."},
        format="json",
    )
    assert response.status_code == 200, response.content
    return column, procurement.budget_max


def test_the_memo_marks_the_chosen_bid_over_budget_with_its_variances(
    over_budget_decision, api_for, buyer, procurement, tmp_path
):
    column, ceiling = over_budget_decision
    with translation.override("en"):
        context = memo_context(Decision.objects.get())
    checks = context["chosen"]["budget_check"]
    assert checks["quoted"].over is False
    assert checks["quoted"].variance == column.quoted_total - ceiling
    assert checks["tco"].over is True
    assert checks["tco"].variance == column.normalized_tco - ceiling
    assert checks["over"] is True
    en = pdf_text(memo(api_for(buyer), procurement, "en").content, tmp_path)
    assert "Over budget: budget ceiling CNY" in en
    assert f"+{checks['tco'].variance:.0f}" in en
    zh = pdf_text(memo(api_for(buyer), procurement, "zh-hans").content, tmp_path)
    assert "超出预算" in zh
