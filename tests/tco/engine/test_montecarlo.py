import time

import numpy as np
import pytest

from tco.engine import PARAMETERS, compute, inputs_from_dict, monte_carlo
from tco.engine.montecarlo import _total_opex
from tco.engine.uncertainty import base_value


def test_seeded_and_reproducible(hand_inputs):
    a = monte_carlo(hand_inputs, draws=2_000, seed=7)
    b = monte_carlo(hand_inputs, draws=2_000, seed=7)
    c = monte_carlo(hand_inputs, draws=2_000, seed=8)
    assert a == b
    assert a["total_cost"] != c["total_cost"]


def test_p50_near_deterministic_total_for_symmetric_ranges(hand_inputs):
    mc = monte_carlo(hand_inputs)
    det = compute(hand_inputs).total_cost
    assert mc["deterministic_total"] == pytest.approx(det, abs=0.01)
    assert mc["total_cost"]["p50"] == pytest.approx(det, rel=0.01)
    assert mc["total_cost"]["p10"] < mc["total_cost"]["p50"] < mc["total_cost"]["p90"]
    assert sum(mc["histogram"]["counts"]) == 10_000
    assert len(mc["histogram"]["bin_edges"]) == len(mc["histogram"]["counts"]) + 1


def test_degenerate_ranges_reproduce_the_deterministic_model(hand_inputs):
    ranges = {
        name: {
            "low": base_value(hand_inputs, name),
            "high": base_value(hand_inputs, name),
        }
        for name in PARAMETERS
    }
    mc = monte_carlo(hand_inputs, draws=50, ranges=ranges)
    result = compute(hand_inputs)
    for key in ("p10", "p50", "p90"):
        assert mc["total_cost"][key] == pytest.approx(result.total_cost, abs=0.01)
        assert mc["npv_cost"][key] == pytest.approx(result.npv_cost, abs=0.01)
        for option, month in result.break_even_month.items():
            assert mc["break_even_month"][option][key] == month
        assert mc["cloud_total"]["reserved"][key] == pytest.approx(2_102_400)


def test_never_breaking_even_is_reported(hand_data):
    inputs = inputs_from_dict(hand_data | {"cloud_spot_per_gpu_hour": 1.0})
    spot = monte_carlo(inputs, draws=500)["break_even_month"]["spot"]
    assert spot["p50"] is None
    assert spot["never_share"] == 1.0


def test_ten_thousand_draws_by_sixty_months_is_fast():
    inputs = inputs_from_dict(
        {
            "capex": [{"category": "gpu_servers", "amount": 17_600_000}],
            "horizon_years": 5,
        }
    )
    monte_carlo(inputs, draws=100)
    start = time.perf_counter()
    mc = monte_carlo(inputs, draws=10_000)
    assert time.perf_counter() - start < 1.0
    assert mc["draws"] == 10_000


def test_opex_the_same_for_every_draw_is_added_to_each_draw():
    by_month = np.array([0.0, 1.0, 2.0])  # one value a month, no draws
    per_draw = np.broadcast_to(np.array([[10.0], [20.0]]), (2, 3))  # flat per draw
    total = _total_opex({"staff": by_month, "failures": per_draw}, (2, 3))
    assert total.tolist() == [[10.0, 11.0, 12.0], [20.0, 21.0, 22.0]]
