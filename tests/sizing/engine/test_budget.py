"""The one budget rule and the cluster's cost it is applied to on the plan."""

from decimal import Decimal

import pytest

from sizing.engine.budget import check_budget, cluster_cost_usd


def test_an_amount_above_the_ceiling_is_over_with_its_variance_and_share():
    check = check_budget(Decimal("40300000"), Decimal("32000000"), "CNY")
    assert check.over is True
    assert check.variance == Decimal("8300000.00")
    assert check.share_pct == Decimal("125.9")  # 40.3 / 32 = 1.259375
    assert check.as_dict() == {
        "amount": "40300000.00",
        "ceiling": "32000000.00",
        "currency": "CNY",
        "variance": "8300000.00",
        "share_pct": "125.9",
        "over_budget": True,
    }


def test_an_amount_at_the_ceiling_is_within_budget():
    check = check_budget(Decimal("32000000.004"), Decimal("32000000"), "CNY")
    assert check.over is False
    assert check.variance == Decimal("0.00")


@pytest.mark.parametrize(
    ("amount", "ceiling"),
    [(None, Decimal(1)), (Decimal(1), None), (Decimal(1), Decimal(0))],
)
def test_no_check_without_an_amount_or_a_positive_ceiling(amount, ceiling):
    assert check_budget(amount, ceiling, "CNY") is None


def _workload(gpus: int, energy_usd: float, price: float | None = 25_000.0) -> dict:
    capex = None if price is None else gpus * price
    return {"gpu_count": gpus, "cost": {"capex_usd": capex, "energy_usd": energy_usd}}


def test_the_cluster_cost_of_partitioned_workloads_is_their_sum():
    plan = {"gpu_count": 48, "workloads": [_workload(32, 300.0), _workload(16, 100.0)]}
    # 48 GPUs x 25,000 + (300 + 100) energy
    assert cluster_cost_usd(plan) == 1_200_400.0


def test_time_shared_gpus_scale_the_energy_down_to_the_shared_cluster():
    plan = {"gpu_count": 32, "workloads": [_workload(32, 300.0), _workload(16, 100.0)]}
    # 32 x 25,000 + 400 x 32 / 48
    assert cluster_cost_usd(plan) == pytest.approx(800_000 + 400 * 32 / 48)


def test_no_cluster_cost_without_a_price():
    assert (
        cluster_cost_usd({"gpu_count": 8, "workloads": [_workload(8, 1.0, None)]})
        is None
    )
