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
- A burst (``arrival = "burst"``: every concurrent request arrives at once, as a batch
  job, a class starting together or a benchmark at request rate inf) has no steady
  queue: the prompts are prefilled together in steps of at most ``step_tokens``
  (serving_needs.PREFILL_CHUNK_TOKENS; vLLM
  ``max_num_batched_tokens``, TensorRT-LLM ``max_num_tokens``, SGLang
  ``chunked_prefill_size``: 8,192), and a request's first token comes when the step
  holding its prompt's last token ends. Request i of B waits for i x L prompt tokens
  rounded up to a step, on average (B + 1) L / 2 + (M / 2)(B - 1) / B tokens, at most
  all B x L (one step when B x L <= M: TensorRT-LLM's static batch of 64 x 128-token
  prompts gives every request the whole batch's prefill, 102 ms for GPT-J 6B on an
  H100, docs/source/blogs/H100vsA100.md). The prefills of the requests behind it then
  interleave into its decode: B - (tokens before it) / L of them (none when the
  burst fits one step).
  Requests beyond the batch the replica holds wait for earlier waves to finish (wave j
  starts after j request times).
- A burst's makespan (``output_lengths``): with fixed lengths every request of a wave
  ends together (whole waves of the turnover). With varied lengths (real traffic, chat
  datasets such as ShareGPT) the longest outputs set it: the lengths are taken as
  exponential around the published mean (ASSUMED: the maximum-entropy law for a
  positive length of known mean). While requests queue, the batch stays full and
  completes B / (mean x step(B)) requests per second; once the queue is empty the B
  in flight each have an exponential remainder (memoryless), so B e^(-s / mean) are
  still decoding after s steps and the last ends after mean x H_B steps on average
  (H_B = ln B + 0.5772 + 1 / 2B, the expected maximum of B exponentials). The drain
  is mean x integral over x from 0 to H_B of step(max(1, B e^(-x))) dx, each step at
  the batch still running.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from .moe_cost import MOE_LAYER_EXTRA_KERNELS

LAYER_OVERHEAD_S = 40e-6
DENSE_LAYER_KERNELS = 12
KERNEL_FLOOR_S = LAYER_OVERHEAD_S / DENSE_LAYER_KERNELS
# Interactive chat when a workload states no target: the first token within 2 s (the
# MLPerf Inference Llama 2 70B server scenario's TTFT limit) and 50 ms per output
# token, 20 tokens/s per user (between MLPerf v5.0's interactive 40 ms and the
# reading speed a chat stream must beat); the demo and the quick calculator use them.
INTERACTIVE_TTFT_MS = 2000.0
INTERACTIVE_TPOT_MS = 50.0
QUEUE_SATURATED_S = math.inf
ARRIVALS = ("steady", "burst")
OUTPUT_LENGTHS = ("varied", "fixed")
EULER_GAMMA = 0.5772156649015329
DRAIN_POINTS = 12  # Simpson intervals over the drain (an even number)


def layer_overhead_s(layers: int, moe_layers: int = 0) -> float:
    """Fixed time a decode step spends on kernel boundaries, whatever the batch: every
    layer's dozen kernels, and the MoE layers' extra ones (moe_cost)."""
    return (
        layers * LAYER_OVERHEAD_S
        + moe_layers * MOE_LAYER_EXTRA_KERNELS * KERNEL_FLOOR_S
    )


def expected_longest(requests: float) -> float:
    """Expected maximum of ``requests`` exponential lengths, in means: the harmonic
    number H_n ~ ln n + 0.5772 + 1 / 2n (1 for a single request)."""
    if requests <= 1:
        return 1.0
    return math.log(requests) + EULER_GAMMA + 1.0 / (2.0 * requests)


def drain_s(
    step_s: Callable[[int], float],
    batch: int,
    mean_output: float,
    longest_of: float | None = None,
) -> float:
    """Decode time until the last of ``batch`` running requests with exponential
    remaining lengths of ``mean_output`` ends: mean x integral_0^H step(max(1,
    ceil(B e^-x))) dx, H = H_n for the ``longest_of`` = n requests whose longest ends
    the burst (default: the batch; a deployment of R replicas waits for the longest of
    all R x B, its last replica running one request meanwhile). Simpson's rule on
    DRAIN_POINTS intervals: within 0.3 % of an 8,192-interval sum on affine and
    saturating step curves for B = 2 to 1,000, 2.4 % on a step proportional to the
    batch (no fixed part) at B <= 4 (and for B of 2-4 the ceiling keeps a request
    counted a little longer than a simulated burst does)."""
    if batch < 1 or mean_output <= 0:
        return 0.0
    horizon = expected_longest(longest_of if longest_of else batch)
    width = horizon / DRAIN_POINTS
    steps = [
        step_s(max(1, math.ceil(batch * math.exp(-i * width))))
        for i in range(DRAIN_POINTS + 1)
    ]
    inner = 4.0 * sum(steps[1:-1:2]) + 2.0 * sum(steps[2:-1:2])
    return mean_output * width / 3.0 * (steps[0] + steps[-1] + inner)


def burst_makespan_s(
    *,
    requests: float,
    batch: int,
    mean_output: float,
    step_s: Callable[[int], float],
    prefill_work_s: float,
    replicas: int = 1,
) -> float:
    """A burst with varied (exponential) output lengths on one of ``replicas``
    replicas holding ``batch``, ``requests`` of it on this one: every prefill, the
    full-batch phase while requests queue ((requests - B) completions at B / (mean x
    step(B)) per second), then the drain until the deployment's longest output ends
    (the longest of min(all requests, replicas x B))."""
    busy = max(requests, 1.0)  # a replica with a request (fewer than one on average)
    running = max(1, min(batch, math.ceil(busy)))
    queued = max(0.0, busy - running)
    longest_of = max(1.0, min(requests * replicas, float(running * replicas)))
    return (
        busy * prefill_work_s
        + queued * mean_output * step_s(running) / running
        + drain_s(step_s, running, mean_output, longest_of)
    )


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


def burst_prefill_tokens(requests: int, context_tokens: int, step_tokens: int) -> float:
    """Mean prompt tokens prefilled before a request of a burst gets its first token:
    (B + 1) L / 2 + (M / 2)(B - 1) / B, at most B x L (the whole burst)."""
    b, length, m = max(requests, 1), context_tokens, step_tokens
    return min((b + 1) * length / 2.0 + m / 2.0 * (b - 1) / b, float(b * length))


def mean_wave(requests: int, slots: int) -> float:
    """Mean wave index of ``requests`` arriving at once on a replica that runs
    ``slots`` at a time: sum of floor((i - 1) / slots) over i, over the requests."""
    slots = max(slots, 1)
    full, rest = divmod(max(requests, 1), slots)
    return (slots * full * (full - 1) / 2.0 + rest * full) / max(requests, 1)


def ttft_burst_s(
    *,
    prefill_s: float,
    prefill_work_s: float,
    context_tokens: int,
    step_tokens: int,
    step_overhead_s: float,
    batch: int,
    requests: int,
    request_s: float,
) -> float:
    """Mean TTFT of ``requests`` arriving at once on a replica running ``batch``: its
    own prefill, the other prompts prefilled in the same or earlier steps, a fixed
    overhead per step, and the waves before it (request time each)."""
    tokens = burst_prefill_tokens(batch, context_tokens, step_tokens)
    steps = max(1, math.ceil(tokens / max(step_tokens, 1)))
    others = (tokens - context_tokens) / max(context_tokens, 1)
    wave = prefill_s + others * prefill_work_s + steps * step_overhead_s
    return wave + mean_wave(requests, batch) * request_s
