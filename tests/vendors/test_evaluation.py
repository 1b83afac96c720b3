from tests.vendors.test_support import (
    at_decision_stage,
    make_bid,
    make_vendor,
    three_bids,
)
from vendors.models import AuditEntry, Decision, Score
from vendors.services import evaluation, suppliers


def comparison(api, procurement):
    response = api.get(f"/api/v1/procurements/{procurement.pk}/comparison/")
    assert response.status_code == 200
    return response.json()


def test_score_api_records_the_requesting_evaluator(api_for, it_lead, org, procurement):
    bid = make_bid(procurement, make_vendor(org))
    url = f"/api/v1/procurements/{procurement.pk}/bids/{bid.pk}/scores/"
    api = api_for(it_lead)
    response = api.post(
        url,
        {"criterion": "arch_scenario", "points": 4, "note": "asked about 70B"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["evaluator"] == "ivan-it"
    response = api.post(url, {"criterion": "arch_scenario", "points": 2}, format="json")
    assert response.status_code == 201
    score = Score.objects.get()
    assert (score.points, score.evaluator) == (2, it_lead)
    bad = api.post(url, {"criterion": "arch_scenario", "points": 6}, format="json")
    assert bad.status_code == 400 and "points" in bad.json()
    price = api.post(url, {"criterion": "price_tco", "points": 3}, format="json")
    assert price.status_code == 400 and "criterion" in price.json()
    assert [s["points"] for s in api.get(url).json()] == [2]


def test_viewer_cannot_score(api_for, viewer, org, procurement):
    bid = make_bid(procurement, make_vendor(org))
    response = api_for(viewer).post(
        f"/api/v1/procurements/{procurement.pk}/bids/{bid.pk}/scores/",
        {"criterion": "arch_scenario", "points": 4},
        format="json",
    )
    assert response.status_code == 403
    assert Score.objects.count() == 0


def test_audit_trail_records_every_score_change(org, procurement, it_lead):
    bid = make_bid(procurement, make_vendor(org))
    criterion = (
        evaluation.evaluation_settings_for(procurement=procurement)
        .template.sections.get(code="architecture")
        .criteria.get(code="arch_data")
    )
    evaluation.record_score(bid=bid, criterion=criterion, evaluator=it_lead, points=3)
    evaluation.record_score(bid=bid, criterion=criterion, evaluator=it_lead, points=5)
    entries = list(AuditEntry.objects.filter(bid=bid, action="score").order_by("id"))
    assert [
        (e.action, e.target, e.old_value, e.new_value, e.actor) for e in entries
    ] == [
        ("score", "arch_data", "", "3", it_lead),
        ("score", "arch_data", "3", "5", it_lead),
    ]


def test_disagreement_between_evaluators_is_highlighted(
    api_for, buyer, it_lead, manager, org, procurement
):
    bid = make_bid(procurement, make_vendor(org))
    url = f"/api/v1/procurements/{procurement.pk}/bids/{bid.pk}/scores/"
    api_for(it_lead).post(url, {"criterion": "svc_onsite", "points": 0}, format="json")
    api_for(manager).post(url, {"criterion": "svc_onsite", "points": 5}, format="json")
    api_for(buyer).post(url, {"criterion": "svc_alerts", "points": 4}, format="json")
    api_for(manager).post(url, {"criterion": "svc_alerts", "points": 3}, format="json")
    entry = comparison(api_for(buyer), procurement)[0]
    assert entry["disagreements"] == ["svc_onsite"]
    # service section: mean(0, 5) = 2.5 and mean(4, 3) = 3.5 -> 3.0
    assert entry["scores"]["service"] == 3.0


def test_blind_grading_hides_vendor_names_until_scoring_closes(
    api_for, buyer, it_lead, manager, org, procurement
):
    three_bids(procurement, org)
    response = api_for(buyer).patch(
        f"/api/v1/procurements/{procurement.pk}/evaluation/",
        {"blind_grading": True},
        format="json",
    )
    assert response.status_code == 200
    for evaluator in (it_lead, manager):
        data = comparison(api_for(evaluator), procurement)
        assert all(e["vendor"]["id"] is None and e["vendor"]["blind"] for e in data)
        assert [e["vendor"]["name"][-1] for e in data] == ["1", "2", "3"]
        bids = (
            api_for(evaluator)
            .get(f"/api/v1/procurements/{procurement.pk}/bids/")
            .json()
        )
        names = " ".join(str(b["vendor"]) for b in bids["results"])
        assert "Promise Corp" not in names and "GPU Box" not in names
    # the procurement officer who manages vendors still sees them
    assert comparison(api_for(buyer), procurement)[0]["vendor"]["name"] == "GPU Box Ltd"
    api_for(manager).patch(
        f"/api/v1/procurements/{procurement.pk}/evaluation/",
        {"scoring_closed": True},
        format="json",
    )
    assert (
        comparison(api_for(it_lead), procurement)[0]["vendor"]["name"] == "GPU Box Ltd"
    )


def test_blind_grading_hides_names_on_the_comparison_page(
    client_for, it_lead, buyer, org, procurement
):
    from django.urls import reverse

    three_bids(procurement, org)
    evaluation.update_evaluation_settings(
        procurement=procurement, user=buyer, blind_grading=True
    )
    html = (
        client_for(it_lead)
        .get(reverse("vendors:comparison", args=[procurement.pk]))
        .content.decode()
    )
    assert "Promise Corp" not in html and "Balanced Systems" not in html


def test_sealed_envelope_hides_prices_from_technical_evaluator_until_submitted(
    api_for, buyer, it_lead, org, procurement
):
    three_bids(procurement, org)
    evaluation.update_evaluation_settings(
        procurement=procurement, user=buyer, sealed_envelope=True
    )
    api = api_for(it_lead)
    data = comparison(api, procurement)
    assert {e["quoted_total"] for e in data} == {None}
    assert {e["normalized_tco"] for e in data} == {None}
    assert all(e["scores"]["price"] is None for e in data)
    bids = api.get(f"/api/v1/procurements/{procurement.pk}/bids/").json()["results"]
    assert {li["unit_price"] for b in bids for li in b["line_items"]} == {None}
    # the procurement officer sees prices
    assert comparison(api_for(buyer), procurement)[0]["quoted_total"] == "15200000.00"
    response = api.post(f"/api/v1/procurements/{procurement.pk}/evaluation/submit/")
    assert response.status_code == 204
    assert comparison(api, procurement)[0]["quoted_total"] == "15200000.00"
    # submitted technical scores are sealed
    bid = data[0]["bid"]
    locked = api.post(
        f"/api/v1/procurements/{procurement.pk}/bids/{bid}/scores/",
        {"criterion": "arch_data", "points": 5},
        format="json",
    )
    assert locked.status_code == 400


def test_technical_threshold_excludes_bids_before_price(
    api_for, buyer, it_lead, org, procurement
):
    good = make_bid(procurement, make_vendor(org, "Good"))
    weak = make_bid(
        procurement,
        make_vendor(org, "Weak"),
        lines=[
            {
                "category": "gpu_servers",
                "description": "cheap",
                "quantity": 1,
                "unit_price": 1000,
            }
        ],
    )
    template = evaluation.evaluation_settings_for(procurement=procurement).template
    for section in template.sections.filter(auto_price=False):
        for criterion in section.criteria.all():
            evaluation.record_score(
                bid=good, criterion=criterion, evaluator=it_lead, points=4
            )
            evaluation.record_score(
                bid=weak, criterion=criterion, evaluator=it_lead, points=1
            )
    evaluation.update_evaluation_settings(
        procurement=procurement,
        user=buyer,
        sealed_envelope=True,
        technical_threshold=60,
    )
    data = {e["vendor"]["name"]: e for e in comparison(api_for(buyer), procurement)}
    assert data["Weak"]["excluded"] is True and data["Weak"]["rank"] is None
    assert data["Good"]["rank"] == 1
    # Good is the only qualified bid: its price is the baseline -> 100 -> 5 points
    assert data["Good"]["scores"]["price"] == 5.0
    # technical 80 (4/5), combined (85 x 80 + 15 x 100) / 100 = 83.0
    assert data["Good"]["scores"]["weighted_total"] == 83.0
    audit = AuditEntry.objects.filter(action="settings").values_list(
        "target", flat=True
    )
    assert set(audit) == {"sealed_envelope", "technical_threshold"}


def test_decision_recorded_only_by_a_manager(
    api_for, buyer, it_lead, manager, org, procurement
):
    bid = make_bid(procurement, make_vendor(org))
    at_decision_stage(procurement)
    url = f"/api/v1/procurements/{procurement.pk}/decision/"
    body = {"bid": bid.pk, "rationale": "Best balance of service and TCO."}
    for user in (buyer, it_lead):
        assert api_for(user).put(url, body, format="json").status_code == 403
    assert not Decision.objects.exists()
    response = api_for(manager).put(url, body, format="json")
    assert response.status_code == 200
    decision = Decision.objects.get()
    assert (decision.bid, decision.decided_by) == (bid, manager)
    entry = AuditEntry.objects.get(action="decision")
    assert entry.new_value == f"bid {bid.pk}: Best balance of service and TCO."
    assert api_for(buyer).get(url).json()["bid"] == bid.pk


def test_decision_needs_a_rationale(api_for, manager, org, procurement):
    bid = make_bid(procurement, make_vendor(org))
    response = api_for(manager).put(
        f"/api/v1/procurements/{procurement.pk}/decision/",
        {"bid": bid.pk, "rationale": "  "},
        format="json",
    )
    assert response.status_code == 400


def test_shortlist_stage_check_needs_three_to_five_vendors(org, procurement):
    assert suppliers.shortlist_check(procurement).ok is False
    three_bids(procurement, org)
    assert suppliers.shortlist_check(procurement).ok is True
