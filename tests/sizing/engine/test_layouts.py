"""Training layouts: ZeRO with pipelining, context and expert parallelism, the 1F1B and
interleaved schedules, and what to change when nothing fits."""

import pytest

from sizing.engine import estimate
from sizing.engine.activations import activation_bytes_per_layer, busiest_stages
from sizing.engine.memory import GB, Layout
from sizing.engine.parallelism import evaluate
from sizing.engine.platform import fabric_for, server_for
from sizing.engine.training import LayoutSearch

META_405B = dict(
    kind="training",
    model={"preset": "llama-3.1-405b"},
    tokens_b=15600,
    gpu_count=16384,
    seq_len=8192,
    global_batch_tokens=16 * 1024 * 1024,
)


def _job(catalog, make, body, accelerator="h100-sxm-80gb"):
    acc = catalog.accelerators[accelerator]
    search = LayoutSearch(acc, fabric_for(acc, server_for(acc, catalog)), make(**body))
    return search.job(body["gpu_count"])


def test_llama_405b_on_16k_h100_gets_a_layout_that_fits_in_80_gb(catalog, make):
    # Done-when of issue 11. Llama 3.1 405B pre-training, 8k context, 16,384 H100, 16M
    # tokens per step (Meta: TP8, CP1, PP16, DP128; "The Llama 3 Herd of Models" 2024,
    # Table 4). The engine finds TP8 x CP2 x PP16 x DP64 (ZeRO-1, interleaved 1F1B
    # with 4 chunks): 60.0 GB per GPU, and never more than the DGX H100's 400G NICs.
    r = estimate(make(**META_405B), catalog, "h100-sxm-80gb")
    p = r.parallelism
    assert r.training["fits"] and r.memory["per_gpu_gb"] <= 0.9 * 80
    assert (p["tensor"], p["pipeline"]) == (8, 16)
    assert p["tensor"] * p["context"] * p["pipeline"] * p["data"] == 16384
    assert r.memory["per_gpu_gb"] == pytest.approx(60.0, abs=0.5)
    assert "memory_exceeds_capacity" not in {b.code for b in r.bottlenecks}
    assert r.interconnect["nic_gbps"] <= 400
    assert r.interconnect["switch"] == "ib-ndr-qm9700"


def test_metas_own_405b_layout_fits_once_gradients_are_sharded(catalog, make):
    # TP8 CP1 PP16 DP128, 1F1B, 16 micro-batches of one 8k sequence per pipeline.
    # Per layer (SP, flash attention): 2h norms + (h + 2q + 4 kv d) attention + (h + 3f)
    # MLP = 260,096 16-bit values per token; x 8,192 tokens x 2 B / t 8 = 532,676,608 B.
    # 126 layers on 16 stages: 7 on the first and last, 8 in between (Llama 3 3.3.2);
    # stage 1 holds 8 layers x 15 micro-batches = 63.92 GB. Its 8 layers x 398.5 M / 8
    # parameters: 6.38 GB bf16 weights, 6.38 GB gradients, 12 B / 128 optimizer.
    job = _job(catalog, make, META_405B)
    assert activation_bytes_per_layer(
        catalog.presets["llama-3.1-405b"], 8192, 1, 8, "selective"
    ) == pytest.approx(532_676_608)
    zero1 = evaluate(job, Layout(8, 16, 128, 1))
    zero2 = evaluate(job, Layout(8, 16, 128, 2))
    zero3 = evaluate(job, Layout(8, 16, 128, 3))
    assert zero1.memory.activations / GB == pytest.approx(63.92, abs=0.01)
    assert (zero1.memory.stage, zero1.memory.stage_layers) == (1, 8)
    assert zero1.memory.gradients / GB == pytest.approx(6.38, abs=0.01)
    # ZeRO-1 (Megatron's distributed optimizer): 81.8 GB, does not fit; ZeRO-2 (Meta's
    # FSDP shards optimizer states and gradients): 75.2 GB, fits in 80 GB with < 10 %
    # free; ZeRO-3: 71.9 GB
    assert not zero1.fits
    assert zero2.fits and not zero2.comfortable
    assert zero2.memory.total / GB == pytest.approx(75.2, abs=0.1)
    assert zero3.comfortable


def test_1f1b_first_and_last_stages_take_the_fewer_layers():
    # 126 layers on 16 stages: base 7, 14 left over for the 14 middle stages
    first, second, last = busiest_stages(126, 16, 16)
    assert (first.layers, first.in_flight) == (7, 16)
    assert (second.layers, second.in_flight) == (8, 15)
    assert (last.layers, last.in_flight) == (7, 1)
    # fewer micro-batches than stages: only m are ever in flight
    assert busiest_stages(126, 16, 4)[0].in_flight == 4


def test_interleaved_1f1b_holds_more_activations_for_a_smaller_bubble():
    # Narayanan et al. 2021 2.2.2; Megatron-LM estimator: stage 0 holds
    # p (1 + (p - 1)/(p v)) micro-batches of L/p layers: v = 2 -> 16 + 15/2 = 23.5
    first, last = busiest_stages(128, 16, 16, 2)
    assert (first.layers, first.in_flight) == (8, 23.5)
    # last GPU: (p (v - 1) + 1) / v = 17 / 2 = 8.5
    assert last.in_flight == 8.5


def test_context_parallelism_divides_the_activations(catalog, make):
    body = dict(META_405B, seq_len=131072, gpu_count=16384)
    job = _job(catalog, make, body)
    # same data degree, so the same 16 micro-batches of one 128k sequence each
    cp1 = evaluate(job, Layout(8, 16, 8, 1, 1))
    cp16 = evaluate(job, Layout(8, 16, 8, 1, 16))
    assert cp1.memory.activations / cp16.memory.activations == pytest.approx(16)
    assert cp16.traffic.context_bytes > 0 == cp1.traffic.context_bytes


def test_long_context_405b_uses_context_parallelism(catalog, make):
    # Llama 3 trained 405B at 128k with CP16 (Table 4)
    body = dict(META_405B, seq_len=131072, tokens_b=800)
    r = estimate(make(**body), catalog, "h100-sxm-80gb")
    assert r.training["fits"]
    assert r.parallelism["context"] >= 8


def test_expert_parallelism_shards_the_experts(catalog, make):
    # DeepSeek-V3 on 2,048 H800: with EP16 each GPU holds 1/16 of its experts
    body = dict(
        kind="training",
        model={"preset": "deepseek-v3"},
        tokens_b=14800,
        gpu_count=2048,
        seq_len=4096,
        precision="fp8",
        global_batch_tokens=15360 * 4096,
    )
    job = _job(catalog, make, body, "h800-sxm-80gb")
    ep1 = evaluate(job, Layout(8, 16, 16, 1, 1, 1))
    ep16 = evaluate(job, Layout(8, 16, 16, 1, 1, 16))
    assert ep16.memory.weights < ep1.memory.weights / 8
    assert ep16.traffic.expert_bytes > 0 == ep1.traffic.expert_bytes


def test_a_small_moe_is_spread_with_expert_parallelism(catalog, make):
    # Mixtral 8x7B on 64 H100: experts over 8 data ranks beats tensor parallelism
    body = dict(
        kind="training",
        model={"preset": "mixtral-8x7b"},
        tokens_b=1000,
        gpu_count=64,
        seq_len=4096,
    )
    r = estimate(make(**body), catalog, "h100-sxm-80gb")
    assert r.training["fits"] and r.parallelism["expert"] == 8


def test_when_nothing_fits_the_plan_says_so_and_lists_what_would(catalog, make):
    # Llama 3 8B, 8k sequences, 16 per micro-batch, on one 8-GPU node: 103 GB per GPU.
    # One sequence per micro-batch or full recompute fits on the same 8 GPUs; so do 16
    # GPUs. Each change is sized like a plan; the cheapest (GPU-hours) comes first.
    body = dict(
        kind="training",
        model={"preset": "llama-3-8b"},
        tokens_b=10,
        gpu_count=8,
        seq_len=8192,
        micro_batch=16,
        global_batch_tokens=8192 * 128,
    )
    r = estimate(make(**body), catalog, "h100-sxm-80gb")
    assert not r.training["fits"]
    assert "memory_exceeds_capacity" in {b.code for b in r.bottlenecks}
    remedies = {x["change"]: x for x in r.training["fit_remedies"]}
    assert set(remedies) == {"micro_batch_1", "full_recompute", "more_gpus"}
    assert all(x["per_gpu_gb"] <= 80 for x in remedies.values())
    # full recompute adds 2N + 4LsHQ/3 per token on top of (6N + 12LsHQ) + 4LsHQ/3:
    # slower than one sequence per micro-batch on the same GPUs (the plan that does not
    # fit is sized on its least-memory ZeRO-3 layout, whose exposed traffic is larger)
    assert remedies["full_recompute"]["days"] > 1.2 * remedies["micro_batch_1"]["days"]
    assert remedies["more_gpus"]["gpus"] == 16
    hours = [x["gpu_hours"] for x in r.training["fit_remedies"]]
    assert hours == sorted(hours)


def test_a_plan_that_fits_lists_no_remedies(catalog, make):
    r = estimate(make(**META_405B), catalog, "h100-sxm-80gb")
    assert r.training["fit_remedies"] == []


DEEPSEEK_V3 = dict(
    kind="training",
    model={"preset": "deepseek-v3"},
    tokens_b=14800,
    gpu_count=2048,
    seq_len=4096,
    global_batch_tokens=15360 * 4096,
    precision="fp8",
)


def test_mla_keeps_its_latents_not_128_full_heads(catalog, make):
    # DeepSeek-V3 report section 3.2.3: RMSNorm and the MLA up-projections are
    # recomputed, so a layer keeps h + q_lora + (kv_lora + d_rope) + H d_v values per
    # token: 7,168 + 1,536 + 576 + 128 x 128 = 25,664 (not 128 heads' Q, K and V).
    from sizing.engine.activations import attention_values_per_token

    m = make(**DEEPSEEK_V3).model
    assert attention_values_per_token(m) == 7168 + 1536 + 512 + 64 + 128 * 128
    # without recompute Q and K (192 wide per head) and V are kept as well
    assert attention_values_per_token(m, "none") == 25664 + 2 * 128 * 192 + 128 * 128


def test_deepseek_v3_published_layout_fits_on_2048_h800(catalog, make):
    # DeepSeek-V3 report section 3.2: 2,048 H800, 16-way pipeline (DualPipe), 64-way
    # expert parallelism over 8 nodes, ZeRO-1 data parallelism, no tensor parallelism;
    # FP8 with MoE inputs cached in FP8 (section 3.3.2). The busiest stage holds
    # 4 layers x 15 micro-batches in flight. Per layer and token: norms 2 x 7,168 +
    # MLA 25,664 + (8 routed + 1 shared) x (7,168 / 2 FP8 input + 2 x 2,048 SwiGLU
    # inputs) = 109,120 values x 2 B x 4,096 tokens = 0.894 GB; x 60 = 53.6 GB.
    job = _job(catalog, make, DEEPSEEK_V3, "h800-sxm-80gb")
    choice = evaluate(job, Layout(1, 16, 128, 1, 1, 64))
    assert choice.fits
    assert choice.memory.total / GB == pytest.approx(73.2, abs=0.5)
    assert choice.memory.activations / GB == pytest.approx(53.6, abs=0.5)


def test_the_layout_search_tries_expert_parallelism_up_to_the_published_ep64(
    catalog, make
):
    from sizing.engine.parallelism import candidate_layouts

    job = _job(catalog, make, DEEPSEEK_V3, "h800-sxm-80gb")
    shapes = {(x.tensor, x.pipeline, x.expert) for x in candidate_layouts(job)}
    assert (1, 16, 64) in shapes
