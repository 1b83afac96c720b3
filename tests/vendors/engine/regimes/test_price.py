"""低价优先法 with deductions, the abnormally-low check, capacity price scores."""

from decimal import Decimal as D

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vendors.engine.regimes import (
    DeductionPolicy,
    PriceInput,
    abnormally_low,
    capacity_price_scores,
    evaluated_prices,
    low_price_first_scores,
)
from vendors.engine.regimes.validation import RegimeInputError

# A: plain; B: arithmetic correction 9.8 M -> 9.9 M, SME; C: lowest quote but invalid
# (fails a ★ item); D: SME and domestic product.
BIDS = (
    PriceInput("A", D(10_000_000), None, sme=False, domestic=False),
    PriceInput("B", D(9_800_000), D(9_900_000), sme=True, domestic=False),
    PriceInput("C", D(7_000_000), None, sme=False, domestic=False),
    PriceInput("D", D(11_000_000), None, sme=True, domestic=True),
)
POLICY = DeductionPolicy(sme_pct=D(10), domestic_pct=D(20), stacking="sequential")
VALID = {"A", "B", "D"}


def test_evaluated_prices_after_correction_and_deductions():
    prices = evaluated_prices(BIDS, POLICY)
    assert prices["A"].evaluated_cny == D(10_000_000)
    # B: corrected 9,900,000 less 10 % SME = 8,910,000
    assert prices["B"].corrected_cny == D(9_900_000)
    assert prices["B"].evaluated_cny == D(8_910_000)
    assert [(d.kind, d.pct, d.amount_cny) for d in prices["B"].deductions] == [
        ("sme", D(10), D(990_000))
    ]
    # D sequential: 11,000,000 x 0.9 = 9,900,000; x 0.8 = 7,920,000
    assert prices["D"].evaluated_cny == D(7_920_000)
    assert [d.amount_cny for d in prices["D"].deductions] == [
        D(1_100_000),
        D(1_980_000),
    ]


@pytest.mark.parametrize(
    ("stacking", "expected"),
    [
        ("sequential", D(7_920_000)),  # 11 M x 0.9 x 0.8
        ("additive", D(7_700_000)),  # 11 M x (1 - 0.1 - 0.2)
        ("larger_only", D(8_800_000)),  # 11 M x 0.8
    ],
)
def test_stacking_is_an_explicit_setting(stacking, expected):
    policy = DeductionPolicy(sme_pct=D(10), domestic_pct=D(20), stacking=stacking)
    assert evaluated_prices(BIDS, policy)["D"].evaluated_cny == expected


def test_low_price_first_by_hand_invalid_lowest_bid_excluded_from_base():
    scores = low_price_first_scores(evaluated_prices(BIDS, POLICY), VALID, D(30))
    # base = lowest VALID evaluated price = D's 7,920,000 (C's 7,000,000 is invalid)
    assert set(scores) == VALID
    assert scores["D"] == D(30)
    assert scores["A"] == D("23.76")  # 7.92 / 10 x 30
    assert scores["B"].quantize(D("0.0001")) == D("26.6667")  # 7.92 / 8.91 x 30
    with_c = low_price_first_scores(
        evaluated_prices(BIDS, POLICY), VALID | {"C"}, D(30)
    )
    assert with_c["D"] < D(30)  # had C counted, it would have set the base


def test_policy_outside_the_published_ranges_is_refused():
    with pytest.raises(RegimeInputError):
        evaluated_prices(BIDS, DeductionPolicy(sme_pct=D(25)))
    with pytest.raises(RegimeInputError):
        evaluated_prices(BIDS, DeductionPolicy(domestic_pct=D(21)))


def test_abnormally_low_is_below_mean_of_valid_bids_by_share():
    prices = evaluated_prices(BIDS, DeductionPolicy())
    # valid A 10.0 M, B 9.9 M, C 7.0 M: mean 8.9667 M; 15 % below: 7.6217 M
    assert abnormally_low(prices, {"A", "B", "C"}, D(15)) == {"C"}
    assert abnormally_low(prices, {"A", "B", "C"}, D(25)) == set()
    assert abnormally_low(prices, {"A", "B"}, D(15)) == set()


def test_cut_down_accelerator_cannot_win_on_price_per_delivered_capacity():
    """Issue 25: 96 x H20 delivers 14.2 PFLOPS, 96 x H200 94.9 PFLOPS."""
    cost = {"h200": D(38_000_000), "h20": D(15_000_000)}
    days = D(365)
    capacity = {"h200": D("94.9") * days, "h20": D("14.2") * days}  # PFLOPS-days
    scores = capacity_price_scores(cost, capacity, D(30))
    assert scores["h200"] == D(30)
    # (38 / 94.9) / (15 / 14.2) x 30 = 539.6 / 1423.5 x 30 = 11.372...
    assert scores["h20"].quantize(D("0.001")) == D("11.372")
    # on the bare bid price the H20 bid would have had the full 30 points
    assert min(cost, key=cost.get) == "h20"
    # it would need a price below 14.2 / 94.9 = 14.96 % of the H200 bid to win
    cheap = {"h200": D(38_000_000), "h20": D(38_000_000) * D("0.149")}
    assert capacity_price_scores(cheap, capacity, D(30))["h20"] == D(30)


def test_a_bid_delivering_nothing_cannot_be_scored():
    with pytest.raises(RegimeInputError):
        capacity_price_scores({"x": D(1)}, {"x": D(0)}, D(30))


# --- properties of the formula ------------------------------------------------------

prices_st = st.dictionaries(
    st.sampled_from([f"b{i}" for i in range(12)]),
    st.integers(min_value=100_000, max_value=100_000_000).map(D),
    min_size=1,
    max_size=12,
)
weights_st = st.integers(min_value=0, max_value=100).map(D)


def _evaluated(prices):
    inputs = [PriceInput(b, p, None, False, False) for b, p in prices.items()]
    return evaluated_prices(inputs, DeductionPolicy())


@settings(max_examples=200, deadline=None)
@given(prices_st, weights_st, st.data())
def test_property_scores_bounded_lowest_full_monotone(prices, weight, data):
    valid = data.draw(st.sets(st.sampled_from(sorted(prices)), min_size=1))
    scores = low_price_first_scores(_evaluated(prices), valid, weight)
    assert set(scores) == valid
    assert all(D(0) <= s <= weight for s in scores.values())
    lowest = min(prices[b] for b in valid)
    assert all(scores[b] == weight for b in valid if prices[b] == lowest)
    ordered = sorted(valid, key=prices.get)
    for cheaper, dearer in zip(ordered, ordered[1:], strict=False):
        assert scores[cheaper] >= scores[dearer]


@settings(max_examples=200, deadline=None)
@given(prices_st, weights_st, st.integers(min_value=2, max_value=1000))
def test_property_invariant_to_scaling_all_prices(prices, weight, factor):
    valid = set(prices)
    scaled = {b: p * factor for b, p in prices.items()}
    a = low_price_first_scores(_evaluated(prices), valid, weight)
    b = low_price_first_scores(_evaluated(scaled), valid, weight)
    assert all(abs(a[k] - b[k]) <= D("1e-20") for k in valid)


@settings(max_examples=200, deadline=None)
@given(prices_st, weights_st, st.integers(min_value=1, max_value=100_000_000).map(D))
def test_property_invalid_bid_never_changes_others_scores(prices, weight, bad_price):
    valid = set(prices)
    with_invalid = {**prices, "invalid": bad_price}
    a = low_price_first_scores(_evaluated(prices), valid, weight)
    b = low_price_first_scores(_evaluated(with_invalid), valid, weight)
    assert a == b and "invalid" not in b
