"""An evaluator's marks on a bid are recorded all or none."""

import pytest
from django.urls import reverse

from clusterbuy.services import ServiceError
from tests.vendors.test_support import make_bid, make_vendor
from vendors.models import AuditEntry, ChecklistCriterion, Score
from vendors.services import evaluation


@pytest.fixture
def bid(org, procurement):
    return make_bid(procurement, make_vendor(org))


def _criterion(code: str) -> ChecklistCriterion:
    return ChecklistCriterion.objects.get(code=code)


def test_one_refused_mark_records_none_of_the_others(bid, it_lead):
    marks = [
        evaluation.ScoreMark(criterion="arch_data", points=4),
        evaluation.ScoreMark(criterion="arch_scenario", points=9),
    ]
    with pytest.raises(ServiceError) as refused:
        evaluation.record_scores(bid=bid, evaluator=it_lead, scores=marks, automatic={})
    assert refused.value.field == "points"
    assert Score.objects.count() == 0
    assert not AuditEntry.objects.filter(action="score").exists()


def test_marks_name_a_criterion_by_code_or_id(bid, it_lead):
    scenario = _criterion("arch_scenario")
    saved = evaluation.record_scores(
        bid=bid,
        evaluator=it_lead,
        scores=[
            evaluation.ScoreMark(criterion="arch_data", points=4, note="asked"),
            evaluation.ScoreMark(criterion=scenario.pk, points=2),
        ],
        automatic={},
    )
    assert [(s.criterion.code, s.points, s.note) for s in saved] == [
        ("arch_data", 4, "asked"),
        ("arch_scenario", 2, ""),
    ]
    with pytest.raises(ServiceError) as unknown:
        evaluation.record_scores(
            bid=bid,
            evaluator=it_lead,
            scores=[evaluation.ScoreMark(criterion="no_such", points=1)],
            automatic={},
        )
    assert unknown.value.field == "criterion"


def test_score_form_with_one_bad_value_saves_nothing(client_for, it_lead, bid):
    url = reverse("vendors:score", args=[bid.procurement_id, bid.pk])
    data = _criterion("arch_data"), _criterion("arch_scenario")
    client = client_for(it_lead)
    client.post(url, {f"points_{data[0].pk}": "4", f"points_{data[1].pk}": "x"})
    assert Score.objects.count() == 0
    client.post(url, {f"points_{data[0].pk}": "4", f"points_{data[1].pk}": "3"})
    assert sorted(Score.objects.values_list("points", flat=True)) == [3, 4]
