import pytest

from tco.engine import compute, sensitivity


def rows_by_name(inputs, ranges=None):
    return {r["parameter"]: r for r in sensitivity(inputs, ranges)}


def test_covers_required_parameters_with_their_metric(hand_inputs):
    rows = rows_by_name(hand_inputs)
    expected = {
        "electricity_price_per_kwh": "total_cost",
        "pue": "total_cost",
        "utilization": "cost_per_gpu_hour",
        "gpu_server_price": "total_cost",
        "support_rate": "total_cost",
        "discount_rate": "npv_cost",
        "cloud_price": "cloud_reserved_total",
    }
    for name, metric in expected.items():
        assert rows[name]["metric"] == metric


def test_signs(hand_inputs):
    rows = rows_by_name(hand_inputs)
    for name in (
        "electricity_price_per_kwh",
        "pue",
        "gpu_server_price",
        "support_rate",
    ):
        assert rows[name]["low_change"] < 0 < rows[name]["high_change"]
    for name in ("residual_value_rate", "discount_rate", "utilization"):
        assert rows[name]["high_change"] < 0 < rows[name]["low_change"]
    assert rows["cloud_price"]["high_change"] > 0


def test_electricity_swing_is_plus_minus_20_percent_of_energy(hand_inputs):
    # energy over 3 years = 3 x 52,560 = 157,680; +/-20 % = +/-31,536
    row = rows_by_name(hand_inputs)["electricity_price_per_kwh"]
    assert row["low_change"] == pytest.approx(-31_536)
    assert row["high_change"] == pytest.approx(31_536)
    assert row["swing"] == pytest.approx(63_072)
    assert (row["low_input"], row["high_input"]) == pytest.approx((0.8, 1.2))


def test_gpu_server_price_also_moves_support_failures_and_residual(hand_inputs):
    # +20 % of 1,000,000 = +200,000 capex; support yr 3 +20,000; failures
    # 200,000 x 0.05 x 0.4 x 3 = +12,000; residual -40,000  ->  +192,000
    row = rows_by_name(hand_inputs)["gpu_server_price"]
    assert row["high_change"] == pytest.approx(192_000)


def test_user_range_and_clipping(hand_data):
    from tco.engine import inputs_from_dict

    inputs = inputs_from_dict(hand_data | {"pue": 1.1, "utilization": 0.95})
    rows = rows_by_name(inputs, {"pue": {"low": 1.05, "high": 1.6}})
    assert (rows["pue"]["low_input"], rows["pue"]["high_input"]) == (1.05, 1.6)
    assert rows["utilization"]["high_input"] == 1.0  # 0.95 x 1.2 clipped to 1
    base = compute(inputs).total_cost
    assert rows["pue"]["base_value"] == pytest.approx(base, abs=0.01)


def test_rows_sorted_by_relative_swing(hand_inputs):
    swings = [r["swing_pct"] for r in sensitivity(hand_inputs)]
    assert swings == sorted(swings, reverse=True)


def test_bad_range_names_its_field(hand_inputs):
    from tco.engine import TcoInputError

    with pytest.raises(TcoInputError) as err:
        sensitivity(hand_inputs, {"pue": {"low": 0.5, "high": 1.4}})
    assert err.value.field == "ranges.pue"
    with pytest.raises(TcoInputError) as err:
        sensitivity(hand_inputs, {"moon_phase": (0, 1)})
    assert err.value.field == "ranges.moon_phase"
