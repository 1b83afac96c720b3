"""Regime rules: price-weight floors, committee, viability, bond, method."""

from decimal import Decimal as D

import pytest

from vendors.engine.regimes import (
    CommitteeSeat,
    Method,
    Regime,
    Subject,
    check_viability,
    rules_for,
    validate_bond,
    validate_committee,
    validate_method,
    validate_price_weight,
)
from vendors.engine.regimes.validation import RegimeInputError

GOV = rules_for(Regime.GOV_PROCUREMENT)
TENDER = rules_for(Regime.TENDERING)
COMMERCIAL = rules_for(Regime.COMMERCIAL)


def _codes(violations):
    return [v.code for v in violations]


@pytest.mark.parametrize(
    ("regime", "subject", "weight", "codes"),
    [
        # 87号令 第五十五条: goods >= 30 %, services >= 10 %
        (Regime.GOV_PROCUREMENT, Subject.GOODS, "29.99", ["price_weight_below_floor"]),
        (Regime.GOV_PROCUREMENT, Subject.GOODS, "30", []),
        (Regime.GOV_PROCUREMENT, Subject.GOODS, "15", ["price_weight_below_floor"]),
        (Regime.GOV_PROCUREMENT, Subject.GOODS, "70", []),  # no cap (18号令's is gone)
        (Regime.GOV_PROCUREMENT, Subject.SERVICES, "9.9", ["price_weight_below_floor"]),
        (Regime.GOV_PROCUREMENT, Subject.SERVICES, "10", []),
        (Regime.TENDERING, Subject.GOODS, "5", []),  # no statutory floor
        (Regime.COMMERCIAL, Subject.GOODS, "0", []),
    ],
)
def test_price_weight_floor_per_regime(regime, subject, weight, codes):
    found = validate_price_weight(
        rules_for(regime), Method.COMPREHENSIVE, subject, D(weight)
    )
    assert _codes(found) == codes


def test_price_weight_violation_cites_order_87_art_55():
    (violation,) = validate_price_weight(
        GOV, Method.COMPREHENSIVE, Subject.GOODS, D(15)
    )
    assert violation.article.article == "第五十五条"
    assert violation.article.primary is False  # 87号令: secondary text only
    assert violation.params["floor_pct"] == D(30)


def test_lowest_price_method_has_no_weight_to_check():
    assert validate_price_weight(GOV, Method.LOWEST_PRICE, Subject.GOODS, D(0)) == ()


def test_weight_outside_0_100_is_an_input_error():
    with pytest.raises(RegimeInputError):
        validate_price_weight(GOV, Method.COMPREHENSIVE, Subject.GOODS, D(101))


def test_uniform_goods_must_use_lowest_price_under_gov_procurement():
    found = validate_method(
        GOV, Method.COMPREHENSIVE, Subject.GOODS, uniform_standards=True
    )
    assert _codes(found) == ["uniform_standards_need_lowest_price"]
    assert found[0].article.article == "第三十四条" and found[0].article.primary
    assert (
        validate_method(GOV, Method.LOWEST_PRICE, Subject.GOODS, uniform_standards=True)
        == ()
    )
    assert (
        validate_method(
            TENDER, Method.COMPREHENSIVE, Subject.GOODS, uniform_standards=True
        )
        == ()
    )


def _committee(buyer_reps, experts):
    return [CommitteeSeat("buyer_rep")] * buyer_reps + [
        CommitteeSeat("expert")
    ] * experts


@pytest.mark.parametrize(
    ("reps", "experts", "budget", "complex_", "codes"),
    [
        (1, 4, "5000000", False, []),  # 5, odd, 4/5 >= 2/3
        (2, 3, "5000000", False, ["committee_too_few_experts"]),  # 3/5 < 2/3
        (1, 3, "5000000", False, ["committee_too_small", "committee_not_odd"]),
        (2, 4, "5000000", False, ["committee_not_odd"]),  # 6 even; 4/6 = 2/3 ok
        # 87号令 第四十七条: >= 7 when ANY of budget >= 10 M, complex, high impact
        (1, 4, "10000000", False, ["committee_too_small_large_project"]),
        (1, 4, "5000000", True, ["committee_too_small_large_project"]),
        (2, 5, "40000000", True, []),  # 7, 5/7 >= 2/3
        (3, 4, "40000000", False, ["committee_too_few_experts"]),  # 4/7 < 2/3
    ],
)
def test_gov_committee(reps, experts, budget, complex_, codes):
    found = validate_committee(GOV, _committee(reps, experts), D(budget), complex_)
    assert _codes(found) == codes


def test_high_social_impact_alone_needs_seven():
    found = validate_committee(
        GOV, _committee(1, 4), D(1_000_000), False, high_social_impact=True
    )
    assert _codes(found) == ["committee_too_small_large_project"]


def test_tendering_committee_has_no_large_project_rule():
    assert validate_committee(TENDER, _committee(1, 4), D(40_000_000), True) == ()
    found = validate_committee(TENDER, _committee(2, 2), D(1), False)
    assert _codes(found) == [
        "committee_too_small",
        "committee_not_odd",
        "committee_too_few_experts",
    ]
    assert found[0].article.law == "招标投标法" and found[0].article.primary


def test_commercial_committee_is_free():
    assert validate_committee(COMMERCIAL, _committee(2, 0), D(40_000_000), True) == ()


def test_gov_tender_with_fewer_than_three_valid_bids_is_abandoned():
    violation = check_viability(GOV, bidders=20, valid_bids=2)
    assert violation.code == "too_few_valid_bids"
    assert violation.params["consequence"] == "abandon"
    assert (
        violation.article.law == "政府采购法"
        and violation.article.article == "第三十六条"
    )
    assert check_viability(GOV, bidders=20, valid_bids=3) is None


def test_tendering_with_two_bidders_is_not_opened():
    violation = check_viability(TENDER, bidders=2, valid_bids=2)
    assert violation.code == "too_few_bidders"
    assert violation.params["consequence"] == "retender_no_opening"
    assert violation.article.article == "第四十四条"
    # three bidders, two valid: the committee may go on (法 第四十二条 only when all fail)
    assert check_viability(TENDER, bidders=3, valid_bids=2) is None
    assert check_viability(TENDER, bidders=3, valid_bids=0).code == "too_few_valid_bids"


def test_commercial_viability_is_the_buyers_call():
    assert check_viability(COMMERCIAL, bidders=1, valid_bids=1) is None


def test_bond_at_most_two_percent_of_budget():
    assert validate_bond(GOV, D(800_000), D(40_000_000)) == ()  # exactly 2 %
    (violation,) = validate_bond(GOV, D("800000.01"), D(40_000_000))
    assert violation.params["cap_cny"] == D(800_000)
    assert violation.article.article == "第三十三条" and violation.article.primary
    assert (
        validate_bond(TENDER, D(900_000), D(40_000_000))[0].article.article
        == "第二十六条"
    )
    assert validate_bond(COMMERCIAL, D(5_000_000), D(40_000_000)) == ()


def test_statutory_regimes_never_count_prescores():
    assert not GOV.prescores_may_count and not TENDER.prescores_may_count
    assert COMMERCIAL.prescores_may_count
    assert len(GOV.score_change_reasons) == 4  # 87号令 第六十四条


def test_every_article_has_a_quote_and_a_source():
    """Primary quotes name the LawRefBook file they were read in."""
    from vendors.engine.regimes import articles

    for name in dir(articles):
        art = getattr(articles, name)
        if isinstance(art, articles.Article):
            assert art.quote_zh and art.source
            if art.primary:
                assert art.source.startswith("LawRefBook/Laws: ")


def test_required_committee_size_and_acceptance_article():
    from vendors.engine.regimes import required_committee_size

    assert required_committee_size(GOV, D(9_999_999), False) == 5
    assert required_committee_size(GOV, D(10_000_000), False) == 7
    assert required_committee_size(TENDER, D(40_000_000), True) == 5
    assert required_committee_size(COMMERCIAL, D(40_000_000), True) == 0
    assert GOV.acceptance_article.article == "第四十五条"  # 验收书, 实施条例
