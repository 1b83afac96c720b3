"""The tender review on the comparison: 符合性审查 with the plan's ★ items, the budget and
the 最高限价, 评标价 after deductions, 低价优先法 with the base from valid bids only, the
ranking without invalid bids, viability; a cut-down accelerator never ranks first."""

from decimal import Decimal as D

import pytest

from tests.vendors import tender_support
from tests.vendors.tender_support import (
    H20,
    H20_PFLOPS,
    PLAN_PFLOPS,
    priced_bid,
    set_regime,
)
from vendors import comparison
from vendors.services import tender

h200_plan = tender_support.h200_plan  # fixtures
tender_world = tender_support.tender_world


def _build(procurement, user):
    result = comparison.build_comparison(procurement=procurement, user=user)
    return result, {c.vendor["name"]: c for c in result.columns}


@pytest.fixture
def five_bids(tender_world, org):
    """A 30 M, B 32 M (small enterprise), C 36 M: 96 x H200; X 12 M: 96 x H20;
    O 41 M: 96 x H200 over the 40 M budget."""
    procurement = tender_world
    priced_bid(procurement, org, "A", 30_000_000)
    priced_bid(procurement, org, "B", 32_000_000, sme=True)
    priced_bid(procurement, org, "C", 36_000_000)
    priced_bid(procurement, org, "X", 12_000_000, accelerator=H20)
    priced_bid(procurement, org, "O", 41_000_000)
    return procurement


def test_no_review_and_the_old_ranking_before_tender_settings_are_saved(
    five_bids, buyer
):
    result, _ = _build(five_bids, buyer)
    assert result.tender is None
    assert all(c.tender is None for c in result.columns)


def test_gov_procurement_low_price_first_with_sme_deduction_and_valid_base(
    five_bids, buyer
):
    set_regime(five_bids, buyer, "gov_procurement")  # 30 %, SME 10 %, domestic 20 %
    result, by_name = _build(five_bids, buyer)
    review = {b.label: b for b in result.tender.bids}
    # 评标价: B 32 M x (1 - 10 %) = 28.8 M, the lowest valid one: the base.
    assert review["B"].evaluated_cny == D("28800000.00")
    assert review["B"].deductions[0]["amount_cny"] == D("3200000.00")
    assert review["A"].evaluated_cny == D("30000000.00")
    # 28.8 / 30 x 30 = 28.8; 28.8 / 36 x 30 = 24; the H20's 12 M is no base.
    assert review["B"].price_points == D(30)
    assert review["A"].price_points == D("28.8")
    assert review["C"].price_points == D(24)
    assert review["X"].price_points is None and review["O"].price_points is None
    for name in "ABC":
        column = by_name[name]
        expected = D(str(column.technical_100)) * D("0.7") + review[name].price_points
        assert review[name].total == expected
        assert column.weighted_total == float(expected)
        assert column.price_100 == float(review[name].price_points / 30 * 100)
    assert sorted(by_name[n].rank for n in "ABC") == [1, 2, 3]
    assert by_name["X"].rank is None and by_name["O"].rank is None
    assert result.tender.viable and result.tender.viability is None


def test_an_invalid_bid_is_out_of_the_base_price(five_bids, buyer):
    """Without the ★ items the 12 M H20 bid is valid and becomes the base; with them
    it is invalid and the base is the lowest valid price (B's 28.8 M)."""
    set_regime(five_bids, buyer, "gov_procurement", mandatory_items=[])
    result, _ = _build(five_bids, buyer)
    review = {b.label: b for b in result.tender.bids}
    assert review["X"].valid and review["X"].price_points == D(30)
    assert review["A"].price_points == D(12_000_000) / D(30_000_000) * 30  # 12
    plan_items = tender.plan_items(procurement=five_bids)
    set_regime(five_bids, buyer, "gov_procurement", mandatory_items=plan_items)
    result, _ = _build(five_bids, buyer)
    review = {b.label: b for b in result.tender.bids}
    assert not review["X"].valid
    assert review["A"].price_points == D("28.8")


def test_over_budget_and_over_ceiling_are_invalid_with_article_63(five_bids, buyer):
    set_regime(five_bids, buyer, "gov_procurement", ceiling_cny=D(35_000_000))
    result, by_name = _build(five_bids, buyer)
    review = {b.label: b for b in result.tender.bids}
    [over_budget, over_ceiling] = review["O"].reasons
    assert over_budget["code"] == "over_budget"
    assert D(over_budget["required"]) == D(40_000_000)
    assert over_budget["citation"] == "《政府采购货物和服务招标投标管理办法》第六十三条"
    assert over_ceiling["code"] == "over_ceiling"
    [c_reason] = review["C"].reasons  # 36 M: under the budget, over the 35 M ceiling
    assert c_reason["code"] == "over_ceiling"
    assert D(c_reason["offered"]) == D(36_000_000)
    assert by_name["C"].rank is None


def test_too_few_valid_bids_fail_the_tender_with_the_regimes_article(five_bids, buyer):
    set_regime(five_bids, buyer, "gov_procurement", ceiling_cny=D(35_000_000))
    result, _ = _build(five_bids, buyer)
    assert result.tender.valid_count == 2  # A and B
    assert not result.tender.viable
    assert result.tender.viability["code"] == "too_few_valid_bids"
    assert result.tender.viability["citation"] == "《政府采购法》第三十六条"
    set_regime(five_bids, buyer, "tendering", ceiling_cny=D(35_000_000))
    result, _ = _build(five_bids, buyer)
    assert result.tender.viable  # 5 bidders, one valid bid is enough (法 第四十二条)


def test_lowest_price_method_ranks_on_the_evaluated_price(five_bids, buyer):
    set_regime(five_bids, buyer, "gov_procurement", method="lowest_price")
    result, by_name = _build(five_bids, buyer)
    assert [by_name[n].rank for n in "BAC"] == [1, 2, 3]
    assert all(b.total is None for b in result.tender.bids)


def test_abnormally_low_share_flags_valid_bids_below_the_mean(five_bids, buyer):
    # valid 评标价 30, 28.8, 36 M: mean 31.6 M; 5 % below: 30.02 M -> A and B.
    set_regime(five_bids, buyer, "gov_procurement", abnormally_low_pct=D(5))
    result, _ = _build(five_bids, buyer)
    flagged = {b.label for b in result.tender.bids if b.abnormally_low}
    assert flagged == {"A", "B"}


@pytest.mark.parametrize("regime", ["commercial", "gov_procurement", "tendering"])
def test_96_h20_against_the_96_h200_plan_never_ranks_first(
    tender_world,
    org,
    buyer,
    regime,
):
    """The issue's case: 96 x H20 delivers 14.208 of the 94.944 PFLOPS needed at
    40 % of the price; with the price weight at the 30 % floor it used to win."""
    procurement = tender_world
    priced_bid(procurement, org, "H200 bid", 34_000_000)
    priced_bid(procurement, org, "H20 bid", 13_600_000, accelerator=H20)
    priced_bid(procurement, org, "H200 dear", 38_000_000)
    set_regime(procurement, buyer, regime)
    result, by_name = _build(procurement, buyer)
    h20 = by_name["H20 bid"]
    assert h20.rank is None and h20.weighted_total is None
    [reason] = h20.tender.reasons
    assert reason["item"] == "delivered_pflops"
    assert D(reason["offered"]) == H20_PFLOPS
    assert D(reason["required"]) == PLAN_PFLOPS
    assert by_name["H200 bid"].rank == 1 or by_name["H200 dear"].rank == 1


def test_commercial_price_per_delivered_capacity_without_star_items(
    tender_world,
    org,
    buyer,
):
    """No ★ item and price alone (weight 100): the H20 is valid but costs more per
    PFLOPS-day, so it still loses: score = 100 x (TCO_a / 94.944) / (TCO_x / 14.208)."""
    procurement = tender_world
    priced_bid(procurement, org, "H200 bid", 34_000_000)
    priced_bid(procurement, org, "H20 bid", 13_600_000, accelerator=H20)
    set_regime(
        procurement, buyer, "commercial", mandatory_items=[], price_weight_pct=D(100)
    )
    result, by_name = _build(procurement, buyer)
    a, x = by_name["H200 bid"], by_name["H20 bid"]
    review = {b.label: b for b in result.tender.bids}
    days = D(365) * 5
    unit_a = a.tco_value / (D("94.944") * days)
    unit_x = x.tco_value / (H20_PFLOPS * days)
    assert review["H200 bid"].unit_cost_cny == unit_a
    assert review["H20 bid"].price_points == unit_a / unit_x * 100
    assert review["H20 bid"].price_points < 50
    assert (a.rank, x.rank) == (1, 2)


def test_a_sealed_envelope_reviewer_sees_the_star_review_without_prices(
    five_bids, buyer, it_lead
):
    from vendors.services import evaluation

    evaluation.update_evaluation_settings(
        procurement=five_bids, user=buyer, sealed_envelope=True
    )
    set_regime(five_bids, buyer, "gov_procurement")
    result, _ = _build(five_bids, it_lead)
    assert result.prices_hidden and result.tender.prices_hidden
    review = {b.label: b for b in result.tender.bids}
    assert not review["X"].valid
    assert review["O"].valid  # its price is sealed: no budget check shown
    assert all(b.quoted_cny is None and b.price_points is None for b in review.values())


def test_tried_weights_keep_invalid_bids_out_of_the_rank(five_bids, buyer):
    set_regime(five_bids, buyer, "gov_procurement")
    result = comparison.build_comparison(procurement=five_bids, user=buyer)
    weights = {s.code: 1.0 for s in result.sections}
    tried = comparison.reweighted(result, weights)
    by_name = {c.vendor["name"]: c for c in tried.columns}
    assert by_name["X"].rank is None and by_name["O"].rank is None
    assert sorted(by_name[n].rank for n in "ABC") == [1, 2, 3]
    assert tried.tender is not result.tender


def test_blind_reviewer_sees_vendor_aliases_in_the_review(five_bids, buyer, it_lead):
    from vendors.services import evaluation

    evaluation.update_evaluation_settings(
        procurement=five_bids, user=buyer, blind_grading=True
    )
    set_regime(five_bids, buyer, "gov_procurement")
    result, _ = _build(five_bids, it_lead)
    labels = {b.label for b in result.tender.bids}
    assert not labels & {"A", "B", "C", "X", "O"}
