"""The normalised TCO of a bid as items that add up: every item by hand for a GPU-only
bid, and for random bids (hypothesis) the items sum to the normalised TCO exactly and
to the engine's own total within the cent rounding of the items."""

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from tco.engine import OPEX_CATEGORIES, compute, inputs_from_dict
from tco.engine.breakdown import DRIVERS, breakdown_total, cost_breakdown
from tco.engine.normalise import ONE_OFF_CAPEX, BidLine, normalise_tco
from tco.price_book import price_book


def _gpu_only():
    return normalise_tco(
        [BidLine("gpu_servers", Decimal(15_200_000), False)],
        horizon_years=5,
        currency="CNY",
        gpu_count=64,
        it_power_kw=81.6,
        warranty_years=None,
        on_prem=True,
        price_book=price_book(),
    )


def test_every_item_of_a_gpu_only_bid_by_hand():
    items = [(i.code, i.category, i.amount, i.source) for i in _gpu_only().breakdown]
    # Fill-ins as in test_normalise (network 632,448 from one 64-port switch and 64
    # links, facility 81.6 kW x 72 CNY/W x 5/12, installation 8 nodes x 20,000,
    # support 10 % of hardware 15,832,448 in years 4-5). Energy 81.6 kW x 0.75 x 1.3
    # x 8760 h x 0.63 CNY/kWh x 5 = 2,195,378.64; staff 400,000 x (1 + 1.05 + 1.05^2
    # + 1.05^3 + 1.05^4) = 2,210,252.50; failures only in the 2 years after the
    # 3-year warranty: 15,832,448 x 4 % x 60 % x 2 = 759,957.50; residual (0.68^5 =
    # 0.145 -> 0.15) x 15,832,448 = 2,374,867.20.
    assert items == [
        ("quoted_one_off", "gpu_servers", Decimal("15200000.00"), "bid"),
        ("added", "network", Decimal("632448.00"), "clusterbuy"),
        ("added", "power_cooling", Decimal("2448000.00"), "clusterbuy"),
        ("added", "installation", Decimal("160000.00"), "clusterbuy"),
        ("energy", "energy", Decimal("2195378.64"), "default"),
        ("added", "support", Decimal("3166489.60"), "clusterbuy"),
        ("staff", "staff", Decimal("2210252.50"), "default"),
        ("failures", "failures", Decimal("759957.50"), "default"),
        ("residual", "residual", Decimal("-2374867.20"), "default"),
    ]
    assert _gpu_only().normalized_tco == Decimal("24397659.04")


def test_yearly_support_and_software_are_the_bids_own_items():
    lines = [
        BidLine("gpu_servers", Decimal(800_000), False),
        BidLine("network", Decimal(150_000), False),
        BidLine("storage", Decimal(50_000), False),
        BidLine("installation", Decimal(20_000), False),
        BidLine("support", Decimal(50_000), True),
        BidLine("software", Decimal(12_000), True),
        BidLine("training", Decimal(10_000), True),
    ]
    result = normalise_tco(
        lines,
        horizon_years=4,
        currency="CNY",
        gpu_count=8,
        it_power_kw=None,
        warranty_years=None,
        on_prem=False,
        price_book=price_book(),
    )
    quoted = {
        (i.code, i.category): (i.amount, i.basis)
        for i in result.breakdown
        if i.source == "bid"
    }
    assert quoted == {
        ("quoted_one_off", "gpu_servers"): (Decimal("800000.00"), "1 line(s)"),
        ("quoted_one_off", "network"): (Decimal("150000.00"), "1 line(s)"),
        ("quoted_one_off", "storage"): (Decimal("50000.00"), "1 line(s)"),
        ("quoted_one_off", "installation"): (Decimal("20000.00"), "1 line(s)"),
        # 10,000 a year x 4 years as "other" capex
        ("quoted_recurring", "training"): (
            Decimal("40000.00"),
            "10,000.00/y x 4 y",
        ),
        # the bid's yearly support for each of the 4 years
        ("quoted_recurring", "support"): (Decimal("200000.00"), "50,000.00/y x 4 y"),
        ("quoted_recurring", "software"): (Decimal("48000.00"), "12,000.00/y x 4 y"),
    }
    assert result.normalized_tco == breakdown_total(result.breakdown)


lines_strategy = st.lists(
    st.builds(
        BidLine,
        st.sampled_from(sorted(ONE_OFF_CAPEX)),
        st.decimals(min_value=0, max_value=10**8, places=2),
        st.booleans(),
    ),
    max_size=8,
)


@settings(max_examples=150, deadline=None)
@given(
    lines=lines_strategy,
    horizon=st.sampled_from([3, 4, 5]),
    currency=st.sampled_from(["CNY", "USD"]),
    gpu_count=st.integers(min_value=1, max_value=4096),
    it_power_kw=st.one_of(st.none(), st.floats(min_value=1, max_value=5000)),
    warranty=st.one_of(st.none(), st.floats(min_value=0, max_value=10)),
    on_prem=st.booleans(),
    gpu_price=st.one_of(st.none(), st.decimals(min_value=1, max_value=10**6, places=2)),
)
def test_random_bids_reconcile_to_the_cent(
    lines, horizon, currency, gpu_count, it_power_kw, warranty, on_prem, gpu_price
):
    result = normalise_tco(
        lines,
        horizon_years=horizon,
        currency=currency,
        gpu_count=gpu_count,
        it_power_kw=it_power_kw,
        warranty_years=warranty,
        on_prem=on_prem,
        gpu_price=gpu_price,
        price_book=price_book(),
    )
    items = result.breakdown
    assert result.normalized_tco == sum((i.amount for i in items), Decimal(0))
    assert all(i.amount == i.amount.quantize(Decimal("0.01")) for i in items)
    # The engine's float total: the items differ from it by their rounding only.
    engine_total = Decimal(str(result.tco["total_cost"]))
    assert abs(result.normalized_tco - engine_total) <= Decimal("0.005") * (
        len(items) + 2
    )
    # Every hidden cost is an item of the breakdown, with the same amount.
    added = [(i.category, i.amount) for i in items if i.code == "added"]
    assert sorted(added) == sorted(
        (h["category"], h["amount"]) for h in result.hidden_costs
    )
    # A scenario with the normalisation's inputs has the same items' total: a TCO
    # started from the bid reproduces its normalised TCO to the cent.
    inputs = inputs_from_dict(result.inputs)
    again = cost_breakdown(inputs, compute(inputs))
    assert breakdown_total(again) == result.normalized_tco


def test_every_operating_cost_has_its_arithmetic_and_inputs():
    assert set(DRIVERS) == {*OPEX_CATEGORIES, "residual"}
