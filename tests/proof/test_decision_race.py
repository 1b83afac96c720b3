"""Two first decisions at once (issue 23, item 8): before the fix both requests found
no decision, both inserted one, and the second answered 500 on the one-decision-per-
procurement constraint in 10 of 10 rounds. Now the procurement's row is locked
first: identical requests get the same answer, a request that saw no decision and
asks for another one gets 409, and there is always exactly one row.

Real requests in threads released together, on PostgreSQL (`test_races`)."""

from __future__ import annotations

from functools import partial

import pytest
from django.db import connection

from clusterbuy.models import Role
from tests.conftest import missing_service
from tests.factories import OrganisationFactory, ProcurementFactory, member
from tests.proof.test_races import api_client, run_together
from tests.vendors.test_support import at_decision_stage, make_bid, make_vendor
from vendors.models import AuditEntry, Decision

ROUNDS = 10

pytestmark = pytest.mark.services


@pytest.fixture
def setting(transactional_db):
    if connection.vendor != "postgresql":
        missing_service("PostgreSQL (DATABASE_URL) is needed for the race tests")
    org = OrganisationFactory(name="Decision Race Org")
    managers = [
        member(org, Role.MANAGER, "race-manager-1"),
        member(org, Role.MANAGER, "race-manager-2"),
    ]
    procurement = at_decision_stage(
        ProcurementFactory(organisation=org, name="Decision race")
    )
    bid = make_bid(procurement, make_vendor(org, "Only Bid Systems"))
    other = make_bid(procurement, make_vendor(org, "Second Bid Ltd"))
    return {"managers": managers, "procurement": procurement, "bids": (bid, other)}


def _url(procurement) -> str:
    return f"/api/v1/procurements/{procurement.pk}/decision/"


def _reset(procurement) -> None:
    Decision.objects.filter(procurement=procurement).delete()
    AuditEntry.objects.filter(procurement=procurement).delete()


def test_two_identical_first_decisions_are_one_row_and_the_same_answer(setting):
    procurement, (bid, _other) = setting["procurement"], setting["bids"]
    body = {"bid": bid.pk, "rationale": "Only complete bid.", "override_reason": ""}
    outcomes = []
    for _round in range(ROUNDS):
        _reset(procurement)
        first, second = run_together(
            *[
                partial(api_client(m).put, _url(procurement), body, format="json")
                for m in setting["managers"]
            ]
        )
        outcomes.append((first.status_code, second.status_code))
        assert Decision.objects.filter(procurement=procurement).count() == 1
        if first.status_code == second.status_code == 200:
            assert first.json()["bid"] == second.json()["bid"] == bid.pk
            assert first.json()["seen"] == second.json()["seen"]
        assert (
            AuditEntry.objects.filter(
                procurement=procurement, action="decision", target="decision"
            ).count()
            == 1
        )
    assert outcomes == [(200, 200)] * ROUNDS


def test_a_different_first_decision_at_the_same_moment_is_a_409(setting):
    procurement, (bid, other) = setting["procurement"], setting["bids"]
    outcomes = []
    for _round in range(ROUNDS):
        _reset(procurement)
        bodies = [
            {"bid": b.pk, "rationale": f"Choice {b.pk}", "override_reason": "why not",
             "seen": ""}
            for b in (bid, other)
        ]  # fmt: skip
        answers = run_together(
            *[
                partial(
                    api_client(m).put,
                    _url(procurement),
                    body,
                    format="json",
                    HTTP_ACCEPT_LANGUAGE="en",
                )
                for m, body in zip(setting["managers"], bodies, strict=True)
            ]
        )
        codes = sorted(a.status_code for a in answers)
        outcomes.append(codes)
        stored = Decision.objects.get(procurement=procurement)
        winner = next(a for a in answers if a.status_code == 200)
        assert stored.bid_id == winner.json()["bid"]
        loser = next(a for a in answers if a.status_code == 409)
        assert loser.json()["detail"].startswith("A decision was recorded by")
    assert outcomes == [[200, 409]] * ROUNDS
