"""The losses a mixture-of-experts layer adds to a serving step, from their physics.

A dense roofline (``serving_needs.ETA_COMPUTE`` / ``ETA_MEM``, calibrated on dense Llama
in TensorRT-LLM's tables) misses four things an MoE layer does:

1. **Grouped-GEMM tiles.** Each expert multiplies only the tokens routed to it, m = B k / E
   per step. Hopper's warpgroup MMA and DeepGEMM's grouped kernels work on M-tiles of 64
   rows (``wgmma.m64nNk*``; DeepGEMM ``BLOCK_M`` 64/128, aligned per expert with
   ``get_mk_alignment_for_contiguous_layout``), so an expert with m tokens costs
   ceil(m / 64) x 64 rows: efficiency m / (ceil(m / 64) x 64).
2. **Expert load imbalance.** Routing is not uniform: a few experts take most tokens
   (SGLang large-scale EP blog, 2025-05-05, "Imbalance in Expert Usage"; EPLB speeds
   decode up 2.54x at EP72). An expert-parallel group waits for its busiest GPU: with the
   per-expert load's coefficient of variation c (routing skew) and the Poisson noise of
   n routed copies, a GPU holding E / g experts has load CV sqrt(c^2 g / E + g / n), and
   the busiest of g GPUs carries 1 + sqrt(2 ln g) x that CV times the mean (expected
   maximum of g normal loads). Expert-parallel load balancing (DeepSeek EPLB, SGLang
   ``--enable-eplb``, TensorRT-LLM online EPLB) replicates and places hot experts so the
   skew term vanishes and only the noise remains.
3. **Routing and permutation traffic.** Every routed copy of a token is permuted and
   quantised (read 2h, write h bytes), its gate/up output written and read by the SwiGLU
   kernel (2f x 2 B twice) and written back quantised (f B), and the down projection's
   output written and read by the un-permute/combine (2h B twice): 7h + 9f bytes of HBM
   traffic per copy and MoE layer, which a dense layer of the same active size never
   moves (the per-token elementwise work of a dense layer is inside the dense
   calibration).
4. **The attention/MoE barrier.** Behind data-parallel attention each rank serves its own
   requests, and every MoE layer's dispatch waits for all of them (SGLang blog, "DP
   Attention Imbalance"): the step takes the slowest rank's attention, 1 + sqrt(2 ln r)
   / sqrt(n) times the mean for r ranks of n requests each (Poisson request counts).

Dispatch and combine themselves are priced by ``serving_cost`` over the fabric the
expert group spans (NVLink inside the scale-up domain, RDMA NICs across nodes), with the
volume of the busiest GPU (x the imbalance of 2).

``ROUTING_SKEW_CV`` is the one constant chosen on published serving tables: the
calibration set of ``tests/sizing/engine/test_moe_serving_calibration.py`` (every MoE row
of TensorRT-LLM v1.0's perf-overview, whose ``trtllm-bench`` runs have no EPLB), and
checked there against a validation set from other sources (SGLang, DeepSeek).
"""

from __future__ import annotations

import math

GEMM_TILE_M = 64
GEMM_TILE_N_SMALL = 8  # wgmma N granularity
# Coefficient of variation of the per-expert share of routed tokens without expert-
# parallel load balancing. Chosen on the calibration set (median over its 27 MoE rows,
# not any one row); consistent with the SGLang EPLB ablation (x2.54 decode at EP72
# implies a busiest-GPU load of about 2.5 x the mean: 1 + 2.92 x 0.85 x sqrt(72 / 256)
# = 2.3).
ROUTING_SKEW_CV = 0.85
GROUPED_GEMM_HALF_M = 64.0
ROUTED_COPY_HIDDEN_BYTES = 7.0  # x hidden size, per routed copy and MoE layer
ROUTED_COPY_FFN_BYTES = 9.0  # x one expert's FFN width


def tile_efficiency(tokens_per_expert: float) -> float:
    """Share of the grouped GEMM's rows that are real tokens: m / (ceil(m/64) x 64);
    below 64 tokens the kernels swap A and B so the tokens are the MMA's N dimension,
    padded to a multiple of 8 (TensorRT-LLM / DeepGEMM small-M "swap AB" kernels)."""
    if tokens_per_expert <= 0:
        return 1.0
    tile = GEMM_TILE_M if tokens_per_expert > GEMM_TILE_M else GEMM_TILE_N_SMALL
    tiles = math.ceil(tokens_per_expert / tile)
    return tokens_per_expert / (tiles * tile)


def grouped_gemm_efficiency(tokens_per_expert: float) -> float:
    """Grouped GEMM rate over a large dense GEMM's: tile padding x m / (m + m_half).

    The second factor is the pipeline's fill and drain per expert (each expert's weight
    tiles are loaded once for m rows, so at small m the tensor cores wait on the loads);
    m_half = GROUPED_GEMM_HALF_M tokens, where a grouped GEMM runs at half its
    large-m rate, is chosen on the calibration set."""
    if tokens_per_expert <= 0:
        return 1.0
    ramp = tokens_per_expert / (tokens_per_expert + GROUPED_GEMM_HALF_M)
    return tile_efficiency(tokens_per_expert) * ramp


def _busiest_of(count: int, cv: float) -> float:
    """Expected maximum of ``count`` loads with mean 1 and coefficient of variation
    ``cv``: 1 + sqrt(2 ln count) x cv (normal approximation)."""
    if count <= 1:
        return 1.0
    return 1.0 + math.sqrt(2.0 * math.log(count)) * cv


def expert_load_imbalance(
    routed_copies: float, gpus: int, experts: int, balanced: bool
) -> float:
    """Busiest GPU's routed copies over the mean across an expert-parallel group of
    ``gpus``: 1 + sqrt(2 ln g) x sqrt(c^2 g / E + g / n); c = 0 with load balancing."""
    if gpus <= 1 or not experts or routed_copies <= 0:
        return 1.0
    skew = 0.0 if balanced else ROUTING_SKEW_CV**2 * gpus / experts
    noise = gpus / routed_copies
    return _busiest_of(gpus, math.sqrt(skew + noise))


def attention_barrier(requests_per_rank: float, ranks: int) -> float:
    """Slowest data-parallel attention rank over the mean: 1 + sqrt(2 ln r) / sqrt(n)."""
    if ranks <= 1 or requests_per_rank <= 0:
        return 1.0
    return _busiest_of(ranks, 1.0 / math.sqrt(requests_per_rank))


def routed_copy_bytes(hidden_size: int, expert_ffn_size: int) -> float:
    """HBM bytes of one routed copy in one MoE layer: 7h + 9f (permute, quantise,
    SwiGLU in and out, combine)."""
    return (
        ROUTED_COPY_HIDDEN_BYTES * hidden_size + ROUTED_COPY_FFN_BYTES * expert_ffn_size
    )
