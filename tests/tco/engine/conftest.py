"""A small scenario whose every figure is computed by hand in the tests."""

import pytest

from tco.engine import inputs_from_dict

HAND_CASE = {
    "horizon_years": 3,
    "currency": "CNY",
    "discount_rate": 0.10,
    "electricity_escalation": 0.0,
    "staff_escalation": 0.0,
    "capex": [
        {
            "category": "gpu_servers",
            "description": "1 x 8-GPU server",
            "amount": 1_000_000,
        },
        {"category": "network", "description": "switch + cables", "amount": 200_000},
        {"category": "storage", "description": "NVMe", "amount": 100_000},
        {"category": "facility", "description": "PDU + cooling", "amount": 50_000},
        {"category": "installation", "description": "", "amount": 30_000},
        {"category": "software_once", "description": "", "amount": 20_000},
    ],
    "gpu_count": 8,
    "it_power_kw": 10,
    "load_factor": 0.5,
    "pue": 1.2,
    "electricity_price_per_kwh": 1.0,
    "colocation_per_kw_month": 0,
    "support_rate": 0.10,
    "warranty_years": 2,
    "software_per_year": 12_000,
    "staff_fte": 0.5,
    "staff_cost_per_fte_year": 200_000,
    "annual_failure_rate": 0.05,
    "replacement_cost_share": 0.4,
    "residual_value_rate": 0.2,
    "utilization": 0.5,
    "cloud_on_demand_per_gpu_hour": 40,
    "cloud_reserved_per_gpu_hour": 20,
    "cloud_spot_per_gpu_hour": 15,
    "spot_overhead": 0.2,
    "hybrid_cloud_share": 0.25,
}


@pytest.fixture
def hand_data() -> dict:
    return {**HAND_CASE, "capex": [dict(line) for line in HAND_CASE["capex"]]}


@pytest.fixture
def hand_inputs(hand_data):
    return inputs_from_dict(hand_data)
