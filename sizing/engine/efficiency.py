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
from .goodput import AUTOMATED, RestartPractice
from .model import training_flops_per_token
from .step_roofline import matmul_ceiling as matmul_ceiling
from .step_roofline import token_time

SCALE_START_GPUS = 1024
SCALE_LOSS_PER_DOUBLING = 0.097


@dataclass(frozen=True)
class Efficiency:
    """HFU (hardware FLOPs, incl. recompute) and MFU (model FLOPs) against the dense
    peak of the training precision, with the shares of a token's time behind them."""

    hfu: float
    mfu: float
    ceiling: float
    gemm_share: float  # of the token's time: GEMMs on the roofline
    attention_share: float  # FlashAttention
    memory_share: float  # memory-bound operations
    scale: float


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
    micro_batch: int = 1,
) -> Efficiency:
    """Steady-state HFU and MFU (see the module doc)."""
    steady = _steady(acc, m, seq_len, micro_batch, precision, recompute, lora_fraction)
    scale = scale_factor(gpus)
    return Efficiency(
        steady.hfu * scale,
        steady.mfu * scale,
        steady.ceiling,
        steady.gemm_share,
        steady.attention_share,
        steady.memory_share,
        scale,
    )


@lru_cache(maxsize=1024)
def _steady(
    acc: Accelerator,
    m: ModelArch,
    seq_len: int,
    micro_batch: int,
    precision: str,
    recompute: str,
    lora_fraction: float | None,
) -> Efficiency:
    """Everything but the scale factor (which depends only on the GPU count)."""
    model_flops, extra_flops = training_flops_per_token(
        m, seq_len, recompute, lora_fraction
    )
    hardware_flops = model_flops + extra_flops
    time = token_time(acc, m, seq_len, micro_batch, precision, recompute, lora_fraction)
    peak = (acc.peak_tflops(precision) or acc.bf16_tflops or 1.0) * 1e12
    hfu = hardware_flops / time.total_s / peak
    total = time.total_s
    return Efficiency(
        hfu,
        hfu * model_flops / hardware_flops,
        time.ceiling,
        time.gemm_s / total,
        time.attention_s / total,
        time.memory_s / total,
        1.0,
    )


def goodput(
    gpus: int,
    checkpoint_stall_share: float,
    practice: RestartPractice = AUTOMATED,
) -> float:
    """Share of wall-clock time spent on useful steps (``goodput`` module)."""
    return practice.goodput(gpus, checkpoint_stall_share)
