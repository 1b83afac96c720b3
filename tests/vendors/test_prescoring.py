"""Scores that see the facts: the pitfall and compliance findings pre-score their
checklist criteria, an evaluator overrides them only with a note (audited), and a rank
that rests on unscored sections says so."""

import pytest
from django.urls import reverse

from sizing import services as sizing_services
from tests.vendors.test_comparison import PLAN
from tests.vendors.test_support import make_bid, make_vendor, three_bids
from vendors.models import AuditEntry, ChecklistCriterion, Score
from vendors.services import evaluation, plan_facts

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
PITFALL_CODES = ["pit_gpu_only", "pit_promises", "pit_template", "pit_open"]


@pytest.fixture
def planned(monkeypatch):
    monkeypatch.setattr(plan_facts, "plan_summary", lambda *, procurement: PLAN)
    monkeypatch.setattr(
        plan_facts,
        "training_lower_bound_days",
        lambda *, procurement, accelerator_key, gpu_count: 640.0 / gpu_count,
    )


def entries(api, procurement, **headers):
    response = api.get(
        f"/api/v1/procurements/{procurement.pk}/comparison/", **(headers or EN)
    )
    assert response.status_code == 200
    return {e["vendor"]["name"]: e for e in response.json()}


def criterion(code):
    return ChecklistCriterion.objects.get(code=code)


def test_pitfall_flags_prescore_their_criteria_with_the_evidence(
    planned, api_for, buyer, org, procurement
):
    three_bids(procurement, org)
    data = entries(api_for(buyer), procurement)
    promise = data["Promise Corp"]["scores"]
    counts = {
        code: sum(1 for p in data["Promise Corp"]["pitfalls"] if p["code"] == code)
        for code in (
            "gpu_only",
            "over_promising",
            "template_proposal",
            "closed_ecosystem",
        )
    }
    # Promise Corp is flagged over_promising (twice: an impossible training time and
    # a blanket guarantee), template_proposal and closed_ecosystem (test_comparison).
    assert counts == {
        "gpu_only": 0,
        "over_promising": 2,
        "template_proposal": 1,
        "closed_ecosystem": 1,
    }
    points = {c: a["points"] for c, a in promise["automatic"].items()}
    # 5 - 3 per flag, floor 0.
    assert {c: points[c] for c in PITFALL_CODES} == {
        "pit_gpu_only": 5.0,
        "pit_promises": 0.0,
        "pit_template": 2.0,
        "pit_open": 2.0,
    }
    # Nobody scored: the pitfall section is the mean of the automatic scores.
    assert promise["pitfalls"] == pytest.approx((5 + 0 + 2 + 2) / 4)
    reasons = {p["reason"] for p in data["Promise Corp"]["pitfalls"]}
    assert set(promise["automatic"]["pit_promises"]["evidence"]) & reasons
    assert promise["automatic"]["pit_promises"]["counted"] is True
    balanced = data["Balanced Systems"]["scores"]
    assert balanced["automatic"]["pit_open"]["evidence"] == [
        "No “Closed ecosystem” flag."
    ]
    assert balanced["pitfalls"] == 5.0


def test_compliance_prescores_the_design_balance_criterion(
    planned, api_for, buyer, org, procurement
):
    sizing_services.load_reference_catalog()  # compute reads the catalog's peaks
    make_bid(procurement, make_vendor(org, "Short"), gpu_count=56)
    make_bid(procurement, make_vendor(org, "Full"))
    data = entries(api_for(buyer), procurement)
    short = data["Short"]["scores"]["automatic"]["arch_balance"]
    # 56 of 64 H100 is 12.5 % short of the plan's compute, past the 10 % tolerance:
    # 64 x 989 = 63.296 PFLOPS needed (stated >= 63.2), 56 x 989 = 55.384 offered
    # -> fail -> 0.
    assert short["points"] == 0.0
    assert short["source"] == "compliance"
    assert short["evidence"][0].startswith(
        "Compute delivered: 55.384 / 63.2 PFLOPS (fail)"
    )
    full = data["Full"]["scores"]["automatic"]["arch_balance"]
    # The catalog states every figure of the plan's H100: all ten items pass -> 5.
    assert full["points"] == 5.0
    assert full["evidence"] == ["All 10 compliance items pass the sizing plan."]
    # Only arch_balance of the three architecture criteria has a score: partial.
    assert data["Full"]["scores"]["architecture"] == 5.0
    assert "architecture" in data["Full"]["scores"]["partial_sections"]


def test_unscored_sections_are_listed_and_the_page_says_the_rank_is_provisional(
    planned, api_for, client_for, buyer, it_lead, org, procurement
):
    bid = make_bid(procurement, make_vendor(org, "Solo"))
    scores = entries(api_for(buyer), procurement)["Solo"]["scores"]
    # Pitfalls: automatic; price: from the TCO; architecture: one automatic of three.
    assert scores["complete"] is False
    assert scores["unscored_sections"] == ["cost", "cases", "service", "team"]
    assert scores["partial_sections"] == ["architecture"]
    url = reverse("vendors:comparison", args=[procurement.pk])
    html = client_for(buyer).get(url, **EN).content.decode()
    notice = "4 of 7 sections unscored — rank is provisional"
    assert notice in html
    assert html.index(notice) < html.index(">Rank<")
    zh = client_for(buyer).get(url, **ZH).content.decode()
    assert "7 个部分中 4 个未评分——排名为暂定" in zh
    row = evaluation.evaluation_settings_for(procurement=procurement)
    marks = [
        evaluation.ScoreMark(criterion=c.code, points=3, note="seen")
        for s in row.template.sections.all()
        if not s.auto_price
        for c in s.criteria.all()
    ]
    evaluation.record_scores(bid=bid, evaluator=it_lead, scores=marks, automatic={})
    scores = entries(api_for(buyer), procurement)["Solo"]["scores"]
    assert (scores["complete"], scores["unscored_sections"]) == (True, [])
    assert scores["partial_sections"] == []
    # The evaluator's mark replaced every automatic score.
    assert not any(a["counted"] for a in scores["automatic"].values())
    assert scores["pitfalls"] == 3.0
    html = client_for(buyer).get(url, **EN).content.decode()
    assert "rank is provisional" not in html


def test_an_override_without_a_note_is_refused_in_the_api_and_kept_with_one(
    planned, api_for, it_lead, org, procurement
):
    _gpu_only, promise, _balanced = three_bids(procurement, org)
    url = f"/api/v1/procurements/{procurement.pk}/bids/{promise.pk}/scores/"
    api = api_for(it_lead)
    refused = api.post(url, {"criterion": "pit_promises", "points": 5}, **EN)
    assert refused.status_code == 400
    assert "pit_promises" not in refused.json()
    assert "give a note" in refused.json()["note"][0]
    assert not Score.objects.exists()
    # Agreeing with the automatic score needs no note and is an ordinary score.
    same = api.post(url, {"criterion": "pit_template", "points": 2}, **EN)
    assert same.status_code == 201
    assert AuditEntry.objects.get(target="pit_template").action == "score"
    kept = api.post(
        url,
        {"criterion": "pit_promises", "points": 4, "note": "SLA with credits"},
        **EN,
    )
    assert kept.status_code == 201
    entry = AuditEntry.objects.get(target="pit_promises")
    assert (entry.action, entry.old_value, entry.new_value, entry.actor) == (
        "override",
        "0",
        "4: SLA with credits",
        it_lead,
    )


def test_the_score_form_shows_the_evidence_and_refuses_an_override_without_a_note(
    planned, client_for, it_lead, org, procurement
):
    _gpu_only, promise, _balanced = three_bids(procurement, org)
    client = client_for(it_lead)
    page = reverse("vendors:bid-detail", args=[procurement.pk, promise.pk])
    html = client.get(page, **EN).content.decode()
    assert 'data-criterion="pit_promises"' in html
    assert "automatic: 0/5" in html
    pit = criterion("pit_promises")
    url = reverse("vendors:score", args=[procurement.pk, promise.pk])
    response = client.post(url, {f"points_{pit.pk}": "5", f"note_{pit.pk}": ""}, **EN)
    assert response.status_code == 400
    body = response.content.decode()
    assert "is scored 0 automatically from the findings" in body
    assert 'role="alert"' in body
    assert not Score.objects.exists()
    response = client.post(
        url, {f"points_{pit.pk}": "5", f"note_{pit.pk}": "evidence seen"}, **EN
    )
    assert response.status_code == 302
    assert Score.objects.get().points == 5
    assert AuditEntry.objects.filter(action="override", target="pit_promises").exists()
    audit = client.get(page, **EN).content.decode()
    assert "Automatic score overridden" in audit


def test_a_sealed_evaluator_gets_no_price_derived_finding_in_an_automatic_score(
    planned, api_for, buyer, it_lead, org, procurement
):
    three_bids(procurement, org)
    evaluation.update_evaluation_settings(
        procurement=procurement, user=buyer, sealed_envelope=True
    )
    sealed = entries(api_for(it_lead), procurement)["GPU Box Ltd"]["scores"]
    open_ = entries(api_for(buyer), procurement)["GPU Box Ltd"]["scores"]
    # The GPU-only flags are read from the prices (a category with no priced line).
    assert open_["automatic"]["pit_gpu_only"]["points"] < 5.0
    assert sealed["automatic"]["pit_gpu_only"] == {
        "points": 5.0,
        "source": "pitfall",
        "evidence": ["No “GPU-only quote” flag."],
        "counted": True,
    }
    # The price section is not in the sealed viewer's rank, so not "unscored".
    assert "price" not in sealed["unscored_sections"]
