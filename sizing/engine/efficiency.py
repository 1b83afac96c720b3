"""Achieved efficiency of training: hardware FLOPs utilisation (HFU) and model FLOPs
utilisation (MFU) by accelerator, model width, sequence length and GPU count; goodput.

The step rate is the matmul rate the accelerator can reach, slowed by what does not run
as large matmuls:
- ceiling: the measured maximum achievable BF16 matmul share (MAMF, ml-engineering;
  hardware-facts.md section 1): A100 87 %, H100 80 %, B200 78 %, MI300X 51-60 %,
  Gaudi 3 74 %;
- memory-bound work (norms, activations, residuals, casts, optimizer): its time per
  matmul FLOP grows with peak / HBM bandwidth and, per token, with 1/h (a layer does
  ~h^2 matmul FLOPs per ~h bytes moved), so the rate is divided by
  1 + (peak / bandwidth) (k0 + k1 x 4096 / h);
- attention (FlashAttention) runs at ~0.75 of the matmul rate (FlashAttention-2 reaches
  50-73 % of A100 peak, Dao 2023, against 87 % for GEMMs), so a long sequence lowers the
  rate through its share of the FLOPs (12 L s H Q per token, PaLM App. B);
- FP8 speeds the linear layers up 1.42x end to end, not 2x (13B GPT on H100 with
  Transformer Engine: 0.34 -> 0.24 s/step, NVIDIA/Megatron-LM issue 396); attention
  stays in BF16;
- MoE keeps 20 of 132 SMs for the all-to-all (DeepSeek-V3 report section 3.2.1): x 0.85;
- scale: 430 -> 400 TFLOPS per GPU from 8,192 to 16,384 H100 (Llama 3 paper, Table 4)
  is 1 / (1 + 0.097 log2(N / 1,024)) beyond 1,024 GPUs.
k0 and k1 are calibrated on the published runs of docs/methodology.md (Part A, A.4):
the pair that minimises the table's median error (leave-one-out median ~10 %), never
a constant fitted to one run.

Goodput: Llama 3 405B saw 419 unexpected interruptions in 54 days on 16,384 H100 =
1.97e-5 per GPU-hour (Grattafiori et al. 2024, section 3.3.4), each costing ~0.25 h of
lost work and restart; checkpoint stalls take their share on top.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from .catalog import Accelerator, ModelArch
from .model import attention_flops_per_token, training_flops_per_token

# Maximum achievable matmul share by accelerator (key prefix), then by family.
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
OVERHEAD_K0 = 0.00125  # per (TFLOPS per TB/s)
OVERHEAD_K1 = 0.004  # per (TFLOPS per TB/s), at h = 4,096
REFERENCE_WIDTH = 4096
ATTENTION_RATE = 0.75
FP8_LINEAR_SPEEDUP = 1.42
MOE_COMPUTE_SHARE = 112 / 132
SCALE_START_GPUS = 1024
SCALE_LOSS_PER_DOUBLING = 0.097

INTERRUPTIONS_PER_GPU_HOUR = 419 / (16384 * 54 * 24)
HOURS_LOST_PER_INTERRUPTION = 0.25


@dataclass(frozen=True)
class Efficiency:
    """HFU (hardware FLOPs, incl. recompute) and MFU (model FLOPs) against the dense
    peak of the training precision, with the factors behind them."""

    hfu: float
    mfu: float
    ceiling: float
    overhead: float  # the memory-bound divisor 1 + x
    attention_share: float
    scale: float


def matmul_ceiling(acc: Accelerator) -> float:
    prefix = acc.key.split("-", 1)[0]
    return MATMUL_CEILING.get(prefix, FAMILY_CEILING.get(acc.family, CEILING_FALLBACK))


def scale_factor(gpus: int) -> float:
    if gpus <= SCALE_START_GPUS:
        return 1.0
    return 1.0 / (1.0 + SCALE_LOSS_PER_DOUBLING * math.log2(gpus / SCALE_START_GPUS))


def training_efficiency(
    acc: Accelerator,
    m: ModelArch,
    *,
    gpus: int,
    seq_len: int,
    precision: str,
    recompute: str,
    lora_fraction: float | None = None,
) -> Efficiency:
    """Steady-state HFU and MFU (see the module doc)."""
    steady = _steady(acc, m, seq_len, precision, recompute, lora_fraction)
    scale = scale_factor(gpus)
    hfu = steady.hfu * scale
    return Efficiency(
        hfu,
        steady.mfu * scale,
        steady.ceiling,
        steady.overhead,
        steady.attention_share,
        scale,
    )


@lru_cache(maxsize=1024)
def _steady(
    acc: Accelerator,
    m: ModelArch,
    seq_len: int,
    precision: str,
    recompute: str,
    lora_fraction: float | None,
) -> Efficiency:
    """Everything but the scale factor (which depends only on the GPU count)."""
    model_flops, extra_flops = training_flops_per_token(
        m, seq_len, recompute, lora_fraction
    )
    hardware_flops = model_flops + extra_flops
    attention = attention_flops_per_token(m, seq_len)
    attention_hw = attention * (4.0 / 3.0 if recompute != "none" else 1.0)
    share = min(attention_hw / hardware_flops, 1.0)
    linear_rate = FP8_LINEAR_SPEEDUP if precision == "fp8" else 1.0
    time_per_flop = (1.0 - share) / linear_rate + share / ATTENTION_RATE
    bf16_peak = acc.bf16_tflops or acc.peak_tflops(precision) or 1.0
    memory_bw = acc.mem_bw_tbs or 1.0
    overhead = 1.0 + bf16_peak / memory_bw * (
        OVERHEAD_K0 + OVERHEAD_K1 * REFERENCE_WIDTH / m.hidden_size
    )
    ceiling = matmul_ceiling(acc)
    rate_vs_bf16 = ceiling / overhead / time_per_flop
    if m.is_moe:
        rate_vs_bf16 *= MOE_COMPUTE_SHARE
    peak = acc.peak_tflops(precision) or bf16_peak
    if precision == "fp32":  # TF32 matmuls: the whole step at the fp32 peak's pace
        rate_vs_bf16 *= peak / bf16_peak
    hfu = rate_vs_bf16 * bf16_peak / peak
    return Efficiency(
        hfu, hfu * model_flops / hardware_flops, ceiling, overhead, share, 1.0
    )


def goodput(gpus: int, checkpoint_stall_share: float) -> float:
    """Share of wall-clock time spent on useful steps: failures/restarts and checkpoints."""
    failures = 1.0 / (
        1.0 + gpus * INTERRUPTIONS_PER_GPU_HOUR * HOURS_LOST_PER_INTERRUPTION
    )
    return failures * (1.0 - checkpoint_stall_share)
