"""Two TCOs of one cluster reconciled item by item; the differences add up exactly to
the difference of the totals (issue 22: 62.8 M as the plan scenario, 47.3 M as the bid
scenario, nothing reconciling them)."""

from decimal import Decimal

from tco.engine import compute, cost_breakdown, inputs_from_dict
from tco.engine.reconcile import reconcile
from tests.tco.conftest import HAND_INPUTS


def _side(overrides: dict):
    inputs = inputs_from_dict({**HAND_INPUTS, **overrides})
    return inputs, cost_breakdown(inputs, compute(inputs))


def test_each_item_names_the_inputs_that_differ_and_the_sum_is_exact():
    a, items_a = _side({})
    b, items_b = _side(
        {
            "capex": [
                {"category": "gpu_servers", "description": "bid", "amount": 900_000},
                {"category": "network", "description": "switch", "amount": 200_000},
                {"category": "storage", "description": "NVMe", "amount": 100_000},
            ],
            "staff_fte": 2,
            "electricity_price_per_kwh": 0.8,
        }
    )
    result = reconcile(a, items_a, b, items_b)
    rows = {(i.code, i.category): i for i in result.items}
    assert sum((i.difference for i in result.items), Decimal(0)) == result.difference
    assert result.difference == result.total_b - result.total_a
    gpu = rows[("capex", "gpu_servers")]
    assert gpu.difference == Decimal("-100000.00")
    assert [(d.name, d.value_a, d.value_b) for d in gpu.inputs] == [
        ("capex:gpu_servers", Decimal("1000000.00"), Decimal("900000.00"))
    ]
    assert rows[("capex", "network")].difference == 0
    assert rows[("capex", "network")].inputs == ()
    # Staff: 1 -> 2 FTE x 100,000/y x 3 y.
    staff = rows[("staff", "")]
    assert staff.difference == Decimal("300000.00")
    assert [(d.name, d.value_a, d.value_b) for d in staff.inputs] == [
        ("staff_fte", 1.0, 2.0)
    ]
    # Energy: 10 kW x 0.5 x 1.2 x 8,760 h x 3 y = 157,680 kWh x (0.8 - 1.0).
    energy = rows[("energy", "")]
    assert energy.difference == Decimal("-31536.00")
    assert [d.name for d in energy.inputs] == ["electricity_price_per_kwh"]
    # Failures are a share of the hardware capex, which fell by 100,000:
    # 100,000 x 5 % x 50 % x 3 y. (No support item: the 3-year warranty covers it.)
    failures = rows[("failures", "")]
    assert failures.difference == Decimal("-7500.00")
    assert [d.name for d in failures.inputs] == ["hardware_capex"]
    assert ("support", "") not in rows
    # The residual: -20 % of the hardware capex: 20,000 less deducted.
    residual = rows[("residual", "")]
    assert residual.difference == Decimal("20000.00")


def test_the_same_inputs_reconcile_to_zero_with_no_reasons():
    a, items_a = _side({})
    result = reconcile(a, items_a, a, items_a)
    assert result.difference == 0
    assert all(i.difference == 0 and i.inputs == () for i in result.items)
    assert result.to_dict()["difference"] == "0.00"
