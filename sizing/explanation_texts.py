"""The explanation table's words in the user's language: what each formula says, the
sources as readable citations, and the units.

The engine writes each explained quantity's formula in symbols and its source as the
file and section the figure was checked against (``hardware-facts.md section 4``,
``accelerators.csv``). A page shows the formula in words (the symbols stay beside it
for the technical reader) and the source with its internal file names said as what
they are; citations of papers and datasheets (authors, titles, years) read the same in
both languages and are kept.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext as gettext_now
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

#: Each quantity's formula in words ("section.key" as the engine writes it).
FORMULA_WORDS: dict[str, Any] = {
    "accelerator": _(
        "The cheapest accelerator buyable in the region that meets the target"
    ),
    "gpu_count": _(
        "The smallest whole number of nodes that meets the target duration and fits in memory"
    ),
    "training.total_flops": _(
        "6 × parameters × tokens plus the attention work, plus the recomputed forward passes (LoRA: (4 + 2 × trainable share) × parameters × tokens)"
    ),
    "training.attention_flops_per_token": _(
        "Attention work per trained token: 12 × the positions each layer attends to × heads × head width; a sliding-window layer counts at most twice its window, a chunked layer its chunk, a linear-attention layer nothing"
    ),
    "training.lora_trainable_share": _(
        "LoRA adapters' parameters (rank × the input and output widths of every adapted matrix) ÷ all parameters"
    ),
    "memory.attention_values_per_token": _(
        "Values per token the attention block keeps for the backward pass: MLA keeps its compressed latents and output (the up-projections are recomputed), other attention its input, queries, keys, values and output"
    ),
    "memory.quantised_params_share": _(
        "Share of the parameters stored at the quantised precision: all weights, the FFN and expert weights (FP4), or the routed experts only (INT4 MoE checkpoints); the rest stays 16-bit"
    ),
    "memory.context_limit_tokens": _(
        "The longest context the model allows: its maximum positions, or its original context × the RoPE scaling factor its card validates (YaRN)"
    ),
    "training.recompute_flops": _(
        "The extra forward pass of the activations that are recomputed"
    ),
    "training.matmul_ceiling": _(
        "The largest share of the peak that matrix multiplications reach in measurements"
    ),
    "training.gemm_time_share": _(
        "Share of a token's time in matrix multiplications: each GEMM takes the longer of its arithmetic at the measured matmul ceiling and its bytes at 90 % of the memory bandwidth, three times (forward, input and weight gradients)"
    ),
    "training.attention_time_share": _(
        "Share of a token's time in FlashAttention: 7/12 of the counted attention work, at 0.68 of the matmul ceiling, in 16-bit"
    ),
    "training.memory_bound_time_share": _(
        "Share of a token's time in memory-bound work (norms, rotary embedding, residual adds, the activation, MoE permutes, FP8 casts, the logits): its bytes at 90 % of the memory bandwidth"
    ),
    "training.exposed_share": _(
        "Communication the step waits for and the pipeline bubble, as a share of the step's compute: tensor, context and pipeline traffic, and the data-parallel traffic beyond the two thirds of the step it overlaps"
    ),
    "training.failures_per_gpu_hour": _(
        "Interruptions per GPU-hour: the buyer's figure, or Llama 3's 419 unexpected interruptions in 54 days on 16,384 GPUs"
    ),
    "training.restart_min": _(
        "Minutes from an interruption to training again: the buyer's figure, or 10 with automated restarts and 120 with manual ones"
    ),
    "training.checkpoint_interval_min": _(
        "The buyer's interval, or the one at which the work lost to a failure (half an interval) equals the time checkpoints stall the steps: 2 × stall share ÷ (failure rate × GPUs), at most 60 minutes (Young's optimum)"
    ),
    "training.failure_loss_share": _(
        "Time lost to failures per hour of training: failure rate × GPUs × (restart time + half the checkpoint interval)"
    ),
    "training.scale_factor": _(
        "Efficiency lost at scale: 1 ÷ (1 + 0.097 × log2(GPUs ÷ 1,024)) above 1,024 GPUs"
    ),
    "training.hfu": _(
        "Hardware FLOPs per token ÷ (the token's time on one GPU × the peak) × the scale factor; compute runs at the step share of the roofline (dense 0.81, MoE 0.37, each calibrated on published steady-state throughputs)"
    ),
    "training.mfu": _(
        "HFU × model FLOPs ÷ hardware FLOPs (recomputation is not useful work)"
    ),
    "training.goodput": _(
        "Share of the time spent training: (1 − checkpoint stall share) ÷ (1 + failures per GPU-hour × GPUs × (restart time + half the checkpoint interval))"
    ),
    "training.peak_tflops": _(
        "The accelerator's dense peak at the training precision (not the sparse figure)"
    ),
    "training.days": _(
        "Total FLOPs ÷ (GPUs × peak × HFU) × (1 + exposed communication and bubble) ÷ goodput, in days"
    ),
    "training.gpu_hours": _("Days × 24 × GPUs"),
    "training.memory_limited": _(
        "Whether the GPU count was raised above the time target so that a layout fits in memory"
    ),
    "training.fits": _(
        "Whether the chosen layout's memory per GPU is within the GPU's memory"
    ),
    "training.fit_remedies": _(
        "When nothing fits: each single change that makes a layout fit, cheapest in GPU-hours first"
    ),
    "memory.weights_gb": _(
        "The weights of the fullest pipeline stage, split over tensor (and expert) parallel GPUs, at 2 bytes per parameter (4 in FP32; ZeRO-3 also splits them over data parallel GPUs)"
    ),
    "memory.gradients_gb": _(
        "Trainable parameters × 2 bytes (4 in FP32), split over data parallel GPUs from ZeRO-2"
    ),
    "memory.optimizer_gb": _(
        "Trainable parameters × 12 bytes (FP32 master weights and Adam's two moments), split over data parallel GPUs from ZeRO-1"
    ),
    "memory.activations_gb": _(
        "Activations per layer and micro-batch (Korthikanti et al. 2022) × the stage's layers × micro-batches in flight, split over tensor and context parallel GPUs"
    ),
    "memory.pipeline_stage": _("The pipeline stage that needs the most memory"),
    "memory.stage_layers": _("Layers ÷ pipeline stages, rounded per stage"),
    "memory.in_flight_micro_batches": _(
        "Micro-batches held at once on that stage under the pipeline schedule"
    ),
    "memory.kv_cache_gb": _("KV cache per GPU (none in training)"),
    "memory.kv_cache_bytes_per_token": _(
        "2 × layers × KV heads × head dimension × bytes per value (MLA: layers × compressed width × bytes)"
    ),
    "memory.overhead_gb": _(
        "1 GB of runtime context plus 5 % allocator fragmentation (training) or the 0.5 GiB CUDA-graph pool (serving)"
    ),
    "memory.per_gpu_gb": _("The sum of the lines above"),
    "memory.capacity_gb": _("The accelerator's memory (vendor's GB)"),
    "memory.headroom_share": _(
        "1 − memory needed ÷ memory capacity (layouts keep at least 10 % free)"
    ),
    "parallelism.tensor": _(
        "Among the layouts that fit with 10 % headroom, the one with the least communication and pipeline bubble time"
    ),
    "parallelism.pipeline": _(
        "Among the layouts that fit with 10 % headroom, the one with the least communication and pipeline bubble time"
    ),
    "parallelism.data": _(
        "GPUs ÷ (tensor × pipeline × context parallel degrees) of the chosen layout"
    ),
    "parallelism.zero_stage": _(
        "The ZeRO stage of the chosen layout (0 to 3: how far optimizer states, gradients and weights are split)"
    ),
    "parallelism.context": _(
        "Context parallel degree of the chosen layout (splits long sequences)"
    ),
    "parallelism.expert": _(
        "Expert parallel degree of the chosen layout (MoE experts spread over GPUs)"
    ),
    "parallelism.schedule": _(
        "Pipeline schedule of the chosen layout (1F1B or interleaved 1F1B)"
    ),
    "parallelism.virtual_stages": _("Model chunks per GPU in the interleaved schedule"),
    "parallelism.micro_batches": _(
        "Micro-batches per optimizer step: global batch ÷ (micro-batch × sequence length × data parallel degree)"
    ),
    "parallelism.bubble_share": _(
        "(pipeline stages − 1) ÷ (chunks per GPU × micro-batches) of the step's compute"
    ),
    "parallelism.communication_share": _(
        "Bytes sent by tensor, context, expert, pipeline and data parallelism ÷ (link speed × 0.8), over the step's compute time"
    ),
    "parallelism.attention_data": _(
        "Data-parallel attention ranks per stage, each holding its own requests' KV cache; the fewest GPUs that fit and meet the targets"
    ),
    "parallelism.decode_context": _(
        "GPUs of a tensor parallel group over which the MLA cache is split by token (1: none)"
    ),
    "interconnect.scaleup_domain_gpus": _(
        "GPUs joined by the accelerator's high-speed link (NVLink, xGMI, HCCS or UB)"
    ),
    "interconnect.tensor_parallel_in_domain": _(
        "Whether the tensor parallel degree stays within that domain"
    ),
    "interconnect.scale_out_gbps_per_gpu": _(
        "Data parallel all-reduce and pipeline bytes per step × 8 ÷ (⅔ of the step time) ÷ 0.8 collective efficiency"
    ),
    "interconnect.platform_nics": _("Compute NICs the server platform ships with"),
    "interconnect.platform_nic_gbps": _(
        "The fastest compute NIC of the platform (the fabric's cap)"
    ),
    "interconnect.nics_per_node": _(
        "Training, and a serving replica across nodes: one NIC per GPU (rail-optimised), up to the platform's NIC count — the bandwidth the serving timing assumed; serving replicas within a node: 1 × 200G per 4 GPUs"
    ),
    "interconnect.nic_gbps": _(
        "The slowest of 200/400/800 Gbit/s at least 1.25 × the need, never above the platform's fastest NIC"
    ),
    "interconnect.fabric": _(
        "RDMA for training and for a serving replica across nodes (InfiniBand beyond 32 nodes, else RoCE; Ascend and Gaudi: RoCE); serving replicas within a node: Ethernet"
    ),
    "interconnect.rail_optimized": _(
        "Training with one NIC per GPU: NIC i of every node goes to rail i's leaf switches"
    ),
    "interconnect.switch": _(
        "A switch of the fabric's kind at the NIC speed, from the network catalogue"
    ),
    "interconnect.switch_radix": _("Switch ports at the NIC speed"),
    "interconnect.fat_tree_tiers": _(
        "1 tier if the endpoints fit one switch, 2 if they fit half the ports squared, else 3"
    ),
    "interconnect.leaf_switches": _(
        "Whole rails per leaf within half its ports facing down, else endpoints ÷ half the ports, rounded up"
    ),
    "interconnect.spine_switches": _(
        "Endpoints ÷ ports, rounded up (two tiers, non-blocking); pods × half the ports (three tiers)"
    ),
    "interconnect.core_switches": _(
        "Aggregation switches × half their ports ÷ ports, rounded up"
    ),
    "interconnect.fabric_max_nodes": _(
        "Nodes the leaf switches' down ports take before another leaf is needed"
    ),
    "interconnect.cables": _(
        "Node-to-leaf links + leaf up links + spine-to-core links"
    ),
    "interconnect.growth_option": _(
        "The scalable-unit design: the switches it adds and the nodes it then takes (an option, not counted)"
    ),
    "storage.dataset_tb_now": _(
        "Tokens × 4 bytes (token ids) when no dataset size is given"
    ),
    "storage.dataset_tb": _(
        "Dataset × (1 + growth per year) ^ years; for the whole cluster the larger of the organisation's data so grown and the workloads' datasets"
    ),
    "storage.checkpoint_gb": _(
        "14 bytes × trainable parameters (frozen base weights are not saved again)"
    ),
    "storage.checkpoint_write_gbs": _(
        "Checkpoint size ÷ (stall budget × checkpoint interval)"
    ),
    "storage.read_gbs_per_gpu": _(
        "Tokens per second per GPU × 4 bytes, at least 0.5 GB/s"
    ),
    "storage.read_gbs_total": _("Read bandwidth per GPU × GPUs"),
    "storage.capacity_tb": _(
        "Dataset + checkpoints kept × checkpoint size (for the cluster: the one dataset figure + every workload's checkpoints)"
    ),
    "storage.tiers": _(
        "Local NVMe cache + the smallest parallel file system tier that writes checkpoints fast enough"
    ),
    "storage.parallel_fs_write_gbs": _(
        "The tier's write bandwidth per compute node × nodes"
    ),
    "power.node_kw": _("The vendor's maximum system power per node"),
    "power.it_kw": _("Nodes × power per node (switches and storage not included)"),
    "power.cooling": _(
        "The platform's cooling: liquid for liquid-cooled platforms, else air"
    ),
    "power.cooling_ceiling_kw": _(
        "Air: 50 kW per rack (with containment); liquid: 132 kW"
    ),
    "power.rack_limit_kw": _(
        "The lower of the cooling ceiling and the site's rack limit"
    ),
    "power.nodes_per_rack": _("Rack limit ÷ power per node, rounded down (at least 1)"),
    "power.racks": _("Nodes ÷ nodes per rack, rounded up"),
    "power.rack_kw": _("Nodes per rack × power per node"),
    "power.pue": _("The site's PUE if given, else the default 1.3"),
    "power.facility_kw": _("IT power × PUE"),
    "power.annual_mwh": _("Facility power × 0.75 average load × 8,760 hours ÷ 1,000"),
    "power.feeds_per_rack": _(
        "2 (A and B sides) × rack power ÷ 22 kW per three-phase 32 A feed, rounded up"
    ),
    "power.redundant_feeds": _("Whether every rack has A and B power feeds"),
    "power.tflops_per_kw": _("Peak TFLOPS of the cluster ÷ IT power"),
    "cost.capex_usd": _("GPUs × price per GPU"),
    "cost.energy_usd": _("Energy per year × years × electricity price"),
    "cost.total_usd": _("GPU capex + energy cost"),
    "inference.ttft_ms": _(
        "Steady arrivals: queue wait (M/D/1) + prefill of one request + one decode step of the running batch per prefill chunk. A burst arriving at once: its prefill + the prompts prefilled with and before it + the waves before it"
    ),
    "inference.burst_prefill_tokens": _(
        "A burst's prompts are prefilled together in steps of at most 8,192 tokens; a request waits on average for (B + 1) × L ÷ 2 + (8,192 ÷ 2) × (B − 1) ÷ B prompt tokens, at most all B × L"
    ),
    "inference.burst_makespan_s": _(
        "All prefills + the full-batch phase while requests queue ((N − B) × mean output × step ÷ B) + the drain: mean output × the integral of the step time as the B running requests finish, until the longest output of all n requests running on the replicas ends (exponential lengths: after about ln n + 0.58 means)"
    ),
    "inference.layer_overhead_ms": _(
        "Layers × 40 µs (about 12 kernels of ~3.3 µs each) + MoE layers × 5 more kernels (router, top-k, sort, quantise, un-permute) × the same floor: the fixed time of a decode step's kernel boundaries, whatever the batch"
    ),
    "inference.concurrency_served": _(
        "Replicas × the largest batch within the latency targets (at most each replica's share of the load)"
    ),
    "inference.concurrency_per_replica": _(
        "Concurrent requests ÷ replicas of the GPU count given, rounded up"
    ),
    "inference.gpus_needed": _(
        "The fewest GPUs that carry the load within the targets (0: no count does)"
    ),
    "inference.tpot_ms": _(
        "Decode step + the batch's prefill work spread over the output tokens (in a burst only the prompts prefilled after its first token: B − the tokens before it ÷ L)"
    ),
    "inference.decode_step_ms": _(
        "Per pipeline stage: the dense weight GEMMs (the larger of compute at the measured GEMM efficiency and bytes read ÷ 70 % of the memory bandwidth), the routed experts, attention × the barrier of the slowest attention rank, and the collectives, plus a fixed overhead per layer"
    ),
    "inference.prefill_ms": _(
        "2 × parameters × context tokens plus the attention core, at half the peak, split over the GPUs, plus the collectives"
    ),
    "inference.peak_tflops": _(
        "The dense peak at the weight precision (FP8/FP4 weights without such tensor cores run at the BF16 peak)"
    ),
    "inference.tokens_per_second": _(
        "Replicas × requests each replica serves per second × output tokens: running requests ÷ (output × decode step + batch × prefill work); in a burst of varied output lengths, its requests ÷ the time to finish the burst"
    ),
    "inference.requests_per_second": _("Tokens per second ÷ output tokens per request"),
    "inference.batch_per_replica": _(
        "The largest batch within memory and the TTFT/TPOT targets"
    ),
    "inference.replicas": _(
        "The larger of (required requests/s ÷ 80 % of one replica's) and (concurrency ÷ batch)"
    ),
    "inference.layouts_searched": _(
        "Pipeline × stage width × attention split, smallest first, until no larger layout can need fewer GPUs"
    ),
    "inference.weights_total_gb": _(
        "Parameters × bytes per parameter at the weight precision (MXFP4/NVFP4: FFN and expert weights at 4.25/4.5 bits)"
    ),
    "inference.kv_precision": _("As chosen (default BF16; FP8 halves the cache)"),
    "inference.kv_cache_gb_per_request": _(
        "KV bytes per token and layer × (context + output) tokens on full-attention layers, at most the window or chunk on local layers, plus the fixed state of linear-attention layers"
    ),
    "inference.max_batch_by_memory": _(
        "(Memory budget − weights − activations) ÷ KV cache per request"
    ),
    "inference.memory_budget_gb": _(
        "The serving engine's memory fraction × the memory the GPU reports, minus the runtime context (1 GB) and the CUDA-graph pool (0.5 GiB)"
    ),
    "inference.gemm_efficiency": _(
        "Share of the dense peak the weight GEMMs reach: half the peak × the measured large-GEMM share of the number format relative to Hopper BF16 (FP8 0.975, FP4 tensor cores 0.5)"
    ),
    "inference.linear_state_gb_per_request": _(
        "Linear-attention / state-space layers × their fixed state per sequence, which does not grow with the context"
    ),
    "inference.expert_imbalance": _(
        "Load of the busiest expert-parallel GPU ÷ the mean: 1 + √(2 ln GPUs) × √(routing skew² × GPUs ÷ experts + GPUs ÷ routed tokens); the skew term vanishes with expert load balancing"
    ),
    "inference.grouped_gemm_efficiency": _(
        "Roofline time of the real tokens ÷ modelled time: the slower of the padded rows' compute (64-row tiles, 8 below 64, × the busiest GPU's imbalance) and the touched experts' weight stream, + 1.25 × that stream (the serving frameworks' grouped-GEMM loss)"
    ),
    "inference.attention_barrier": _(
        "Slowest data-parallel attention rank ÷ the mean, which every MoE layer waits for: 1 + √(2 ln ranks) ÷ √(requests per rank)"
    ),
    "inference.expert_step_ms": _(
        "Routed experts per decode step: the slower of their grouped GEMMs' padded rows (× the imbalance) and the stream of the touched experts' weights, + 1.25 × that stream, plus the permute, activation and combine traffic of every routed token (7 × hidden + 9 × expert width bytes)"
    ),
    "inference.layer_collective_ms": _(
        "One layer's collectives at the plan's batch; MoE dispatch + combine send each token to its k experts (3 bytes per value), over NVLink inside the node and RDMA between nodes at the bandwidths DeepEP measures (77 % and 86 % of the links')"
    ),
    "inference.experts_touched": _(
        "Distinct experts the batch's tokens choose per MoE layer and decode step (0: dense model)"
    ),
}

#: Units of the explanation beyond ``messages.UNIT_LABELS``: a dimensionless ratio or
#: share or a yes/no shows no unit.
EXTRA_UNIT_LABELS: dict[str, Any] = {
    "ratio": "",
    "GPU-h": pgettext_lazy("unit", "GPU-hours"),
    "tokens/s": pgettext_lazy("unit", "tokens/s"),
}

#: Internal file references and English phrases of the engine's sources, as a reader
#: should see them (longest first when applied).
_SOURCE_PHRASES: dict[str, Any] = {
    "Prices not found in stored sources": _("no published price found"),
    "calibrated on published runs": _("calibrated on published training runs"),
    "Epoch Hardware prices.csv": _("Epoch AI hardware price data (2024)"),
    "accelerators.csv": _("the accelerator's datasheet (hardware catalogue)"),
    "servers.csv": _("the server platform's datasheet (hardware catalogue)"),
    "network.csv": _("the switch's datasheet (network catalogue)"),
    "cost-figures.md": _("ClusterBuy cost figures"),
    "docs/methodology.md": _("ClusterBuy methodology"),
    "engine heuristic": _("ClusterBuy rule of thumb"),
    "engine default": _("ClusterBuy default"),
    "buyer input": _("the buyer's input"),
    "memory section": _("the memory lines above"),
    "keep TP inside the NVLink domain": _(
        "keep tensor parallelism inside the NVLink domain"
    ),
    "Llama 3: 419 unexpected interruptions in 54 days on 16,384 GPUs": _(
        "Llama 3 paper: 419 unexpected interruptions in 54 days on 16,384 GPUs"
    ),
    "expected distinct experts of B tokens each choosing k of E": _(
        "expected number of distinct experts when B tokens each choose k of E"
    ),
}
#: "hardware-facts.md section 4", "sizing-formulas pitfall 3": a section of one of
#: ClusterBuy's reference notes.
_NOTE = re.compile(
    r"(hardware-facts(?:\.md)?|sizing-formulas)(?: (section|pitfall))?"
    r" ?(\d+[a-z]?(?:[-/]\d*[a-z]?)?(?:-\d+)?)?"
)
_NOTE_NAMES = {
    "hardware-facts": _("ClusterBuy hardware facts"),
    "sizing-formulas": _("ClusterBuy sizing formulas"),
}


def _note(match: re.Match) -> str:
    name = str(_NOTE_NAMES[match.group(1).removesuffix(".md")])
    kind, number = match.group(2), match.group(3)
    if not number:
        return name
    if kind == "pitfall":
        return gettext_now("%(note)s, pitfall %(n)s") % {"note": name, "n": number}
    return gettext_now("%(note)s §%(n)s") % {"note": name, "n": number}


def readable_source(source: str) -> str:
    """The source with ClusterBuy's internal file names said as what they are."""
    if not source:
        return ""
    text = _NOTE.sub(_note, source)
    for phrase in sorted(_SOURCE_PHRASES, key=len, reverse=True):
        if phrase in text:
            text = text.replace(phrase, str(_SOURCE_PHRASES[phrase]))
    return text


def formula_words(key: str) -> str:
    """The formula of quantity ``key`` ("section.key") in words; "" if none."""
    words = FORMULA_WORDS.get(key)
    return str(words) if words is not None else ""
