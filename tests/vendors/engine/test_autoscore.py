"""Automatic scores from the findings: the rules of vendors.engine.autoscore, by hand."""

import pytest

from vendors.engine.autoscore import AutoSource, automatic_scores
from vendors.engine.compliance import ComplianceItem, ComplianceStatus
from vendors.engine.detectors import Pitfall, PitfallCode

PIT_CRITERIA = ["pit_gpu_only", "pit_promises", "pit_template", "pit_open"]


def flag(code: PitfallCode, reason: str = "found") -> Pitfall:
    return Pitfall(code, reason, "发现", ("evidence",))


def item(name: str, status: ComplianceStatus, required=64, offered=64):
    return ComplianceItem(name, status, required, offered, "GPU")


@pytest.mark.parametrize(
    ("flags", "points"),
    [(0, 5.0), (1, 2.0), (2, 0.0), (3, 0.0)],  # 5 - 3 per flag, floor 0
)
def test_a_pitfall_criterion_loses_three_points_a_flag(flags, points):
    found = [flag(PitfallCode.OVER_PROMISING, f"promise {n}") for n in range(flags)]
    scores = automatic_scores(["pit_promises"], found, [])
    auto = scores["pit_promises"]
    assert auto.points == points
    assert auto.source == AutoSource.PITFALL
    assert auto.pitfall == "over_promising"
    assert [p.reason_en for p in auto.flags] == [f"promise {n}" for n in range(flags)]


def test_each_pitfall_criterion_reads_only_its_own_detector():
    found = [flag(PitfallCode.GPU_ONLY), flag(PitfallCode.CLOSED_ECOSYSTEM)]
    scores = automatic_scores(PIT_CRITERIA, found, [])
    assert {code: s.points for code, s in scores.items()} == {
        "pit_gpu_only": 2.0,
        "pit_promises": 5.0,
        "pit_template": 5.0,
        "pit_open": 2.0,
    }


def test_design_balance_is_zero_on_any_failed_compliance_item():
    items = [
        item("gpu_count", ComplianceStatus.FAIL, 104, 56),
        item("storage_tb", ComplianceStatus.PASS),
        item("cooling", ComplianceStatus.WARN),
    ]
    auto = automatic_scores(["arch_balance"], [], items)["arch_balance"]
    assert auto.points == 0.0
    assert auto.source == AutoSource.COMPLIANCE
    assert [i.item for i in auto.compliance] == ["gpu_count", "cooling"]
    assert auto.checked == 3


def test_design_balance_loses_one_point_a_warning():
    items = [item(f"i{n}", ComplianceStatus.WARN) for n in range(2)] + [
        item("storage_tb", ComplianceStatus.PASS)
    ]
    assert automatic_scores(["arch_balance"], [], items)["arch_balance"].points == 3.0
    passing = [item("storage_tb", ComplianceStatus.PASS)] * 4
    assert automatic_scores(["arch_balance"], [], passing)["arch_balance"].points == 5


def test_no_plan_no_compliance_score_and_unknown_criteria_get_none():
    # Without a plan every item warns with nothing required: no basis for a score.
    unplanned = [item("gpu_count", ComplianceStatus.WARN, required=None)]
    scores = automatic_scores(["arch_balance", "team_fit", "arch_data"], [], unplanned)
    assert scores == {}
