"""Memory and latency of one serving layout at a batch (sizing-formulas section 9).

A decode step per GPU and pipeline stage is three kernel groups run one after the
other, each the slower of its compute and its memory traffic (roofline per kernel):
- dense weight GEMMs: 2 x active non-expert parameters per token (the embedding lookup
  excluded) against the bytes of the attention weights of the GPU's attention rank and
  the dense FFN / shared-expert / head shards;
- routed experts (``moe_cost``): grouped GEMMs at their tile and fill efficiency, scaled
  by the busiest expert-parallel GPU's load, against the experts the step touches (B
  tokens each choosing k of E touch E (1 - (1 - k/E)^B) of them), plus the routed
  copies' permute / SwiGLU / combine traffic;
- attention: the core over the cached context against the KV cache of the rank's own
  requests, behind data-parallel attention at the slowest rank's time (the barrier).
With p stages, p micro-batches of B/p requests are in flight and a token passes every
stage: TPOT = p x stage time. Collectives add latency plus volume over the link (all-reduce
2(n-1)/n x tokens x h x 2 B; MoE all-to-all: FP8 dispatch + BF16 combine, 3 B per hidden
value and routed copy, DeepSeek-V3 report section 3.3, over NVLink and RDMA at DeepEP's
measured bandwidths, x the busiest GPU's imbalance).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .catalog import ModelArch
from .memory import CUDA_GRAPH_BYTES, RUNTIME_CONTEXT_BYTES, InferenceMemory
from .moe_cost import (
    attention_barrier,
    dispatch_combine_s,
    expert_load_imbalance,
    grouped_gemm_efficiency,
    grouped_gemm_s,
    padded_rows,
    routed_copy_bytes,
)
from .parallelism import COLLECTIVE_EFFICIENCY, Fabric
from .serving_latency import (
    burst_makespan_s,
    burst_prefill_tokens,
    layer_overhead_s,
    prefill_chunks,
    ttft_at_batch_s,
    ttft_burst_s,
)
from .serving_layout import ServingLayout
from .serving_needs import PREFILL_CHUNK_TOKENS, DeviceRates, ServingNeeds

# Small-message collective latency per step (assumed, as NCCL small all-reduce).
COLLECTIVE_LATENCY_S = {"scaleup": 5e-6, "pcie": 15e-6, "network": 25e-6}
PIPELINE_HOP_S = 20e-6
ALL_TO_ALL_BYTES_PER_VALUE = 3.0  # FP8 dispatch (1 B) + BF16 combine (2 B)
LOGIT_BYTES = 4.0  # fp32 logits of each decoded token, vocab-parallel


@dataclass(frozen=True)
class Link:
    kind: str
    latency_s: float
    bytes_per_s: float


def group_link(size: int, fabric: Fabric) -> Link | None:
    """The link a group of ``size`` GPUs talks over: NVLink-class inside the scale-up
    domain, PCIe inside a node without one, else the scale-out NICs."""
    if size <= 1:
        return None
    if size <= fabric.scaleup_domain and size <= max(fabric.gpus_per_node, 1):
        kind, gbs = "scaleup", fabric.scaleup_gbs
    elif size <= fabric.gpus_per_node:
        kind, gbs = "pcie", fabric.pcie_gbs
    else:
        kind, gbs = "network", fabric.scaleout_gbs
    return Link(kind, COLLECTIVE_LATENCY_S[kind], gbs * 1e9 * COLLECTIVE_EFFICIENCY)


@dataclass(frozen=True)
class Collective:
    """Cost of one layer's collectives: latency + per stage token + per rank token."""

    latency_s: float = 0.0
    per_token_s: float = 0.0
    per_rank_token_s: float = 0.0

    def __add__(self, other: Collective) -> Collective:
        return Collective(
            self.latency_s + other.latency_s,
            self.per_token_s + other.per_token_s,
            self.per_rank_token_s + other.per_rank_token_s,
        )

    def scaled(self, share: float) -> Collective:
        return Collective(
            self.latency_s * share,
            self.per_token_s * share,
            self.per_rank_token_s * share,
        )

    def seconds(self, tokens: float, rank_tokens: float) -> float:
        return (
            self.latency_s
            + self.per_token_s * tokens
            + self.per_rank_token_s * rank_tokens
        )


def _all_reduce(
    link: Link | None, size: int, hidden: int, per_rank: bool
) -> Collective:
    """Ring all-reduce: 2 (n - 1) / n x tokens x h x 2 B over the link."""
    if link is None:
        return Collective()
    per_token = 2.0 * (size - 1) / size * hidden * 2.0 / link.bytes_per_s
    if per_rank:
        return Collective(link.latency_s, 0.0, per_token)
    return Collective(link.latency_s, per_token, 0.0)


def _all_to_all(fabric: Fabric, size: int, hidden: int, top_k: int) -> Collective:
    """Dispatch + combine of each rank token to its k experts' GPUs, NVLink inside the
    node and RDMA across nodes (``moe_cost.dispatch_combine_s``)."""
    nvlink = fabric.scaleup_gbs if fabric.scaleup_domain > 1 else fabric.pcie_gbs
    volume = top_k * hidden * ALL_TO_ALL_BYTES_PER_VALUE
    latency, per_byte = dispatch_combine_s(
        size, fabric.gpus_per_node, nvlink, fabric.scaleout_gbs, volume
    )
    return Collective(latency, 0.0, per_byte)


def experts_touched(experts: int, top_k: int, tokens: float) -> float:
    """Expected distinct experts B tokens touch choosing k of E: E (1 - (1 - k/E)^B)."""
    if not experts:
        return 0.0
    return experts * (1.0 - (1.0 - top_k / experts) ** tokens)


class LayoutCost:
    """One layout's per-GPU memory and its decode/prefill timing model."""

    def __init__(
        self,
        m: ModelArch,
        fabric: Fabric,
        needs: ServingNeeds,
        rates: DeviceRates,
        layout: ServingLayout,
    ) -> None:
        self.m, self.needs, self.rates, self.layout = m, needs, rates, layout
        p, g, tp = layout.pipeline, layout.stage_gpus, layout.attention_tensor
        self.dp = layout.attention_data
        weights = needs.weights
        self.kv_divisor = layout.decode_context if m.is_mla else min(tp, m.kv_heads)
        self.weights_per_gpu = (
            weights.attention / tp + (weights.total - weights.attention) / g
        ) / p
        self.fixed_read_bytes = (
            weights.attention / tp
            + (weights.dense_ffn + weights.shared_experts + weights.head) / g
        ) / p
        self.expert_read_bytes = weights.routed_expert * weights.moe_layers / (g * p)
        self.kv_per_request = needs.kv_bytes_per_request / (self.kv_divisor * p)
        self.kv_read_per_request = needs.kv_read_bytes_per_request / (
            self.kv_divisor * p
        )
        self.logits_per_request = LOGIT_BYTES * m.vocab_size / g
        self.activation_bytes = (
            needs.prefill_chunk_tokens * needs.activation_width * 2.0 / tp
        )
        # busiest expert GPU at a prefill chunk (prefill and the all-to-all volume)
        self.imbalance = self._imbalance(needs.prefill_chunk_tokens)
        self.copy_bytes = routed_copy_bytes(m.hidden_size, m.expert_ffn_size)
        self.collective = self._layer_collective(fabric)
        self.stage_collective = self.collective.scaled(m.layers / p)
        self.prefill_latency_s, self.prefill_work_s, self.prefill_alone_s = (
            self._prefill()
        )
        self.prefill_chunks = prefill_chunks(
            needs.context_tokens, needs.prefill_chunk_tokens
        )
        self._steps: dict[int, float] = {}
        self._ttfts: dict[tuple[int, int], float] = {}
        self._spans: dict[tuple[int, float, int], float] = {}

    # ------------------------------------------------------------------ memory

    def max_batch(self) -> int:
        """Requests whose cache fits beside weights and activations (0: none)."""
        room = (
            self.rates.memory_budget_bytes
            - self.weights_per_gpu
            - self.activation_bytes
        )
        per_rank = self.kv_per_request + self.dp * self.logits_per_request
        if room <= 0:
            return 0
        return int(room // per_rank) * self.dp

    def memory(self, batch: int) -> InferenceMemory:
        """One GPU at ``batch`` requests per replica."""
        kv = math.ceil(batch / self.dp) * self.kv_per_request
        activations = self.activation_bytes + batch * self.logits_per_request
        overhead = RUNTIME_CONTEXT_BYTES + CUDA_GRAPH_BYTES
        return InferenceMemory(self.weights_per_gpu, kv, activations, overhead)

    # ------------------------------------------------------------------ timing

    def _layer_collective(self, fabric: Fabric) -> Collective:
        """Collectives of one layer (averaged over dense and MoE layers). Tensor-parallel
        attention all-reduces its output; FFNs all-reduce over the stage, except MoE
        layers behind data-parallel attention, which dispatch and combine tokens
        all-to-all."""
        m, layout = self.m, self.layout
        hidden, width = m.hidden_size, layout.stage_gpus
        attention_link = group_link(layout.attention_tensor, fabric)
        stage_link = group_link(width, fabric)
        attention = _all_reduce(
            attention_link, layout.attention_tensor, hidden, per_rank=True
        )
        ffn = _all_reduce(stage_link, width, hidden, per_rank=False)
        moe = ffn
        if self.dp > 1 and layout.expert_parallel > 1:
            top_k = self.needs.weights.active_experts
            moe = _all_to_all(fabric, width, hidden, top_k)
            moe = Collective(
                moe.latency_s, moe.per_token_s, moe.per_rank_token_s * self.imbalance
            )
        moe_share = self.needs.weights.moe_layers / m.layers
        layer = attention + ffn.scaled(1.0 - moe_share) + moe.scaled(moe_share)
        return layer + self._striping(attention_link)

    def _striping(self, link: Link | None) -> Collective:
        """Decode context parallelism: gather every head's latent query, then exchange
        partial outputs (+ LSE) over the TP group, 2 x heads x (kv_lora + rope +
        kv_lora) B per rank token (absorbed MLA, bf16)."""
        ranks = self.layout.decode_context
        if ranks <= 1 or link is None:
            return Collective()
        m = self.m
        latent = (
            (m.kv_lora_rank or 0) + (m.qk_rope_head_dim or 0) + (m.kv_lora_rank or 0)
        )
        volume = m.attention_heads * latent * 2.0 * (ranks - 1) / ranks
        return Collective(2.0 * link.latency_s, 0.0, volume / link.bytes_per_s)

    def _prefill(self) -> tuple[float, float, float]:
        """(latency of one request's prefill beside running decodes, replica time it
        consumes when many are batched, latency of a step of prefill alone: at least
        its weights read). Attention runs on the request's attention rank, FFNs on the
        stage."""
        needs, rates, layout = self.needs, self.rates, self.layout
        p, g, tp = layout.pipeline, layout.stage_gpus, layout.attention_tensor
        context = needs.context_tokens
        attention_s = (
            2.0 * needs.attention_params * context / rates.gemm_flops_per_s
            + needs.prefill_core_flops / rates.attention_flops_per_s
        )
        routed = needs.routed_active_params * self.imbalance
        ffn_params = needs.ffn_active_params - needs.routed_active_params + routed
        ffn_s = 2.0 * ffn_params * context / rates.gemm_flops_per_s
        copies = context * needs.weights.active_experts * needs.weights.moe_layers
        ffn_s += copies * self.imbalance * self.copy_bytes / rates.decode_bytes_per_s
        comm_s = self.collective.scaled(self.m.layers).seconds(context, context)
        compute_s = attention_s / (tp * p) + ffn_s / (g * p)
        # a short prompt is memory-bound: the forward reads every weight it uses once
        # (the dense shards and the experts its tokens touch), stage after stage
        touched = experts_touched(
            needs.weights.experts, needs.weights.active_experts, context
        )
        read_s = p * (self.fixed_read_bytes + self.expert_read_bytes * touched)
        alone_s = max(compute_s, read_s / rates.decode_bytes_per_s) + comm_s
        return compute_s + comm_s, (attention_s + ffn_s) / (g * p), alone_s

    def _imbalance(self, tokens: float) -> float:
        """Busiest expert-parallel GPU over the mean at ``tokens`` per step."""
        weights = self.needs.weights
        return expert_load_imbalance(
            tokens * weights.active_experts,
            self.layout.expert_parallel,
            weights.experts,
            self.needs.expert_load_balancing,
        )

    def _expert_parts(self, tokens: int) -> tuple[float, float, float, float]:
        """(compute of the real routed tokens, compute of their padded rows on the
        busiest GPU, stream of the touched experts' weights, permute/SwiGLU/combine
        traffic) of one stage at ``tokens`` per step, in seconds."""
        needs, rates, layout = self.needs, self.rates, self.layout
        weights = needs.weights
        p, g = layout.pipeline, layout.stage_gpus
        copies = tokens * weights.active_experts
        imbalance = self._imbalance(tokens)
        touched = experts_touched(weights.experts, weights.active_experts, tokens)
        per_expert = copies / touched
        expert_flops = 2.0 * needs.routed_active_params / weights.active_experts
        per_gpu = touched / g * expert_flops / (p * rates.gemm_flops_per_s)
        real_s = per_gpu * per_expert
        padded_s = per_gpu * imbalance * padded_rows(per_expert)
        stream_s = self.expert_read_bytes * touched / rates.decode_bytes_per_s
        traffic = copies / g * imbalance * self.copy_bytes * weights.moe_layers / p
        return real_s, padded_s, stream_s, traffic / rates.decode_bytes_per_s

    def expert_s(self, tokens: int) -> float:
        """Routed experts of one stage at ``tokens`` per step (``moe_cost``): the
        grouped GEMMs (padded rows at the busiest GPU's share against the touched
        experts' weight stream, with the frameworks' stream loss), plus the routed
        copies' permute/SwiGLU/combine traffic."""
        if not self.needs.weights.experts:
            return 0.0
        _, padded_s, stream_s, traffic_s = self._expert_parts(tokens)
        return grouped_gemm_s(padded_s, stream_s) + traffic_s

    def moe_terms(self, batch: int) -> dict[str, float]:
        """The MoE loss terms at ``batch`` requests per replica (for the explanation):
        busiest expert GPU over the mean, grouped-GEMM efficiency, DP-attention
        barrier, routed-expert time per decode step, one layer's dispatch + combine."""
        tokens = math.ceil(batch / self.layout.pipeline)
        if not self.needs.weights.experts:
            return {}
        barrier = attention_barrier(tokens / self.dp, self.dp)
        per_layer = self.collective.latency_s + self.collective.per_rank_token_s * (
            math.ceil(tokens / self.dp)
        )
        real_s, padded_s, stream_s, _ = self._expert_parts(tokens)
        return {
            "expert_imbalance": self._imbalance(tokens),
            "grouped_gemm_efficiency": grouped_gemm_efficiency(
                real_s, padded_s, stream_s
            ),
            "attention_barrier": barrier,
            "expert_step_s": self.expert_s(tokens) * self.layout.pipeline,
            "layer_collective_s": per_layer,
        }

    def stage_s(self, tokens: int) -> float:
        """One pipeline stage decoding a micro-batch of ``tokens`` requests: the dense
        weight GEMMs, the routed experts, then attention over the cache, each the slower
        of its compute and its memory traffic (separate kernels, one after the other);
        behind data-parallel attention the slowest rank sets the attention time."""
        needs, rates, layout = self.needs, self.rates, self.layout
        p, g, tp = layout.pipeline, layout.stage_gpus, layout.attention_tensor
        rank_tokens = math.ceil(tokens / self.dp)
        dense_ffn = needs.ffn_active_params - needs.routed_active_params
        gemm_flops = (
            2.0 * (rank_tokens * needs.attention_params / tp)
            + 2.0 * tokens * dense_ffn / g
        ) / p
        gemm_s = max(
            gemm_flops / rates.gemm_flops_per_s,
            self.fixed_read_bytes / rates.decode_bytes_per_s,
        )
        core_flops = rank_tokens * needs.decode_core_flops / (tp * p)
        attention_s = max(
            core_flops / rates.attention_flops_per_s,
            rank_tokens * self.kv_read_per_request / rates.decode_bytes_per_s,
        )
        barrier = attention_barrier(tokens / self.dp, self.dp) if self.m.is_moe else 1.0
        return (
            gemm_s
            + self.expert_s(tokens)
            + attention_s * barrier
            + self.stage_collective.seconds(tokens, rank_tokens)
        )

    def decode_step_s(self, batch: int) -> float:
        """p stages, each on its micro-batch of batch / p, plus the stage hops and the
        per-layer fixed overhead (serving_latency)."""
        step = self._steps.get(batch)
        if step is None:
            pipeline = self.layout.pipeline
            stage = self.stage_s(math.ceil(batch / pipeline))
            step = pipeline * stage + (pipeline - 1) * PIPELINE_HOP_S
            step += layer_overhead_s(self.m.layers, self.needs.weights.moe_layers)
            self._steps[batch] = step
        return step

    def tpot_s(self, batch: int) -> float:
        """Time per output token with the batch's prefills interleaved into decoding:
        all the others' when requests arrive steadily, those behind it in a burst
        (B - the prompt tokens before its first token / L, serving_latency)."""
        others = float(batch)
        if self.needs.arrival == "burst":
            # the prompts prefilled after its first token: B - (tokens before it) / L
            before = burst_prefill_tokens(
                batch, self.needs.context_tokens, PREFILL_CHUNK_TOKENS
            )
            others = max(0.0, batch - before / max(self.needs.context_tokens, 1))
        return (
            self.decode_step_s(batch)
            + others * self.prefill_work_s / self.needs.output_tokens
        )

    def turnover_s(self, batch: int) -> float:
        """Time a replica takes to serve ``batch`` requests end to end: every prefill
        and output x the decode step (= output x the steady TPOT, in a burst too:
        its TPOT sees half the prefills, its makespan all of them)."""
        return (
            self.needs.output_tokens * self.decode_step_s(batch)
            + batch * self.prefill_work_s
        )

    @property
    def drains_bursts(self) -> bool:
        """A burst of varied output lengths: its longest outputs set its makespan."""
        return self.needs.arrival == "burst" and self.needs.output_lengths == "varied"

    def burst_span_s(self, batch: int, requests: float, replicas: int = 1) -> float:
        """Makespan of a burst of varied output lengths on one of ``replicas``
        replicas holding ``batch``, ``requests`` of it each (serving_latency)."""
        key = (batch, requests, replicas)
        span = self._spans.get(key)
        if span is None:
            span = burst_makespan_s(
                requests=requests,
                batch=batch,
                mean_output=self.needs.output_tokens,
                step_s=self.decode_step_s,
                prefill_work_s=self.prefill_work_s,
                replicas=replicas,
            )
            self._spans[key] = span
        return span

    def served_per_s(self, batch: int, requests: float, replicas: int = 1) -> float:
        """Requests one replica holding ``batch`` serves per second when ``requests``
        are its share: in a burst of varied output lengths, its share over the
        burst's makespan; otherwise the running ones (at most the batch) per
        turnover."""
        if self.drains_bursts:
            return requests / self.burst_span_s(batch, requests, replicas)
        return min(requests, batch) / self.turnover_s(batch)

    def ttft_s(self, batch: int, requests: int | None = None) -> float:
        """A request joining ``batch`` running ones: queueing, its prefill chunks and
        the decode steps they share; in a burst of ``requests`` (default: the batch)
        arriving at once, the prompts prefilled before its own and the earlier waves
        (serving_latency)."""
        key = (batch, requests or batch)
        ttft = self._ttfts.get(key)
        if ttft is not None:
            return ttft
        if self.needs.arrival == "burst":
            wave = self._burst_ttft(batch, batch, 0.0)
            request_s = wave + self.needs.output_tokens * self.tpot_s(batch)
            ttft = self._burst_ttft(batch, requests or batch, request_s)
        else:
            ttft = ttft_at_batch_s(
                prefill_s=self.prefill_latency_s,
                prefill_work_s=self.prefill_work_s,
                decode_step_s=self.decode_step_s(batch),
                chunks=self.prefill_chunks,
                batch=batch,
                request_s=self.prefill_latency_s
                + self.needs.output_tokens * self.tpot_s(batch),
            )
        self._ttfts[key] = ttft
        return ttft

    def _burst_ttft(self, batch: int, requests: int, request_s: float) -> float:
        # no running decodes share the first step: its prefill alone, weights read
        return ttft_burst_s(
            prefill_s=self.prefill_alone_s,
            prefill_work_s=self.prefill_work_s,
            context_tokens=self.needs.context_tokens,
            step_tokens=PREFILL_CHUNK_TOKENS,
            step_overhead_s=layer_overhead_s(
                self.m.layers, self.needs.weights.moe_layers
            ),
            batch=batch,
            requests=requests,
            request_s=request_s,
        )

    def within_targets(self, batch: int, requests: int | None = None) -> bool:
        """TPOT and TTFT within the targets at ``batch`` (in a burst of ``requests``,
        the waves before it included)."""
        tpot_ms, ttft_ms = self.needs.tpot_ms, self.needs.ttft_ms
        if tpot_ms is not None and self.tpot_s(batch) * 1e3 > tpot_ms:
            return False
        ttft = self.ttft_s(batch, requests)
        return not (ttft_ms is not None and ttft * 1e3 > ttft_ms)
