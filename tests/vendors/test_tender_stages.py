"""Stages from events: the RFP published -> stage 2, the opening -> the evaluation
(stage 3), the evaluation closed -> the decision (stage 5); a decision only then; the
tender's events on the procurement's overview."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from clusterbuy.models import Stage, StageChange
from clusterbuy.services import ServiceError, change_stage
from tests.vendors.rfp_support import BASE_URL
from tests.vendors.test_support import make_bid, make_vendor
from vendors.models import Decision, RfpSettings
from vendors.portal import invitations
from vendors.rfp import publication
from vendors.services import decisions, evaluation

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def test_a_decision_waits_for_the_closed_evaluation(org, procurement, manager, buyer):
    bid = make_bid(procurement, make_vendor(org))
    with pytest.raises(ServiceError) as refused:
        decisions.record_decision(
            procurement=procurement, user=manager, bid=bid, rationale="Best TCO."
        )
    assert refused.value.field == "bid"
    assert not Decision.objects.exists()
    evaluation.update_evaluation_settings(
        procurement=procurement, user=buyer, scoring_closed=True
    )
    procurement.refresh_from_db()
    assert procurement.stage == Stage.DECISION
    change = StageChange.objects.get(procurement=procurement)
    assert (change.from_stage, change.to_stage) == (1, 5)
    decisions.record_decision(
        procurement=procurement, user=manager, bid=bid, rationale="Best TCO."
    )
    assert Decision.objects.get().bid == bid


def test_a_decision_is_refused_below_stage_five_even_with_scoring_closed(
    org, procurement, manager, buyer
):
    bid = make_bid(procurement, make_vendor(org))
    evaluation.update_evaluation_settings(
        procurement=procurement, user=buyer, scoring_closed=True
    )
    change_stage(procurement=procurement, user=buyer, to_stage=Stage.CASE_VISITS)
    procurement.refresh_from_db()
    assert procurement.stage == Stage.CASE_VISITS
    with pytest.raises(ServiceError) as refused:
        decisions.record_decision(
            procurement=procurement, user=manager, bid=bid, rationale="x"
        )
    assert (
        refused.value.message
        == "采购项目处于阶段 4 案例考察 / 远程演示：决定在阶段 5 记录。"
    )


def test_the_evaluation_stage_needs_the_evaluation_closed_to_move_on(
    org, procurement, buyer
):
    procurement.stage = Stage.CASE_VISITS
    procurement.save(update_fields=["stage"])
    with pytest.raises(ServiceError):
        change_stage(procurement=procurement, user=buyer, to_stage=Stage.DECISION)


def test_overview_shows_the_tender_events(procurement, buyer, client_for):
    now = timezone.now()
    RfpSettings.objects.create(
        procurement=procurement, deadline=now + timedelta(days=30)
    )
    invitations.invite(
        procurement,
        buyer,
        vendor_name="Zebracorp",
        email="bids@zebra.example",
        request_base_url=BASE_URL,
    )
    publication.issue_addendum(
        procurement, buyer, note="Weights published.", publish_weights=True,
        request_base_url=BASE_URL,
    )  # fmt: skip
    page = client_for(buyer).get(
        reverse("procurement-detail", args=[procurement.pk]), **EN
    )
    html = page.content.decode()
    trail = html[html.index('id="overview-audit"') :]
    assert "RFP version 1 published" in trail
    assert "Addendum 2 issued" in trail
    assert "Addendum 2 e-mailed to the invited vendors" in trail
    assert "Vendor invited — Zebracorp &lt;bids@zebra.example&gt;" in trail
    assert "1 Internal review → 2 Shortlist" in trail
