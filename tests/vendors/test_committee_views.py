"""The committee page: roster and validation, the member's own scoring form with the
pre-scores as advice, others' marks hidden until submission, the change form after
summation, the collusion card, the report issued and downloaded; zh and en."""

from tests.vendors import committee_support
from tests.vendors.committee_support import mark_all, score_and_submit
from vendors.models import CommitteeMember, CommitteeScore, ScoreChange
from vendors.services import committee_collusion, committee_scoring

h200_plan = committee_support.h200_plan  # fixtures
tender_world = committee_support.tender_world
gov_world = committee_support.gov_world
seated = committee_support.seated
experts = committee_support.experts


def page(procurement, tail=""):
    return f"/procurements/{procurement.pk}/committee/{tail}"


def test_the_roster_form_refuses_five_with_two_experts_and_saves_seven(
    gov_world, client_for, buyer, manager, experts, it_lead
):
    procurement, _bids = gov_world
    client = client_for(buyer)
    few = {f"seat-{u.pk}": "buyer_rep" for u in (buyer, manager, it_lead)}
    few.update({f"seat-{e.pk}": "expert" for e in experts[:2]})
    few.update({"chair": str(experts[0].pk), "complex_project": "on"})
    response = client.post(page(procurement, "roster/"), few, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200  # drawn again, not redirected
    text = response.content.decode()
    assert "Experts must be at least two thirds of the committee (2 of 5)." in text
    assert not CommitteeMember.objects.exists()
    # The refused roster comes back as typed: its form open, every seat, the chair
    # and the project's flags kept.
    assert "<details open><summary>Change the committee" in text
    for user in (buyer, manager, it_lead, *experts[:2]):
        seat = "buyer_rep" if user in (buyer, manager, it_lead) else "expert"
        select = text.split(f'name="seat-{user.pk}"', 1)[1].split("</select>", 1)[0]
        assert f'value="{seat}" selected' in select
    for user in experts[2:]:
        select = text.split(f'name="seat-{user.pk}"', 1)[1].split("</select>", 1)[0]
        assert "selected" not in select
    assert f'value="{experts[0].pk}" checked' in text
    assert 'name="complex_project" checked' in text
    assert 'name="high_social_impact" checked' not in text
    seven = {f"seat-{u.pk}": "buyer_rep" for u in (buyer, manager)}
    seven.update({f"seat-{e.pk}": "expert" for e in experts})
    seven["chair"] = str(buyer.pk)
    response = client.post(
        page(procurement, "roster/"), seven, follow=True, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert 'id="committee-valid"' in response.content.decode()
    assert CommitteeMember.objects.get(is_chair=True).user == buyer
    assert (
        client_for(experts[0]).post(page(procurement, "roster/"), seven).status_code
        == 403
    )


def test_a_member_scores_alone_with_advice_and_sees_no_other_marks(
    seated, client_for, experts
):
    procurement, bids = seated
    mark_all(procurement, experts[1], bids["A"], 1)
    client = client_for(experts[0])
    text = client.get(page(procurement), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="my-scores"' in text and "Automatic pre-score (advice)" in text
    # the marks table shows their own column only, not expert 2's
    assert "<th>expert-1</th>" in text and "<th>expert-2</th>" not in text
    criteria, _w = committee_scoring.technical_criteria(procurement)
    form = {"bid": bids["A"].pk, **{f"points-{c.pk}": 4 for c in criteria}}
    client.post(page(procurement, "scores/"), form)
    # their own total as they go (all 4 -> 80.00 of 100), before submitting
    own = client.get(page(procurement), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<td class="num">80.00</td>' in own
    assert set(
        CommitteeScore.objects.filter(member__user=experts[0]).values_list(
            "points", flat=True
        )
    ) == {4}
    zh = client.get(page(procurement), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "评标委员会" in zh and "自动预评分（仅供参考）" in zh


def test_after_summation_the_change_form_needs_a_reason_and_the_report_downloads(
    seated, client_for, buyer, manager, experts, outsider
):
    procurement, bids = seated
    committee_collusion.set_bid_contact(bid=bids["A"], user=buyer, email="bid@x.cn")
    committee_collusion.set_bid_contact(bid=bids["C"], user=buyer, email="BID@x.cn ")
    score_and_submit(procurement, bids, [buyer, manager, *experts])
    client = client_for(experts[0])
    text = client.get(page(procurement), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="score-change"' in text and "Same e-mail address" in text
    member = CommitteeMember.objects.get(user=experts[0])
    change = {
        "member": member.pk,
        "bid": bids["A"].pk,
        "criterion": "arch_scenario",
        "points": 5,
        "reason": "",
        "explanation": "typed before the refusal",
    }
    response = client.post(
        page(procurement, "change/"), change, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200  # drawn again, not redirected
    text = response.content.decode()
    assert "lawful reasons" in text
    assert not ScoreChange.objects.exists()
    # What was typed is kept: the bid, the criterion, the points and the explanation.
    form = text.split('id="score-change"', 1)[1].split("</form>", 1)[0]
    assert f'<option value="{bids["A"].pk}" selected>' in form
    assert '<option value="arch_scenario" selected>' in form
    assert 'value="5"' in form and 'value="typed before the refusal"' in form
    client.post(page(procurement, "change/"), {**change, "reason": "summation_error"})
    assert ScoreChange.objects.get().new_points == 5
    buyer_client = client_for(buyer)
    buyer_client.post(page(procurement, "report/"))
    pdf = buyer_client.get(page(procurement, "report.pdf") + "?lang=en")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert client_for(outsider).get(page(procurement)).status_code == 404
    assert client_for(outsider).get(page(procurement, "report.pdf")).status_code == 404


def test_a_viewer_sees_the_roster_and_signals_but_no_forms(seated, client_for, viewer):
    procurement, _bids = seated
    response = client_for(viewer).get(page(procurement), HTTP_ACCEPT_LANGUAGE="en")
    text = response.content.decode()
    assert response.status_code == 200
    assert 'id="committee-members"' in text and 'id="collusion"' in text
    assert 'id="roster-form"' not in text and 'id="my-scores"' not in text
    assert 'id="issue-report"' not in text
    assert client_for(viewer).post(page(procurement, "scores/"), {}).status_code == 403
