import pytest

from tco.engine import compute, sensitivity


def rows_by_name(inputs, ranges=None):
    return {r["parameter"]: r for r in sensitivity(inputs, ranges)}


#: Useful GPU-hours of the hand case: 8 GPUs x 8,760 h x 0.5 x 3 years.
USEFUL_HOURS = 8 * 8760 * 0.5 * 3


def test_every_row_moves_the_one_output_cost_per_gpu_hour(hand_inputs):
    rows = sensitivity(hand_inputs)
    assert {r["metric"] for r in rows} == {"cost_per_gpu_hour"}
    base = compute(hand_inputs).cost_per_gpu_hour
    assert all(r["base_value"] == pytest.approx(base, abs=0.01) for r in rows)


def test_inputs_that_do_not_move_it_show_no_swing_and_sort_last(hand_inputs):
    rows = sensitivity(hand_inputs)
    assert [r["parameter"] for r in rows[-2:]] == ["cloud_price", "discount_rate"]
    assert rows[-1]["swing"] == rows[-2]["swing"] == 0


def test_signs(hand_inputs):
    rows = rows_by_name(hand_inputs)
    for name in (
        "electricity_price_per_kwh",
        "pue",
        "gpu_server_price",
        "support_rate",
    ):
        assert rows[name]["low_change"] < 0 < rows[name]["high_change"]
    for name in ("residual_value_rate", "utilization"):
        assert rows[name]["high_change"] < 0 < rows[name]["low_change"]


def test_electricity_swing_is_plus_minus_20_percent_of_energy(hand_inputs):
    # energy over 3 years = 3 x 52,560 = 157,680; +/-20 % = +/-31,536 over
    # 105,120 useful GPU-hours = +/-0.30 per GPU-hour
    row = rows_by_name(hand_inputs)["electricity_price_per_kwh"]
    assert row["low_change"] == pytest.approx(-0.30, abs=0.006)
    assert row["high_change"] == pytest.approx(0.30, abs=0.006)
    assert (row["low_input"], row["high_input"]) == pytest.approx((0.8, 1.2))


def test_gpu_server_price_also_moves_support_failures_and_residual(hand_inputs):
    # +15 % of 1,000,000 = +150,000 capex; support yr 3 +15,000; failures
    # 150,000 x 0.05 x 0.4 x 3 = +9,000; residual -30,000 -> +144,000 / 105,120 h
    row = rows_by_name(hand_inputs)["gpu_server_price"]
    assert row["high_change"] == pytest.approx(144_000 / USEFUL_HOURS, abs=0.006)


def test_pue_range_is_published_spread_within_the_physical_floor(hand_data):
    from tco.engine import inputs_from_dict

    # PUE 1.2: low 1.2 - 0.15 = 1.05 (the floor; Google fleet ~1.10), high 1.46.
    rows = rows_by_name(inputs_from_dict(hand_data))
    assert (rows["pue"]["low_input"], rows["pue"]["high_input"]) == pytest.approx(
        (1.05, 1.46)
    )
    # PUE 1.1: 0.95 would be below any real data centre: clipped to 1.05.
    rows = rows_by_name(inputs_from_dict(hand_data | {"pue": 1.1}))
    assert rows["pue"]["low_input"] == pytest.approx(1.05)


def test_user_range_and_clipping(hand_data):
    from tco.engine import inputs_from_dict

    inputs = inputs_from_dict(hand_data | {"pue": 1.1, "utilization": 0.95})
    rows = rows_by_name(inputs, {"pue": {"low": 1.05, "high": 1.6}})
    assert (rows["pue"]["low_input"], rows["pue"]["high_input"]) == (1.05, 1.6)
    assert rows["utilization"]["high_input"] == 1.0  # 0.95 x 1.2 clipped to 1
    base = compute(inputs).cost_per_gpu_hour
    assert rows["pue"]["base_value"] == pytest.approx(base, abs=0.01)


def test_rows_sorted_by_relative_swing(hand_inputs):
    swings = [r["swing_pct"] for r in sensitivity(hand_inputs)]
    assert swings == sorted(swings, reverse=True)


def test_bad_range_names_its_field(hand_inputs):
    from tco.engine import TcoInputError

    with pytest.raises(TcoInputError) as err:
        sensitivity(hand_inputs, {"pue": {"low": 1.0, "high": 1.4}})
    assert err.value.field == "ranges.pue"
    with pytest.raises(TcoInputError) as err:
        sensitivity(hand_inputs, {"moon_phase": (0, 1)})
    assert err.value.field == "ranges.moon_phase"
