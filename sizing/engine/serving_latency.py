"""Latency at concurrency: what a request waits for beyond the roofline of one step.

- Per-layer fixed overhead of a decode step: a decoder layer is about a dozen kernels
  (norms, QKV, RoPE and cache write, attention, output projection, gate/up, activation,
  down, the collectives); even replayed from a CUDA graph each kernel has a floor of a
  few microseconds (launch gap, wave tail, synchronisation) that no batch size hides.
  ``LAYER_OVERHEAD_S`` = 12 kernels x ~3.5 us, about 40 us per layer. Checked (not
  fitted) against vLLM's CI latency table (H200, 32 in / 128 out, batch 8:
  Llama 3.1 8B TP1 833 ms, Llama 3 70B TP4 2,078 ms, buildkite vllm
  performance-benchmark build 9515) in tests/sizing/engine/test_serving_latency.py.
- Chunked-prefill interference (Agrawal et al. 2024, Sarathi-Serve; vLLM
  ``--enable-chunked-prefill``, ``max_num_batched_tokens``): a prompt is prefilled in
  chunks of ``PREFILL_CHUNK_TOKENS`` and every chunk shares its step with the decodes
  running, so a prompt of n chunks also waits n decode steps of the running batch.
- Queueing: requests arrive at the rate the batch turns over (batch / request time);
  their prefills are served one after another. With prefill utilisation
  rho = arrival rate x prefill work, an M/D/1 queue waits rho / (2 (1 - rho)) x the
  prefill (Kleinrock 1975, Pollaczek-Khinchine for deterministic service); at rho >= 1
  the queue grows without bound and the TTFT target cannot be met.
"""

from __future__ import annotations

import math

LAYER_OVERHEAD_S = 40e-6
# Interactive chat when a workload states no target: the first token within 2 s (the
# MLPerf Inference Llama 2 70B server scenario's TTFT limit) and 50 ms per output
# token, 20 tokens/s per user (between MLPerf v5.0's interactive 40 ms and the
# reading speed a chat stream must beat); the demo and the quick calculator use them.
INTERACTIVE_TTFT_MS = 2000.0
INTERACTIVE_TPOT_MS = 50.0
QUEUE_SATURATED_S = math.inf


def layer_overhead_s(layers: int) -> float:
    """Fixed time a decode step spends on kernel boundaries, whatever the batch."""
    return layers * LAYER_OVERHEAD_S


def prefill_chunks(context_tokens: int, chunk_tokens: int) -> int:
    """Steps a prompt is prefilled over (at least one)."""
    return max(1, math.ceil(context_tokens / max(chunk_tokens, 1)))


def queue_wait_s(
    arrivals_per_s: float, prefill_work_s: float, prefill_s: float
) -> float:
    """M/D/1 wait before a request's prefill starts; inf when prefills saturate."""
    rho = arrivals_per_s * prefill_work_s
    if rho >= 1.0:
        return QUEUE_SATURATED_S
    return rho / (2.0 * (1.0 - rho)) * prefill_s


def ttft_at_batch_s(
    *,
    prefill_s: float,
    prefill_work_s: float,
    decode_step_s: float,
    chunks: int,
    batch: int,
    request_s: float,
) -> float:
    """TTFT of a request joining ``batch`` running ones: queue wait + its prefill +
    one decode step per prefill chunk (shared with the running decodes)."""
    arrivals = batch / request_s if request_s > 0 else 0.0
    wait = queue_wait_s(arrivals, prefill_work_s, prefill_s) if batch > 1 else 0.0
    return wait + prefill_s + chunks * decode_step_s
