"""The committee tests' world (no tests here): the tender world's 96 x H200 plan and
40 M CNY budget under 政府采购 (30 % price weight, SME 10 %), four bids — A 30 M, B
32 M (small enterprise), C 36 M and O 41 M, over the budget (invalid) — and a
committee of 7: two buyer representatives (the procurement officer, chair, and the
manager) and five experts."""

from __future__ import annotations

import pytest

from clusterbuy.models import Role
from tests.factories import member
from tests.vendors import tender_support
from tests.vendors.tender_support import priced_bid, set_regime
from vendors.services import committee, committee_scoring

h200_plan = tender_support.h200_plan  # fixtures
tender_world = tender_support.tender_world


@pytest.fixture
def experts(org):
    return [member(org, Role.EXPERT, f"expert-{i}") for i in range(1, 6)]


@pytest.fixture
def gov_world(tender_world, org, buyer):
    procurement = tender_world
    set_regime(procurement, buyer, "gov_procurement")
    bids = {
        "A": priced_bid(procurement, org, "A", 30_000_000),
        "B": priced_bid(procurement, org, "B", 32_000_000, sme=True),
        "C": priced_bid(procurement, org, "C", 36_000_000),
        "O": priced_bid(procurement, org, "O", 41_000_000),
    }
    return procurement, bids


def seven(buyer, manager, experts):
    return [
        committee.Seat(buyer, "buyer_rep", True),
        committee.Seat(manager, "buyer_rep"),
        *[committee.Seat(e, "expert") for e in experts],
    ]


@pytest.fixture
def seated(gov_world, buyer, manager, experts):
    procurement, bids = gov_world
    committee.set_committee(
        procurement=procurement, user=buyer, seats=seven(buyer, manager, experts)
    )
    return procurement, bids


def mark_all(procurement, user, bid, points):
    """``user`` marks every technical criterion of ``bid`` with ``points``."""
    criteria, _weights = committee_scoring.technical_criteria(procurement)
    return committee_scoring.record_member_scores(
        procurement=procurement,
        user=user,
        bid=bid,
        marks=[committee_scoring.Mark(c.code, points) for c in criteria],
    )


#: Each seat's uniform mark per valid bid: a uniform mark p scores 20 x p of 100.
MARKS = {
    "A": [4, 4, 3, 4, 5, 4, 4],
    "B": [3, 3, 3, 4, 3, 3, 2],
    "C": [5, 4, 4, 4, 4, 4, 4],
}


def score_and_submit(procurement, bids, users):
    for i, user in enumerate(users):
        for name, points in MARKS.items():
            mark_all(procurement, user, bids[name], points[i])
        committee_scoring.submit_member_scores(procurement=procurement, user=user)
