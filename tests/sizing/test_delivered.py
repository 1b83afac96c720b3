"""What an offer of N accelerators delivers for the planned workloads
(`sizing.services.delivered`)."""

import pytest

from sizing import services

# Llama 3.1 70B continued pre-training, 500 B tokens at 8k context in 65 days: the
# engine plans 96 x H200 SXM (12 HGX nodes) for it (sizing-2.2.0).
TRAIN_70B = {
    "name": "70B pre-training",
    "kind": "training",
    "model_preset": "llama-3.1-70b",
    "precision": "bf16",
    "seq_len": 8192,
    "tokens_b": 500,
    "target_days": 65,
}
SERVE_8B = {
    "name": "8B chat",
    "kind": "inference",
    "model_preset": "llama-3.1-8b",
    "context_tokens": 2048,
    "output_tokens": 256,
    "concurrent_requests": 64,
    "ttft_ms": 2000,
    "tpot_ms": 50,
}


@pytest.fixture
def h200_plan(db, procurement, it_lead):
    services.load_reference_catalog()
    procurement.region = "cn"  # the procurement's fact, not the questionnaire's
    procurement.save(update_fields=["region"])
    services.save_requirement(
        procurement=procurement,
        user=it_lead,
        accelerator_key="h200-sxm-141gb",
        data_tb=2.0,
    )
    services.create_workload(procurement=procurement, **TRAIN_70B)
    return services.compute_sizing_plan(procurement=procurement, user=it_lead)


def test_the_plan_itself_delivers_the_plans_days(procurement, h200_plan):
    assert h200_plan.result["gpu_count"] == 96
    plan_days = h200_plan.result["workloads"][0]["training"]["days"]
    delivered = services.delivered_capability(
        procurement=procurement, accelerator_key="h200-sxm-141gb", gpu_count=96
    )
    (workload,) = delivered["workloads"]
    assert workload["training_days"] == plan_days  # the same engine call, exactly
    assert workload["plan_training_days"] == plan_days
    assert workload["target_days"] == 65
    assert workload["fits"] is True
    # H200 SXM dense BF16 989 TFLOPS (NVIDIA H200 product page, sparse 1,979 / 2;
    # sizing/data/accelerators.csv): 96 x 989 = 94,944 TFLOPS.
    assert delivered["compute_pflops"] == pytest.approx(94.944)
    assert delivered["plan"] == {
        "accelerator": "h200-sxm-141gb",
        "gpu_count": 96,
        "compute_pflops": pytest.approx(94.944),
    }


def test_256_h20_deliver_about_37_percent_of_the_compute_and_a_longer_run(
    procurement, h200_plan
):
    delivered = services.delivered_capability(
        procurement=procurement, accelerator_key="h20-sxm-96gb", gpu_count=256
    )
    # HGX H20 dense BF16 148 TFLOPS (NVIDIA-provided reseller spec: Tom's Hardware /
    # TweakTown, Jan 2024; accelerators.csv): 256 x 148 = 37,888 TFLOPS, 39.9 % of
    # the plan's 94,944.
    assert delivered["compute_pflops"] == pytest.approx(37.888)
    assert delivered["compute_pflops"] / delivered["plan"]["compute_pflops"] == (
        pytest.approx(0.3991, abs=1e-4)
    )
    (workload,) = delivered["workloads"]
    assert workload["fits"] is True  # 96 GB x 256 holds a 70B training state
    plan_days = h200_plan.result["workloads"][0]["training"]["days"]
    # Days scale as FLOPs / (GPUs x peak x MFU x goodput): the H20's MFU is higher
    # (its memory-bound work is a smaller share next to 148 TFLOPS on 4 TB/s), so the
    # run takes ~2.3x the plan's, not 1 / 0.399 = 2.5x.
    assert workload["training_days"] > 65 * 1.5
    assert workload["training_days"] / plan_days == pytest.approx(2.314, abs=0.01)


def test_too_few_gpus_do_not_fit_the_model(procurement, h200_plan):
    delivered = services.delivered_capability(
        procurement=procurement, accelerator_key="h20-sxm-96gb", gpu_count=8
    )
    (workload,) = delivered["workloads"]
    # 70B with AdamW needs ~16 bytes per parameter of model state (~1.1 TB) before
    # activations: 8 x 96 GB = 768 GB cannot hold it with any layout.
    assert workload["fits"] is False


def test_unknown_accelerator_and_no_plan(procurement, h200_plan, other_procurement):
    delivered = services.delivered_capability(
        procurement=procurement, accelerator_key="nope", gpu_count=8
    )
    assert delivered["error"] and delivered["workloads"] == []
    assert (
        services.delivered_capability(
            procurement=other_procurement, accelerator_key="h20-sxm-96gb", gpu_count=8
        )
        is None
    )


def test_serving_capacity_at_the_latency_targets_and_the_plans_split(
    procurement, it_lead, h200_plan
):
    services.create_workload(procurement=procurement, **SERVE_8B)
    plan = services.compute_sizing_plan(procurement=procurement, user=it_lead)
    train_gpus, serve_gpus = (w["gpu_count"] for w in plan.result["workloads"])
    total = plan.result["gpu_count"]
    assert total == train_gpus + serve_gpus  # partitioned
    delivered = services.delivered_capability(
        procurement=procurement, accelerator_key="h200-sxm-141gb", gpu_count=total
    )
    training, serving = delivered["workloads"]
    assert (training["gpu_count"], serving["gpu_count"]) == (train_gpus, serve_gpus)
    planned = plan.result["workloads"][1]["inference"]
    assert serving["tokens_per_second"] == pytest.approx(planned["tokens_per_second"])
    assert serving["meets_latency"] is True
    assert serving["concurrent_requests"] >= 64
    assert serving["required_concurrent_requests"] == 64
