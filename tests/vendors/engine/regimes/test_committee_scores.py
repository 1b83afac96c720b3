"""The committee's technical score: a member's weighted total, then the members' mean
(hand-computed)."""

from decimal import Decimal as D

import pytest

from vendors.engine.regimes import RegimeInputError
from vendors.engine.regimes.committee_scores import (
    ScoredCriterion,
    committee_mean,
    member_total_100,
)

CRITERIA = [
    ScoredCriterion("a1", "arch", D(1)),
    ScoredCriterion("a2", "arch", D(3)),
    ScoredCriterion("s1", "service", D(1)),
]
WEIGHTS = {"arch": D(30), "service": D(10)}


def test_member_total_is_the_weighted_mean_on_100():
    # arch: (1 x 5 + 3 x 3) / 4 = 3.5; service: 2; (30 x 3.5 + 10 x 2) / 40 = 3.125
    # x 20 = 62.50
    assert member_total_100({"a1": 5, "a2": 3, "s1": 2}, CRITERIA, WEIGHTS) == D(
        "62.50"
    )


def test_the_committee_score_is_the_mean_rounded_half_up():
    # (62.50 + 80 + 71.25) / 3 = 71.25; (80 + 80 + 60.01) / 3 = 73.336... -> 73.34
    assert committee_mean([D("62.50"), D(80), D("71.25")]) == D("71.25")
    assert committee_mean([D(80), D(80), D("60.01")]) == D("73.34")
    assert committee_mean([]) is None


@pytest.mark.parametrize(
    "marks",
    [{"a1": 5, "a2": 3}, {"a1": 6, "a2": 3, "s1": 2}, {"a1": -1, "a2": 3, "s1": 2}],
)
def test_missing_or_out_of_range_marks_are_refused(marks):
    with pytest.raises(RegimeInputError):
        member_total_100(marks, CRITERIA, WEIGHTS)
