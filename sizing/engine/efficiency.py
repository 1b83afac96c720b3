"""Achieved-efficiency defaults: MFU by accelerator family, precision and scale; goodput.

Calibrated on public runs (docs/methodology.md, Part A, "Calibration"):
- Llama 3.1 405B: 16,384 H100, BF16, MFU 38-43 % reported, 30.84 M GPU-hours for ~15.6 T
  tokens (Grattafiori et al. 2024, Table 4; model card);
- Llama 2 7B-70B: 2 T tokens on A100, 184,320-1,720,320 GPU-hours (Touvron et al. 2023,
  Table 2);
- DeepSeek-V3: 2,048 H800, FP8, 2.664 M GPU-hours for 14.8 T tokens (DeepSeek-V3 report).
"""

from __future__ import annotations

import math

# Steady-state BF16 MFU at <= 1,024 GPUs. NVIDIA SXM (A100/H100/H200 and China variants) is
# calibrated on Llama 2 and Llama 3.1 405B. The others scale it by the measured BF16 matmul
# ceiling (MAMF, ml-engineering) relative to H100's 80 %: B200 78 %, MI300X 51-60 %,
# Gaudi 3 74 %; PCIe, consumer and Ascend values are conservative assumptions.
MFU_BASE = {
    "nvidia-sxm": 0.50,
    "nvidia-blackwell": 0.45,
    "nvidia-pcie": 0.40,
    "nvidia-consumer": 0.35,
    "amd-instinct": 0.35,
    "intel-gaudi": 0.45,
    "huawei-ascend": 0.35,
}
MFU_FALLBACK = 0.35
# MFU falls ~5 % per doubling beyond 1,024 GPUs (Llama 3: 43 % at 8k, 41 % at 16k GPUs).
MFU_SCALE_START_GPUS = 1024
MFU_LOSS_PER_DOUBLING = 0.05
MFU_SCALE_FLOOR = 0.70
# FP8 reaches ~55 % of the BF16 MFU *against the FP8 peak* (a ~1.1x speed-up, not 2x):
# DeepSeek-V3 ran ~418 TFLOPS/GPU, i.e. 21 % of H800's 1,979 FP8 peak.
FP8_MFU_FACTOR = 0.55
# MoE all-to-all and imbalance overhead, calibrated on DeepSeek-V3 (one data point).
MOE_MFU_FACTOR = 0.85

# Interruptions: Llama 3 405B saw 419 unexpected interruptions in 54 days on 16,384 H100
# = 1.97e-5 per GPU-hour (Grattafiori et al. 2024, section 3.3.4).
INTERRUPTIONS_PER_GPU_HOUR = 419 / (16384 * 54 * 24)
# Work lost plus restart per interruption (assumption: ~half a 30-min checkpoint interval
# of lost work plus ~15 min restart, shortened by in-memory checkpoints) -> gives the >90 %
# effective training time Meta reported at 16k GPUs.
HOURS_LOST_PER_INTERRUPTION = 0.25


def default_mfu(family: str, precision: str, gpus: int, moe: bool) -> float:
    """Steady-state MFU against the dense peak of ``precision``."""
    mfu = MFU_BASE.get(family, MFU_FALLBACK)
    if gpus > MFU_SCALE_START_GPUS:
        doublings = math.log2(gpus / MFU_SCALE_START_GPUS)
        mfu *= max(MFU_SCALE_FLOOR, 1.0 - MFU_LOSS_PER_DOUBLING * doublings)
    if precision == "fp8":
        mfu *= FP8_MFU_FACTOR
    if moe:
        mfu *= MOE_MFU_FACTOR
    return mfu


def goodput(gpus: int, checkpoint_stall_share: float) -> float:
    """Share of wall-clock time spent on useful steps: failures/restarts and checkpoints."""
    failures = 1.0 / (
        1.0 + gpus * INTERRUPTIONS_PER_GPU_HOUR * HOURS_LOST_PER_INTERRUPTION
    )
    return failures * (1.0 - checkpoint_stall_share)
