"""Latency at concurrency (issue 21, item 4): per-layer overhead, chunked-prefill
interference, queueing, and the load split over the replicas of a GPU count given."""

import math
import random
import statistics

import pytest

from sizing.engine import estimate
from sizing.engine.platform import fabric_for, server_for
from sizing.engine.serving_cost import LayoutCost
from sizing.engine.serving_latency import (
    KERNEL_FLOOR_S,
    LAYER_OVERHEAD_S,
    burst_makespan_s,
    burst_prefill_tokens,
    drain_s,
    expected_longest,
    layer_overhead_s,
    mean_wave,
    prefill_chunks,
    queue_wait_s,
    ttft_at_batch_s,
)
from sizing.engine.serving_layout import ServingLayout
from sizing.engine.serving_needs import device_rates, serving_needs
from sizing.engine.sized_workload import size_workload

# vLLM CI "Latency tests" (benchmarks/benchmark_latency.py): input 32 tokens, output
# 128, fixed batch 8, BF16, end-to-end latency of the batch, H200.
# https://buildkite.com/vllm/performance-benchmark/builds/9515
VLLM_CI_LATENCY = [
    # (preset, GPUs = TP, published mean end-to-end ms, row)
    ("llama-3.1-8b", 1, 833.42, "latency_llama8B_tp1 H200"),
    ("llama-3-70b", 4, 2077.53, "latency_llama70B_tp4 H200"),
]


# TensorRT-LLM v0.5's static batch: GPT-J 6B (config.json), FP8 on one H100, 64 prompts
# of 128 tokens, 128 out (docs/source/blogs/H100vsA100.md)
GPTJ_STATIC_BATCH = dict(
    model=dict(
        layers=28, hidden_size=4096, attention_heads=16, kv_heads=16, head_dim=256,
        ffn_hidden_size=16384, vocab_size=50400, gated_ffn=False, params_b=6.05,
    ),
    precision="fp8",
    context_tokens=128,
    output_tokens=128,
    concurrent_requests=64,
    gpu_count=1,
)  # fmt: skip


def _serve(catalog, make, accelerator, **body):
    w = make(kind="inference", **body)
    return size_workload(w, catalog.accelerators[accelerator], catalog).inference


@pytest.mark.parametrize(("preset", "gpus", "published_ms", "row"), VLLM_CI_LATENCY)
def test_end_to_end_latency_at_batch_8_is_within_20_percent_of_vllm_ci(
    catalog, make, preset, gpus, published_ms, row
):
    plan = _serve(
        catalog,
        make,
        "h200-sxm-141gb",
        model={"preset": preset},
        context_tokens=32,
        output_tokens=128,
        concurrent_requests=8,
        gpu_count=gpus,
    )
    assert plan.batch_per_replica == 8
    predicted_ms = (plan.ttft_s + 127 * plan.tpot_s) * 1e3
    # engine at this commit: 748 ms (8B), 1,871 ms (70B TP4), both -10 %; without the
    # per-layer overhead both were -30 % (585 ms, 1,465 ms)
    assert predicted_ms == pytest.approx(published_ms, rel=0.20), row
    without_ms = predicted_ms - 128 * LAYER_OVERHEAD_S * {1: 32, 4: 80}[gpus] * 1e3
    assert without_ms < 0.75 * published_ms


def test_the_decode_step_carries_a_fixed_overhead_per_layer(catalog, make):
    body = {"model": {"preset": "llama-3.1-8b"}, "context_tokens": 32}
    one = _serve(catalog, make, "h200-sxm-141gb", **body, concurrent_requests=1)
    # 32 layers x 40 us = 1.28 ms of a batch-1 step that reads 15 GB at 3.36 TB/s
    assert one.decode_step_s > 32 * LAYER_OVERHEAD_S
    assert 32 * LAYER_OVERHEAD_S == pytest.approx(1.28e-3)


def test_queue_wait_is_m_d_1():
    # rho = 2 /s x 0.25 s = 0.5: wait = 0.5 / (2 x 0.5) x 0.4 s = 0.2 s
    assert queue_wait_s(2.0, 0.25, 0.4) == pytest.approx(0.2)
    assert queue_wait_s(4.0, 0.25, 0.4) == math.inf  # rho = 1: the queue never drains


def test_a_long_prompt_shares_one_decode_step_per_chunk():
    assert prefill_chunks(32_768, 8_192) == 4
    assert prefill_chunks(100, 8_192) == 1
    # alone (batch 1): no queue, prefill 1 s + 4 chunks x 20 ms
    alone = ttft_at_batch_s(
        prefill_s=1.0,
        prefill_work_s=0.1,
        decode_step_s=0.02,
        chunks=4,
        batch=1,
        request_s=30.0,
    )
    assert alone == pytest.approx(1.08)
    # batch 60 turning over every 30 s: 2 arrivals/s, rho = 0.2, wait 0.2/1.6 x 1 s
    loaded = ttft_at_batch_s(
        prefill_s=1.0,
        prefill_work_s=0.1,
        decode_step_s=0.02,
        chunks=4,
        batch=60,
        request_s=30.0,
    )
    assert loaded == pytest.approx(1.08 + 0.125)


def test_ttft_grows_with_the_requests_running(catalog, make):
    body = {
        "model": {"preset": "llama-3.1-8b"},
        "context_tokens": 16_384,
        "output_tokens": 256,
        "gpu_count": 1,
    }
    few = _serve(catalog, make, "h200-sxm-141gb", **body, concurrent_requests=2)
    many = _serve(catalog, make, "h200-sxm-141gb", **body, concurrent_requests=32)
    assert many.batch_per_replica == 32
    assert many.ttft_s > few.ttft_s + 0.1  # queueing + 2 chunks of a larger step


@pytest.mark.parametrize("gpus", [16, 64])
def test_the_concurrency_is_split_over_the_replicas_of_a_gpu_count(catalog, make, gpus):
    # 64 requests on replicas of the chosen layout: each carries 64 / replicas, and
    # its latency is that of one replica alone at that share (not at 64)
    body = {
        "model": {"preset": "llama-3.1-8b"},
        "context_tokens": 2048,
        "output_tokens": 256,
    }
    plan = _serve(
        catalog, make, "h100-sxm-80gb", **body, gpu_count=gpus, concurrent_requests=64
    )
    assert plan.replicas > 1
    assert plan.concurrency_per_replica == math.ceil(64 / plan.replicas)
    assert plan.batch_per_replica == plan.concurrency_per_replica
    alone = _serve(
        catalog,
        make,
        "h100-sxm-80gb",
        **body,
        gpu_count=plan.gpus // plan.replicas,
        concurrent_requests=plan.concurrency_per_replica,
    )
    assert (alone.tensor, alone.pipeline) == (plan.tensor, plan.pipeline)
    assert plan.tpot_s == pytest.approx(alone.tpot_s)
    assert plan.meets_load


def test_a_gpu_count_given_is_kept_and_the_count_needed_is_said(catalog, make):
    # issue 21 item 8: Qwen3-235B-A22B on 32 H20 for 200 interactive users (2 s / 50 ms)
    body = {
        "model": {"preset": "qwen3-235b-a22b"},
        "context_tokens": 32_768,
        "output_tokens": 1024,
        "concurrent_requests": 200,
        "ttft_ms": 2000,
        "tpot_ms": 50,
    }
    given = _serve(catalog, make, "h20-sxm-96gb", **body, gpu_count=32)
    free = _serve(catalog, make, "h20-sxm-96gb", **body)
    assert given.gpus == 32
    assert not given.meets_load
    assert given.concurrency_per_replica * given.replicas >= 200
    assert free.meets_load
    assert given.gpus_needed == free.gpus > 32


def test_a_burst_waits_for_the_prompts_prefilled_with_and_before_it():
    # one request: its own prompt only
    assert burst_prefill_tokens(1, 5000, 8192) == 5000
    # 64 x 128 tokens fit one 8,192-token step: every request waits for all of them
    assert burst_prefill_tokens(64, 128, 8192) == 8192
    # 2 x 5000: (3 x 5000) / 2 + 4096 x 1 / 2 = 7500 + 2048 = 9548 (< 10,000)
    assert burst_prefill_tokens(2, 5000, 8192) == pytest.approx(9548)


def test_requests_beyond_the_batch_wait_in_waves():
    # 10 requests, 4 at a time: waves 0,0,0,0,1,1,1,1,2,2 -> 8 / 10
    assert mean_wave(10, 4) == pytest.approx(0.8)
    assert mean_wave(4, 4) == 0.0
    assert mean_wave(8, 4) == pytest.approx(0.5)


def test_a_static_batch_gets_its_first_tokens_after_the_whole_prefill(catalog, make):
    """TensorRT-LLM v0.5 on one H100, FP8, GPT-J 6B, a static batch of 64 prompts of
    128 tokens: first token 102 ms (docs/source/blogs/H100vsA100.md at 15ed780, "Max
    Throughput & Min Latency"; a calibration row of the first blind set). The 64
    prompts fill one 8,192-token prefill step, so each waits for all of them; the
    steady model waited for its own prompt only (7.7 ms)."""
    steady = _serve(catalog, make, "h100-sxm-80gb", **GPTJ_STATIC_BATCH)
    burst = _serve(catalog, make, "h100-sxm-80gb", arrival="burst", **GPTJ_STATIC_BATCH)
    assert burst.batch_per_replica == steady.batch_per_replica == 64
    assert burst.ttft_s * 1e3 == pytest.approx(102, rel=0.15)
    assert steady.ttft_s * 1e3 < 20
    # the prompts behind a request interleave into its decode: (64 - 1) / 2 of them
    assert burst.tpot_s < steady.tpot_s


def test_one_request_on_two_gpus_runs_on_one_tensor_parallel_replica(catalog, make):
    """NIM 1.8.0, Llama-3.3-70B FP8 on 2 x H100 (TP2 profile), 500 in / 2000 out,
    concurrency 1: ITL 18.91 ms (docs.nvidia.com/nim/benchmarking/llm/1.0.0/
    performance.md). Two replicas of one GPU would leave one idle and take twice the
    time per token; the count given is laid out for the shortest request."""
    plan = _serve(
        catalog,
        make,
        "h100-sxm-80gb",
        model={"preset": "llama-3.1-70b"},
        precision="fp8",
        context_tokens=500,
        output_tokens=2000,
        concurrent_requests=1,
        gpu_count=2,
    )
    assert (plan.replicas, plan.tensor) == (1, 2)
    assert plan.tpot_s * 1e3 == pytest.approx(18.91, rel=0.15)
    # the delivered rate is one request's: 1 / TPOT roughly, not 2 / TPOT
    assert plan.tokens_per_second < 1.05 / plan.tpot_s


def test_a_count_a_concurrency_and_a_rate_together_keep_each_replica_at_its_share(
    catalog, make
):
    """8 GPUs, 8 concurrent requests and 2,000 tokens/s: a replica runs at most its
    share of the requests (it was sized at 375 and its rate divided by that batch's
    turnover, 85 tokens/s with a false "below target")."""
    w = make(
        kind="inference",
        model={"preset": "llama-3.1-8b"},
        precision="bf16",
        context_tokens=1000,
        output_tokens=200,
        gpu_count=8,
        concurrent_requests=8,
        tokens_per_second=2000,
    )
    r = estimate(w, catalog, "h100-sxm-80gb")
    plan = r.inference
    assert plan["batch_per_replica"] <= plan["concurrency_per_replica"]
    assert plan["tokens_per_second"] >= 2000
    assert "throughput_below_target" not in {b.code for b in r.bottlenecks}


def test_the_waves_of_a_burst_count_against_the_ttft_target(catalog, make):
    """400 prompts of 8,000 tokens at once on one H100: the replica holds fewer, the
    rest wait for waves, and the TTFT shown (waves included) is the one judged."""
    plan = _serve(
        catalog,
        make,
        "h100-sxm-80gb",
        model={"preset": "llama-3.1-8b"},
        context_tokens=8000,
        output_tokens=500,
        concurrent_requests=400,
        gpu_count=1,
        arrival="burst",
        ttft_ms=20_000,
        tpot_ms=200,
    )
    assert plan.batch_per_replica < 400
    assert plan.ttft_s * 1e3 > 20_000
    assert not plan.meets_latency


def test_a_burst_that_fits_one_prefill_step_decodes_without_prefill_interference(
    catalog, make
):
    """64 x 128 tokens are one 8,192-token step: every prompt is prefilled before any
    token is decoded, so TPOT is the decode step alone (the TTFT already waited for
    all 64 prompts)."""
    plan = _serve(catalog, make, "h100-sxm-80gb", arrival="burst", **GPTJ_STATIC_BATCH)
    assert plan.tpot_s == pytest.approx(plan.decode_step_s)


def test_a_lone_short_prompt_reads_its_weights_once(catalog, make):
    """Steady arrivals, one request of 32 tokens: its prefill rides one step with the
    decode step that reads the weights; the weights are not read again in a floor."""
    plan = _serve(
        catalog,
        make,
        "h200-sxm-141gb",
        model={"preset": "llama-3.1-8b"},
        context_tokens=32,
        output_tokens=128,
        concurrent_requests=1,
    )
    assert plan.ttft_s == pytest.approx(plan.prefill_s + plan.decode_step_s)
    assert plan.prefill_s < 0.5 * plan.decode_step_s  # 32 tokens of compute


def test_the_drain_of_a_burst_at_a_constant_step_is_the_longest_output():
    # the expected maximum of 1,000 exponential lengths: H_1000 = ln 1000 + 0.5772 +
    # 1 / 2000 = 7.48547 means; at 20 ms a step and a mean of 200 tokens the last
    # request ends after 200 x 7.48547 x 0.02 = 29.942 s
    assert expected_longest(1000) == pytest.approx(7.48547, abs=1e-5)
    assert drain_s(lambda b: 0.02, 1000, 200) == pytest.approx(29.942, abs=1e-3)
    # 1,500 requests on a batch of 1,000: 1.5 s of prefill work, 500 completions at
    # 1,000 / (200 x 0.02) per second = 2 s, then the drain
    span = burst_makespan_s(
        requests=1500,
        batch=1000,
        mean_output=200,
        step_s=lambda b: 0.02,
        prefill_work_s=0.001,
    )
    assert span == pytest.approx(1.5 + 2.0 + 29.942, abs=1e-3)


def test_the_drain_agrees_with_a_simulated_burst():
    # 200 requests, exponential outputs of mean 60, a step of 2 ms + 20 us per running
    # request: the mean of 300 simulated makespans (each step at the requests still
    # running) against the integral
    def step(batch):
        return 2e-3 + 20e-6 * batch

    rng = random.Random(21)
    spans = []
    for _ in range(300):
        lengths = sorted(math.ceil(rng.expovariate(1 / 60)) for _ in range(200))
        total, running, i = 0.0, 200, 0
        for s in range(1, lengths[-1] + 1):
            total += step(running)
            while i < len(lengths) and lengths[i] <= s:
                i, running = i + 1, running - 1
        spans.append(total)
    assert drain_s(step, 200, 60) == pytest.approx(statistics.mean(spans), rel=0.05)


def test_moe_layers_add_their_kernels_to_the_step_overhead():
    # 94 layers, all MoE: 94 x 40 us + 94 x 5 x 40 / 12 us = 3.76 + 1.5667 ms
    assert KERNEL_FLOOR_S == pytest.approx(40e-6 / 12)
    assert layer_overhead_s(94, 94) == pytest.approx(3.76e-3 + 94 * 5 * 40e-6 / 12)
    assert layer_overhead_s(32) == pytest.approx(32 * LAYER_OVERHEAD_S)


def test_a_deployment_waits_for_the_longest_output_of_all_its_replicas():
    # 4 replicas of 250, 100 tokens on average, 10 ms a step, no prefill: the longest
    # of all 1,000 ends the burst, H_1000 = 7.48547 -> 7.485 s (one replica alone:
    # H_250 = 5.5215 + 0.5772 + 0.002 = 6.1007 -> 6.101 s)
    def span(requests, replicas):
        return burst_makespan_s(
            requests=requests,
            batch=250,
            mean_output=100,
            step_s=lambda b: 0.01,
            prefill_work_s=0.0,
            replicas=replicas,
        )

    assert span(250, 4) == pytest.approx(7.4855, abs=1e-3)
    assert span(250, 1) == pytest.approx(6.1007, abs=1e-3)
    # 1 request over 4 replicas: its own length, H_1 = 1 mean -> 1.0 s
    assert span(0.25, 4) == pytest.approx(1.0)


def test_a_burst_of_varied_lengths_takes_longer_than_one_of_fixed_lengths(
    catalog, make
):
    # GPUStack's 1,000 ShareGPT requests (mean 219 in, 201 out) at once on 8 x H200:
    # with varied lengths the longest outputs drain the batch, so fewer tokens per s
    body = dict(
        model={"preset": "deepseek-r1"},
        precision="fp8",
        context_tokens=219,
        output_tokens=201,
        concurrent_requests=1000,
        gpu_count=8,
        arrival="burst",
    )
    acc = catalog.accelerators["h200-sxm-141gb"]
    h200 = "h200-sxm-141gb"
    varied = _serve(catalog, make, h200, output_lengths="varied", **body)
    fixed = _serve(catalog, make, h200, output_lengths="fixed", **body)
    assert varied.burst_makespan_s is not None and fixed.burst_makespan_s is None
    assert varied.tokens_per_second < 0.6 * fixed.tokens_per_second
    # the makespan against an independent sum: every prefill, the queue at a full
    # batch, then 4,096 trapezoids of the step as B e^-x requests still run
    w = make(kind="inference", output_lengths="varied", **body)
    layout = ServingLayout(
        varied.pipeline,
        varied.stage_gpus,
        varied.tensor,
        varied.expert_parallel,
        varied.decode_context,
    )
    cost = LayoutCost(
        w.model,
        fabric_for(acc, server_for(acc, catalog)),
        serving_needs(w),
        device_rates(acc, w),
        layout,
    )
    b, n = varied.batch_per_replica, 1000 / varied.replicas
    horizon = math.log(min(1000, b * varied.replicas)) + 0.5772156649
    horizon += 1 / (2 * min(1000, b * varied.replicas))
    dx = horizon / 4096
    steps = [
        cost.decode_step_s(max(1, math.ceil(b * math.exp(-i * dx))))
        for i in range(4097)
    ]
    drain = 201 * sum((steps[i] + steps[i + 1]) / 2 * dx for i in range(4096))
    expected = n * cost.prefill_work_s + (n - b) * 201 * steps[0] / b + drain
    assert varied.burst_makespan_s == pytest.approx(expected, rel=5e-3)


def test_one_request_bursts_alike_whatever_its_lengths_and_fewer_than_replicas(
    catalog, make
):
    # one request on 32 H100 (several replicas): an exponential length of mean L
    # takes L steps on average, as a fixed one does; 3 requests over more replicas
    # wait for the longest of 3 (H_3 = 1.83 means), so varied serves fewer per s

    def rate(lengths, concurrency):
        return _serve(
            catalog,
            make,
            "h100-sxm-80gb",
            model={"preset": "llama-3.1-8b"},
            context_tokens=512,
            output_tokens=256,
            concurrent_requests=concurrency,
            gpu_count=32,
            arrival="burst",
            output_lengths=lengths,
        )

    one_varied, one_fixed = rate("varied", 1), rate("fixed", 1)
    assert one_varied.replicas > 1
    assert one_varied.tokens_per_second == pytest.approx(
        one_fixed.tokens_per_second, rel=0.01
    )
    three_varied, three_fixed = rate("varied", 3), rate("fixed", 3)
    assert three_varied.tokens_per_second < 0.7 * three_fixed.tokens_per_second
