"""Timing of the sizing engine: one estimate, a full recommendation, the layout search.

Run: ``python benchmarks/bench_sizing.py``. ``run()`` returns (name, value, unit) rows.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sizing.engine import estimate, workload_from_dict  # noqa: E402
from sizing.engine.parallelism import search  # noqa: E402
from sizing.engine.platform import fabric_for, server_for  # noqa: E402
from sizing.engine.training import LayoutSearch  # noqa: E402
from sizing.reference_data import load_catalog  # noqa: E402


def _median_ms(fn: Callable[[], object], repeat: int) -> float:
    fn()  # warm caches (catalogue, parameter counts)
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1e3)
    return statistics.median(samples)


def run(repeat: int = 50) -> list[tuple[str, float, str]]:
    catalog = load_catalog()
    training = workload_from_dict(
        {
            "kind": "training",
            "model": {"preset": "llama-3.1-70b"},
            "tokens_b": 15000,
            "target_days": 60,
            "seq_len": 8192,
        },
        catalog,
    )
    inference = workload_from_dict(
        {
            "kind": "inference",
            "model": {"preset": "llama-2-70b"},
            "tokens_per_second": 5000,
            "ttft_ms": 2000,
            "tpot_ms": 50,
        },
        catalog,
    )
    moe_inference = workload_from_dict(
        {
            "kind": "inference",
            "model": {"preset": "deepseek-v3"},
            "context_tokens": 31744,
            "output_tokens": 1024,
            "concurrent_requests": 64,
        },
        catalog,
    )
    # GPUStack's burst: 1,000 ShareGPT-like requests at once, drained by the longest
    burst = workload_from_dict(
        {
            "kind": "inference",
            "model": {"preset": "deepseek-r1"},
            "precision": "fp8",
            "context_tokens": 219,
            "output_tokens": 201,
            "concurrent_requests": 1000,
            "gpu_count": 8,
            "arrival": "burst",
        },
        catalog,
    )
    acc = catalog.accelerators["h100-sxm-80gb"]
    meta_405b = workload_from_dict(
        {
            "kind": "training",
            "model": {"preset": "llama-3.1-405b"},
            "tokens_b": 15600,
            "gpu_count": 16384,
            "seq_len": 8192,
            "global_batch_tokens": 16 * 1024 * 1024,
        },
        catalog,
    )
    job = LayoutSearch(acc, fabric_for(acc, server_for(acc, catalog)), meta_405b).job(
        16384
    )

    def layout_search() -> object:
        return search(job)

    return [
        (
            "estimate_training_h100",
            _median_ms(lambda: estimate(training, catalog, "h100-sxm-80gb"), repeat),
            "ms",
        ),
        (
            "estimate_training_405b_16k",
            _median_ms(lambda: estimate(meta_405b, catalog, "h100-sxm-80gb"), repeat),
            "ms",
        ),
        (
            "estimate_inference_h100",
            _median_ms(lambda: estimate(inference, catalog, "h100-sxm-80gb"), repeat),
            "ms",
        ),
        (
            "estimate_inference_burst_deepseek_r1_h200",
            _median_ms(lambda: estimate(burst, catalog, "h200-sxm-141gb"), repeat),
            "ms",
        ),
        (
            "estimate_inference_deepseek_v3_h200",
            _median_ms(
                lambda: estimate(moe_inference, catalog, "h200-sxm-141gb"), repeat
            ),
            "ms",
        ),
        (
            "recommend_training_catalog",
            _median_ms(lambda: estimate(training, catalog), max(repeat // 5, 3)),
            "ms",
        ),
        (
            "recommend_inference_catalog",
            _median_ms(lambda: estimate(inference, catalog), max(repeat // 5, 3)),
            "ms",
        ),
        ("parallelism_search_405b_16k", _median_ms(layout_search, repeat), "ms"),
    ]


if __name__ == "__main__":
    for name, value, unit in run():
        print(f"{name:32s} {value:10.3f} {unit}")
