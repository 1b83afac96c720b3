"""The time one GPU spends on one trained token, from the layer's shapes on the
accelerator's roofline (no constant fitted to a training run).

Per layer, for the M = micro-batch x sequence tokens of one micro-batch:
- every GEMM (QKV, output, FFN up/gate and down, each routed expert, the head) takes
  max(2 M K N / (peak x ceiling), bytes / (HBM bandwidth x 0.9)) + 5 us, three times
  (forward, input gradient, weight gradient; LoRA's frozen weights skip the weight
  gradient but for the trainable share), plus a forward under full recompute. The
  ceiling is the measured maximum achievable matmul share (MAMF, ml-engineering; BF16
  A100 0.87, H100 0.80); FP8 GEMMs reach the same share of the FP8 peak (DeepGEMM,
  deepseek-ai/DeepGEMM README: 1,550 TFLOPS on H800 = 0.78 of 1,979);
- attention (FlashAttention, causal) executes 7/12 of the PaLM count 12 L s H Q: half
  the score matrix, forward 2 matmuls, backward 5 (the scores recomputed), and runs at
  0.68 of the matmul ceiling: FlashAttention-2 on A100 forward 73 % / backward 63 % of
  peak at best (Dao 2023), FlashAttention-3 on H100 forward 62-75 %, backward ~50 %
  (Shah et al. 2024) -- 3.5 / (1 / fwd + 2.5 / bwd) ~ 0.55-0.65 of peak, 0.68 of
  0.80-0.87; attention stays 16-bit under FP8;
- memory-bound operations stream their bytes at 0.9 of the HBM bandwidth: two norms
  (read and write h), rotary embedding of q and k, two residual adds (read 2h, write
  h), the FFN activation (SwiGLU read 2f write f; GELU f and f), an MoE layer's
  permute and unpermute (k h each way), 16-bit values; the backward moves twice the
  forward's bytes; FP8 adds a cast of every GEMM input (read 2, write 1 byte) and a
  cast-transpose of every output gradient (read 2, write 2); the loss reads and writes
  the logits (~12 bytes per vocabulary entry and token).
MoE keeps 20 of 132 SMs for the all-to-all (DeepSeek-V3 report section 3.2.1): compute
time / (112 / 132). The GEMM shapes are those of one GPU with no tensor split (a split
divides N or K by the tensor degree and the token count stays M: the same share of the
ceiling while N/t >= 1,024).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .catalog import Accelerator, ModelArch
from .model import attention_flops_per_token, param_breakdown
from .moe_cost import (
    A2A_NVLINK_EFFICIENCY,
    ROUTED_COPY_FFN_BYTES,
    ROUTED_COPY_HIDDEN_BYTES,
    tile_efficiency,
)

# Fill and drain of a training GEMM's weight pipeline, in rows: 384, the serving
# calibration's grouped-GEMM fill of sizing-2.2 to 2.4, kept for training because the
# step shares of tests/sizing/engine/test_training_calibration.py were chosen with it.
# At training's thousands of tokens per GEMM it costs 2-5 %; serving now charges small
# grouped GEMMs by their weight stream instead (moe_cost.GROUPED_GEMM_STREAM_LOSS).
TRAINING_GEMM_FILL_ROWS = 384.0

MATMUL_CEILING = {
    "a100": 0.87,
    "a800": 0.87,
    "h100": 0.80,
    "h800": 0.80,
    "h200": 0.80,
    "h20": 0.80,
    "b200": 0.78,
    "b300": 0.78,
    "gb200": 0.78,
    "mi300x": 0.55,
    "mi325x": 0.55,
    "mi355x": 0.55,
    "gaudi3": 0.74,
}
# Families without a measurement (assumptions, documented): consumer and PCIe cards as
# their datacenter siblings' lower bound, Ascend as the other non-NVIDIA parts.
FAMILY_CEILING = {
    "nvidia-sxm": 0.80,
    "nvidia-blackwell": 0.78,
    "nvidia-pcie": 0.75,
    "nvidia-consumer": 0.70,
    "amd-instinct": 0.55,
    "intel-gaudi": 0.74,
    "huawei-ascend": 0.55,
}
CEILING_FALLBACK = 0.55
STREAM_SHARE = 0.9  # of the HBM bandwidth a streaming kernel reaches
ATTENTION_EXECUTED = 7.0 / 12.0
ATTENTION_OF_CEILING = 0.68
EXPERT_GROUP = 8  # expert-parallel ranks an expert's tokens come from (EP 8)
PCIE_EACH_WAY_GBS = 32.0  # PCIe 4.0 x16 when a part has no scale-up link
# Calibrated (the only two): the share of the roofline a whole step reaches -- kernel
# gaps, sustained clocks, the shapes' tiles -- each the minimiser of the median |log
# error| over its calibration rows (never one row): the published steady-state rows of
# tests/sizing/engine/test_training_calibration.py and the odd half of the blind
# published cases (tests/sizing/blind_cases); 18 dense rows, 9 MoE rows (routing,
# imbalance, many small kernels per layer). Frozen before the even half was run.
STEP_SHARE = 0.81
MOE_STEP_SHARE = 0.37
LOGIT_BYTES = 12.0  # per vocabulary entry and token: write, read fp32, grad write/read
BYTES_16 = 2.0


@dataclass(frozen=True)
class TokenTime:
    """Seconds per trained token on one GPU, by kind of work."""

    gemm_s: float
    attention_s: float
    memory_s: float
    ceiling: float
    all_to_all_s: float = 0.0

    @property
    def total_s(self) -> float:
        return self.gemm_s + self.attention_s + self.memory_s + self.all_to_all_s


def matmul_ceiling(acc: Accelerator) -> float:
    prefix = acc.key.split("-", 1)[0]
    return MATMUL_CEILING.get(prefix, FAMILY_CEILING.get(acc.family, CEILING_FALLBACK))


def _gemm_s(
    m_tokens: float, k: float, n: float, flops_s: float, bw: float, value_b: float
) -> float:
    """One GEMM on the roofline: compute (its rows padded to the 64-row MMA tile, and
    the weight pipeline's fill and drain worth TRAINING_GEMM_FILL_ROWS rows) or bytes,
    whichever binds."""
    rows = tile_efficiency(m_tokens) * m_tokens / (m_tokens + TRAINING_GEMM_FILL_ROWS)
    compute = 2.0 * m_tokens * k * n / flops_s / rows
    memory = ((m_tokens * k + k * n) * value_b + m_tokens * n * BYTES_16) / bw
    return max(compute, memory)


def _layer_gemms(
    m: ModelArch, tokens: float
) -> list[tuple[float, float, float, float]]:
    """(count, tokens, K, N) of one layer's forward GEMMs, MoE layers weighted by their
    share of the layers, shared experts as one wide FFN."""
    h, d = m.hidden_size, m.head_dim
    if m.is_mla:  # the MLA projections as one h-wide GEMM of their parameters
        gemms = [(1.0, tokens, h, param_breakdown(m).attention / m.layers / h)]
    else:
        q = m.attention_heads * d
        gemms = [(1.0, tokens, h, q + 2 * m.kv_heads * d), (1.0, tokens, q, h)]
    up = 2 if m.gated_ffn else 1
    share = m.moe_layers / m.layers if m.is_moe else 0.0
    if share < 1.0:
        f = m.ffn_hidden_size
        gemms += [(1.0 - share, tokens, h, up * f), (1.0 - share, tokens, f, h)]
    if share:
        fe = m.expert_ffn_size
        if m.moe_shared_experts:
            width = fe * m.moe_shared_experts
            gemms += [(share, tokens, h, up * width), (share, tokens, width, h)]
        k = m.moe_active_experts or 1
        experts = m.moe_experts or 1
        # tokens one expert sees: k M / E from each of up to 8 expert-parallel ranks
        per_expert = max(tokens * k * min(8, experts) / experts, 1.0)
        calls = tokens * k / per_expert * share
        gemms += [(calls, per_expert, h, up * fe), (calls, per_expert, fe, h)]
    return gemms


def _layer_bytes(m: ModelArch, fp8: bool) -> float:
    """Memory-bound bytes of one layer per token, forward and backward."""
    h, d = m.hidden_size, m.head_dim
    rope = (m.attention_heads + m.kv_heads) * d
    moe = m.is_moe and m.moe_layers
    share = m.moe_layers / m.layers if moe else 0.0
    width = m.ffn_hidden_size * (1 - share)
    if moe:
        width += (
            share
            * m.expert_ffn_size
            * ((m.moe_active_experts or 1) + m.moe_shared_experts)
        )
    act = (3 if m.gated_ffn else 2) * width
    forward = 4 * h + 2 * rope + 6 * h + act
    total = 3.0 * forward * BYTES_16
    if moe:  # permute, activation and un-permute of every routed copy (moe_cost)
        copy = ROUTED_COPY_HIDDEN_BYTES * h + ROUTED_COPY_FFN_BYTES * m.expert_ffn_size
        total += 3.0 * share * copy * (m.moe_active_experts or 1)
    if fp8:
        q = m.attention_heads * d
        inputs = 2 * h + q + width
        grads = (m.attention_heads + 2 * m.kv_heads) * d + 2 * h + 2 * width
        total += 3.0 * inputs + 4.0 * grads
    return total


@lru_cache(maxsize=1024)
def token_time(
    acc: Accelerator,
    m: ModelArch,
    seq_len: int,
    micro_batch: int,
    precision: str,
    recompute: str,
    lora_fraction: float | None,
) -> TokenTime:
    """Seconds per trained token on one GPU (see the module doc)."""
    ceiling = matmul_ceiling(acc)
    bf16_peak = (acc.bf16_tflops or acc.peak_tflops(precision) or 1.0) * 1e12
    peak = (acc.peak_tflops(precision) or bf16_peak / 1e12) * 1e12
    bw = (acc.mem_bw_tbs or 1.0) * 1e12 * STREAM_SHARE
    fp8 = precision == "fp8"
    value_b = 1.0 if fp8 else (4.0 if precision == "fp32" else BYTES_16)
    tokens = float(max(seq_len * micro_batch, 1))
    passes = 3.0 if lora_fraction is None else 2.0 + lora_fraction
    forwards = passes + (1.0 if recompute == "full" else 0.0)
    layer = sum(
        count * _gemm_s(t, k, n, peak * ceiling, bw, value_b)
        for count, t, k, n in _layer_gemms(m, tokens)
    )
    head = _gemm_s(tokens, m.hidden_size, m.vocab_size, bf16_peak * ceiling, bw, 2.0)
    gemm = (layer * m.layers + head) * forwards / tokens
    attention_peak = (peak if precision == "fp32" else bf16_peak) * ceiling
    executed = ATTENTION_EXECUTED + (2.0 / 12.0 if recompute == "full" else 0.0)
    attention = (
        executed
        * attention_flops_per_token(m, seq_len)
        / (attention_peak * ATTENTION_OF_CEILING)
    )
    memory = _layer_bytes(m, fp8) * m.layers * (4.0 / 3.0 if recompute == "full" else 1)
    memory = (memory + LOGIT_BYTES * m.vocab_size) / bw
    share = MOE_STEP_SHARE if m.is_moe else STEP_SHARE
    return TokenTime(
        gemm / share, attention / share, memory, ceiling, _all_to_all_s(acc, m)
    )


def _all_to_all_s(acc: Accelerator, m: ModelArch) -> float:
    """Dispatch and combine of every routed copy, forward and backward, inside an
    8-GPU expert group: 4 k h x 2 B x 7/8 per MoE layer, at DeepEP's measured
    153 / 200 of the NVLink rate each way."""
    if not m.is_moe or not m.moe_layers:
        return 0.0
    each_way = (acc.scaleup_gbs or 2 * PCIE_EACH_WAY_GBS) / 2.0
    rate = each_way * A2A_NVLINK_EFFICIENCY * 1e9
    k = m.moe_active_experts or 1
    share = (EXPERT_GROUP - 1) / EXPERT_GROUP
    return 4 * k * m.hidden_size * BYTES_16 * share * m.moe_layers / rate
