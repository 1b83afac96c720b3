"""API of the committee: roster (400 per field, org isolation, denied writes change
nothing), a member's own scores hidden from others until submitted, a change after
summation refused without a lawful reason, the report issued and downloaded."""

import pytest

from tests.vendors import committee_support
from tests.vendors.committee_support import MARKS, score_and_submit
from vendors.models import Committee, CommitteeScore, ScoreChange
from vendors.services import committee_scoring

h200_plan = committee_support.h200_plan  # fixtures
tender_world = committee_support.tender_world
gov_world = committee_support.gov_world
seated = committee_support.seated
experts = committee_support.experts


def url(procurement, tail=""):
    return f"/api/v1/procurements/{procurement.pk}/committee/{tail}"


def _roster(buyer, manager, experts, n_experts=5):
    return [
        {"user": buyer.pk, "role": "buyer_rep", "is_chair": True},
        {"user": manager.pk, "role": "buyer_rep"},
        *[{"user": e.pk, "role": "expert"} for e in experts[:n_experts]],
    ]


def test_post_a_valid_roster_and_read_it_back(
    gov_world, api_for, buyer, manager, experts
):
    procurement, _bids = gov_world
    response = api_for(buyer).post(
        url(procurement), {"members": _roster(buyer, manager, experts)}, format="json"
    )
    assert response.status_code == 200, response.json()
    body = api_for(experts[0]).get(url(procurement)).json()
    assert body["status"]["valid"] and body["status"]["min_size"] == 7
    assert [m["role"] for m in body["members"]].count("expert") == 5
    assert body["members"][0]["is_chair"] is True


def test_a_roster_of_five_with_two_experts_answers_400_on_members(
    gov_world, api_for, buyer, manager, experts, it_lead
):
    procurement, _bids = gov_world
    roster = _roster(buyer, manager, experts, 2) + [
        {"user": it_lead.pk, "role": "buyer_rep"}
    ]
    response = api_for(buyer).post(url(procurement), {"members": roster}, format="json")
    assert response.status_code == 400
    messages = response.json()["members"]
    assert len(messages) == 2 and "（5 人中 2 人）" in messages[1]
    assert not Committee.objects.filter(procurement=procurement, members__isnull=False)


def test_the_roster_is_written_only_by_who_configures_and_only_in_the_org(
    gov_world, api_for, buyer, manager, experts, outsider, it_lead
):
    procurement, _bids = gov_world
    roster = _roster(buyer, manager, experts)
    assert (
        api_for(experts[0]).post(url(procurement), {"members": roster}, format="json")
    ).status_code == 403
    assert (
        api_for(it_lead).post(url(procurement), {"members": roster}, format="json")
    ).status_code == 403
    assert api_for(outsider).get(url(procurement)).status_code == 404
    response = api_for(buyer).post(
        url(procurement),
        {"members": roster[:-1] + [{"user": outsider.pk, "role": "expert"}]},
        format="json",
    )
    assert response.status_code == 400 and "members" in response.json()
    assert not Committee.objects.filter(members__isnull=False).exists()


def test_scores_are_own_until_submitted_and_pre_scores_are_advice(
    seated, api_for, buyer, manager, experts, viewer
):
    procurement, bids = seated
    criteria, _w = committee_scoring.technical_criteria(procurement)
    marks = [{"criterion": c.code, "points": 2} for c in criteria]
    api = api_for(experts[0])
    response = api.post(
        url(procurement, "scores/"),
        {"bid": bids["A"].pk, "marks": marks},
        format="json",
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    a = next(b for b in body["bids"] if b["bid"] == bids["A"].pk)
    assert set(a["marks"].values()) == {2} and a["advice"]
    assert [m["name"] for m in body["visible_members"]] == ["expert-1"]
    other = api_for(experts[1]).get(url(procurement, "scores/")).json()
    assert [m["name"] for m in other["visible_members"]] == ["expert-2"]
    assert all(not b["marks"] for b in other["bids"])
    assert api_for(viewer).get(url(procurement, "scores/")).status_code == 404
    bad = api.post(
        url(procurement, "scores/"),
        {"bid": bids["A"].pk, "marks": [{"criterion": "nope", "points": 3}]},
        format="json",
    )
    assert bad.status_code == 400 and "criterion" in bad.json()
    early = api.post(url(procurement, "scores/"), {"submit": True}, format="json")
    assert early.status_code == 400 and "points" in early.json()
    invalid = api.post(
        url(procurement, "scores/"),
        {"bid": bids["O"].pk, "marks": marks},
        format="json",
    )
    assert invalid.status_code == 400 and "bid" in invalid.json()
    assert CommitteeScore.objects.filter(member__user=experts[0]).count() == len(
        criteria
    )


def test_a_change_after_summation_without_a_reason_answers_400(
    seated, api_for, buyer, manager, experts
):
    procurement, bids = seated
    score_and_submit(procurement, bids, [buyer, manager, *experts])
    member = committee_scoring.committee_of(procurement).members.get(user=experts[0])
    change = {
        "member": member.pk,
        "bid": bids["A"].pk,
        "criterion": "arch_scenario",
        "points": 5,
    }
    api = api_for(experts[0])
    refused = api.post(url(procurement, "changes/"), change, format="json")
    assert refused.status_code == 400 and "reason" in refused.json()
    assert not ScoreChange.objects.exists()
    done = api.post(
        url(procurement, "changes/"),
        {**change, "reason": "abnormal_score"},
        format="json",
    )
    assert done.status_code == 201
    assert (done.json()["old_points"], done.json()["new_points"]) == (
        MARKS["A"][2],
        5,
    )
    assert api.get(url(procurement, "changes/")).json()[0]["reason"] == "abnormal_score"


def test_issue_the_report_and_download_the_frozen_pdf(
    seated, api_for, buyer, manager, experts, outsider
):
    procurement, bids = seated
    assert api_for(buyer).post(url(procurement, "report/")).status_code == 400
    assert api_for(buyer).get(url(procurement, "report/")).status_code == 404
    score_and_submit(procurement, bids, [buyer, manager, *experts])
    assert api_for(experts[1]).post(url(procurement, "report/")).status_code == 400
    issued = api_for(buyer).post(url(procurement, "report/"))
    assert issued.status_code == 201
    pdf = api_for(experts[0]).get(url(procurement, "report.pdf") + "?lang=en")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF")
    zh = api_for(experts[0]).get(url(procurement, "report.pdf") + "?lang=zh")
    assert zh.content != pdf.content
    assert api_for(outsider).get(url(procurement, "report.pdf")).status_code == 404


@pytest.mark.parametrize("tail", ["", "scores/", "changes/", "collusion/"])
def test_other_organisations_get_404(seated, api_for, outsider, tail):
    procurement, _bids = seated
    assert api_for(outsider).get(url(procurement, tail)).status_code == 404


def test_a_bids_contact_facts_feed_the_collusion_signals(
    gov_world, api_for, buyer, viewer, outsider
):
    procurement, bids = gov_world
    base = f"/api/v1/procurements/{procurement.pk}/bids/"
    for name in "AC":
        response = api_for(buyer).put(
            f"{base}{bids[name].pk}/contact/",
            {"contact_person": "王伟", "phone": "138-0013-8000"},
            format="json",
        )
        assert response.status_code == 200
    denied = api_for(viewer).put(
        f"{base}{bids['B'].pk}/contact/", {"phone": "1"}, format="json"
    )
    assert denied.status_code == 403
    assert api_for(buyer).get(f"{base}{bids['B'].pk}/contact/").json()["phone"] == ""
    assert api_for(outsider).get(f"{base}{bids['A'].pk}/contact/").status_code == 404
    signals = api_for(buyer).get(url(procurement, "collusion/")).json()
    kinds = {s["kind"]: s["bids"] for s in signals}
    assert kinds["same_contact"] == ["A", "C"] and kinds["same_phone"] == ["A", "C"]


def test_summation_is_closed_by_the_chair_only_when_all_submitted(
    seated, api_for, buyer, experts
):
    procurement, _bids = seated
    refused = api_for(buyer).post(url(procurement, "summation/"))
    assert refused.status_code == 400 and "members" in refused.json()
    assert api_for(experts[0]).post(url(procurement, "summation/")).status_code == 400
    assert api_for(buyer).get(url(procurement)).json()["summed_at"] is None
