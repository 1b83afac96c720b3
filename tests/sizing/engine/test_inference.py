import csv
from pathlib import Path

import pytest

from sizing.engine import estimate
from sizing.engine.serving_latency import LAYER_OVERHEAD_S
from sizing.engine.serving_needs import ETA_COMPUTE, ETA_MEM


def test_decode_of_one_request_is_bound_by_reading_the_weights(catalog, make):
    w = make(
        kind="inference",
        model={"preset": "llama-3-8b"},
        context_tokens=1024,
        output_tokens=128,
        concurrent_requests=1,
    )
    r = estimate(w, catalog, "h100-sxm-80gb")
    # Streamed per step: every weight but the embedding table (a lookup): (8,030,261,248
    # - 128,256 x 4,096) x 2 B = 15.01 GB; KV read (1024 + 64) x 131,072 B = 0.143 GB
    # step = 15.152 GB / (3.35 TB/s x 0.7) = 6.461 ms (compute 2 x 7.5e9 FLOPs: 0.03 ms)
    # + 32 layers x the per-layer fixed overhead (40 us: 1.28 ms);
    # TPOT adds the batch's prefill spread over its 128 output tokens
    streamed = 8_030_261_248 - 128_256 * 4_096
    step_s = (streamed * 2 + 1088 * 131_072) / (3.35e12 * ETA_MEM)
    step_s += 32 * LAYER_OVERHEAD_S
    prefill_s = (2 * streamed * 1024 + 2 * 32 * 1024**2 * 4096) / (989e12 * ETA_COMPUTE)
    assert r.inference["tpot_ms"] == pytest.approx((step_s + prefill_s / 128) * 1e3)
    assert r.inference["ttft_ms"] == pytest.approx((prefill_s + step_s) * 1e3)
    assert r.parallelism["tensor"] == 1


def test_model_too_big_for_one_gpu_gets_tensor_parallelism(catalog, make):
    w = make(kind="inference", model={"preset": "llama-2-70b"}, concurrent_requests=4)
    r = estimate(w, catalog, "h100-sxm-80gb")
    # 137.95 GB of bf16 weights cannot fit 0.9 x 81,559 MiB = 76.97 GB: at least TP 2,
    # then fits within that budget
    assert r.parallelism["tensor"] >= 2
    assert r.memory["per_gpu_gb"] <= 0.9 * 81_559 * 2**20 / 1e9


def test_kv_cache_for_the_concurrency_is_counted(catalog, make):
    w = make(
        kind="inference",
        model={"preset": "llama-2-70b"},
        context_tokens=3000,
        output_tokens=1000,
        concurrent_requests=16,
    )
    r = estimate(w, catalog, "h200-sxm-141gb")
    t = r.parallelism["tensor"]
    batch = r.inference["batch_per_replica"]
    # 327,680 B/token x 4,000 tokens x batch / min(t, 8) KV heads
    assert r.memory["kv_cache_gb"] == pytest.approx(
        327_680 * 4000 * batch / min(t, 8) / 1e9
    )


def test_more_load_needs_more_gpus_at_the_same_latency(catalog, make):
    def gpus(tps):
        w = make(
            kind="inference",
            model={"preset": "llama-3-8b"},
            tokens_per_second=tps,
            ttft_ms=1000,
            tpot_ms=50,
        )
        return estimate(w, catalog, "h100-sxm-80gb").gpu_count

    assert gpus(1000) <= gpus(20000) <= gpus(100000)
    assert gpus(100000) > gpus(1000)


def test_unreachable_latency_is_reported_as_a_bottleneck(catalog, make):
    w = make(
        kind="inference",
        model={"preset": "llama-2-70b"},
        concurrent_requests=1,
        tpot_ms=0.5,
    )
    r = estimate(w, catalog, "h100-sxm-80gb")
    assert "latency_target_unmet" in {b.code for b in r.bottlenecks}


@pytest.mark.parametrize(
    ("key", "mib", "source"),
    [
        # nvidia-smi "GPU memory 46068 MiB" on an L20 48GB (public environment log)
        ("l20-pcie-48gb", 46_068, "nvidia-smi"),
        # nvidia-smi "0MiB / 189471MiB" on GB200 NVL72 trays (public transcripts)
        ("gb200-nvl-186gb", 189_471, "nvidia-smi"),
        # npu-smi "HBM-Usage(MB) 3318 / 65536" on Ascend 910B3 (public transcripts)
        ("ascend910b-oam-64gb", 65_536, "npu-smi"),
    ],
)
def test_the_serving_budget_starts_from_the_reported_memory(catalog, key, mib, source):
    acc = catalog.accelerators[key]
    assert acc.reported_memory_mib == mib
    rows = csv.DictReader((ROOT / "sizing/data/accelerators.csv").open())
    assert source in next(r for r in rows if r["key"] == key)["reported_memory_source"]
    # the capacity a serving engine takes its fraction of: MiB x 2^20 bytes
    assert acc.memory_capacity_bytes == mib * 2**20


ROOT = Path(__file__).resolve().parents[3]
