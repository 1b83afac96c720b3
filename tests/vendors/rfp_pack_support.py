"""The demo-like plan the RFP tests share: Llama 3.1 70B pre-training, 500 B tokens
in 65 days, pinned to H200 SXM; the engine plans 96 GPUs in 12 DGX H200 nodes (sizing-2.2.0)."""

import pytest

from sizing import services as sizing_services
from tests.vendors.test_delivered import TRAIN_70B


@pytest.fixture
def rfp_plan(db, procurement, it_lead):
    sizing_services.load_reference_catalog()
    procurement.region = "cn"
    procurement.city = "杭州"
    procurement.save(update_fields=["region", "city"])
    sizing_services.save_requirement(
        procurement=procurement,
        user=it_lead,
        accelerator_key="h200-sxm-141gb",
        data_tb=2.0,
        growth_per_year=30,
        rack_power_limit_kw=40,
    )
    sizing_services.create_workload(procurement=procurement, **TRAIN_70B)
    plan = sizing_services.compute_sizing_plan(procurement=procurement, user=it_lead)
    assert plan.result["gpu_count"] == 96
    return plan
