"""Entry points: ``estimate`` (one workload) and ``plan_cluster`` (several on one cluster).

With no accelerator given, the catalogue accelerators available in the buyer's region are
ranked by the cost to meet the target: GPUs x indicative price (in USD at the constraints'
fx rate; GPU-only prices x 1.4 to a server share) plus energy over the planning horizon.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .catalog import Accelerator, Catalog, ServerPlatform
from .errors import SizingInputError
from .explain import Explainer
from .inference import InferencePlan, plan_inference
from .memory import GB, MEMORY_HEADROOM
from .model import param_counts
from .network import size_interconnect
from .parallelism import COLLECTIVE_EFFICIENCY, OVERLAP_WINDOW_SHARE, Fabric
from .platform import fabric_for, server_for
from .power import AIR_MAX_RACK_KW, AVERAGE_LOAD_SHARE, PUE_AIR, size_power
from .result import Bottleneck, ClusterPlan, SizingResult
from .storage import size_storage
from .training import TrainingPlan, plan_training
from .workload import Constraints, Workload

ENGINE_VERSION = "sizing-1.0.0"
# Server price over GPU price: ~1.4 for DGX H100 (SemiAnalysis BoM via Epoch; cost-figures).
SERVER_COST_RATIO = 1.4
# Electricity: US industrial 2025 $0.0826/kWh (EIA via Epoch); China ~$0.088 (China Briefing).
ELECTRICITY_USD_PER_KWH = {"global": 0.0826, "cn": 0.088}
SRC_MEM = "Korthikanti et al. 2022; ZeRO (Rajbhandari et al. 2020); sizing-formulas 3-5"


@dataclass(frozen=True)
class Core:
    acc: Accelerator
    server: ServerPlatform
    fabric: Fabric
    workload: Workload
    training: TrainingPlan | None
    inference: InferencePlan | None

    @property
    def gpus(self) -> int:
        return self.training.gpus if self.training else self.inference.gpus  # type: ignore

    @property
    def nodes(self) -> int:
        return math.ceil(self.gpus / self.server.gpus_per_node)

    @property
    def node_kw(self) -> float:
        return float(self.server.node_max_kw or 0.0)

    def scale_out_need_gbps(self) -> float:
        if not self.training or self.nodes <= 1:
            return 0.0
        c = self.training.choice
        window = OVERLAP_WINDOW_SHARE * c.step_compute_s
        if window <= 0:
            return 0.0
        return (c.dp_bytes + c.pp_bytes) / window / COLLECTIVE_EFFICIENCY * 8.0 / 1e9

    def tokens_per_s_per_gpu(self) -> float:
        if not self.training or self.training.days <= 0:
            return 0.0
        tokens = (self.workload.tokens_b or 0.0) * 1e9
        return tokens / (self.training.days * 86400.0) / self.gpus


def _core(w: Workload, acc: Accelerator, catalog: Catalog) -> Core:
    server = server_for(acc, catalog)
    fabric = fabric_for(acc, server)
    if w.is_training:
        return Core(acc, server, fabric, w, plan_training(acc, server, fabric, w), None)
    return Core(acc, server, fabric, w, None, plan_inference(acc, server, fabric, w))


def price_usd_per_gpu(acc: Accelerator, c: Constraints) -> float | None:
    if acc.price is None:
        return None
    usd = acc.price / c.fx_cny_per_usd if acc.price_currency == "CNY" else acc.price
    return usd * (SERVER_COST_RATIO if acc.price_basis == "gpu" else 1.0)


def _cost(core: Core, c: Constraints) -> dict:
    price = price_usd_per_gpu(core.acc, c)
    capex = None if price is None else price * core.gpus
    pue = c.pue or PUE_AIR
    kwh_price = c.electricity_usd_per_kwh or ELECTRICITY_USD_PER_KWH.get(
        c.region, 0.0826
    )
    energy = (
        core.nodes
        * core.node_kw
        * pue
        * AVERAGE_LOAD_SHARE
        * 8760.0
        * c.planning_years
        * kwh_price
    )
    return {
        "capex_usd": capex,
        "energy_usd": energy,
        "total_usd": None if capex is None else capex + energy,
        "price_usd_per_gpu": price,
        "price_date": core.acc.price_date,
        "fx_cny_per_usd": c.fx_cny_per_usd,
        "electricity_usd_per_kwh": kwh_price,
        "planning_years": c.planning_years,
    }


def _accelerator(catalog: Catalog, key: str) -> Accelerator:
    if key not in catalog.accelerators:
        raise SizingInputError(f"unknown accelerator {key!r}", field="accelerator")
    return catalog.accelerators[key]


def _rank(
    w: Workload, catalog: Catalog, c: Constraints
) -> list[tuple[float, Core, dict]]:
    ranked: list[tuple[float, Core, dict]] = []
    pool = [
        a
        for a in catalog.accelerators.values()
        if a.status_in(c.region) in ("available", "conditional") and a.price is not None
    ]
    if c.preferred_ecosystem and any(
        a.ecosystem == c.preferred_ecosystem for a in pool
    ):
        pool = [a for a in pool if a.ecosystem == c.preferred_ecosystem]
    for acc in pool:
        try:
            core = _core(w, acc, catalog)
        except SizingInputError:
            continue
        if core.training and not core.training.choice.fits:
            continue
        if core.inference and not (
            core.inference.fits and core.inference.meets_latency
        ):
            continue
        cost = _cost(core, c)
        ranked.append((cost["total_usd"], core, cost))
    ranked.sort(key=lambda r: (r[0], r[1].acc.key))
    return ranked


def _tradeoffs(
    core: Core, cost: dict, best: tuple[float, Core, dict], c: Constraints
) -> list[str]:
    out = []
    best_total = best[0]
    if core is not best[1] and best_total:
        out.append(
            f"{(cost['total_usd'] / best_total - 1) * 100:.0f}% more than the cheapest"
        )
    if core.training:
        out.append(f"{core.training.days:.1f} days on {core.gpus} GPUs")
    if core.inference:
        out.append(
            f"TTFT {core.inference.ttft_s * 1e3:.0f} ms, TPOT "
            f"{core.inference.tpot_s * 1e3:.1f} ms on {core.gpus} GPUs"
        )
    if core.acc.ecosystem != "cuda":
        out.append(
            f"{core.acc.ecosystem.upper()} software stack: {core.acc.framework_notes}"
        )
    if core.acc.status_in(c.region) == "conditional":
        out.append(f"availability conditional: {core.acc.china_availability}")
    if core.acc.is_estimate:
        out.append("specifications or price are estimates (no datasheet)")
    return out


def estimate(
    workload: Workload,
    catalog: Catalog,
    accelerator_key: str | None = None,
    constraints: Constraints | None = None,
) -> SizingResult:
    c = constraints or Constraints()
    alternatives: list[dict] = []
    if accelerator_key is not None:
        core = _core(workload, _accelerator(catalog, accelerator_key), catalog)
        cost = _cost(core, c)
    else:
        ranked = _rank(workload, catalog, c)
        if not ranked:
            raise SizingInputError(
                f"no priced accelerator available in region {c.region!r} can run this "
                "workload",
                field="accelerator",
            )
        _, core, cost = ranked[0]
        for total, alt, alt_cost in ranked[:3]:
            alternatives.append(
                {
                    "accelerator": alt.acc.key,
                    "name": alt.acc.name,
                    "gpu_count": alt.gpus,
                    "total_usd": total,
                    "capex_usd": alt_cost["capex_usd"],
                    "energy_usd": alt_cost["energy_usd"],
                    "days": alt.training.days if alt.training else None,
                    "tokens_per_second": alt.inference.tokens_per_second
                    if alt.inference
                    else None,
                    "chosen": alt is core,
                    "trade_offs": _tradeoffs(alt, alt_cost, ranked[0], c),
                }
            )
    return _build(core, cost, catalog, c, alternatives)


# ----------------------------------------------------------------------------- building


def _memory_section(core: Core, ex: Explainer) -> dict:
    w, acc, out, s = core.workload, core.acc, {}, "memory"
    from .model import kv_cache_bytes_per_token

    kv_tok = kv_cache_bytes_per_token(w.model, w.kv_cache_precision)
    if core.training:
        mem = core.training.choice.memory
        lay = core.training.choice.layout
        inputs = {
            "tensor": lay.tensor,
            "pipeline": lay.pipeline,
            "data": lay.data,
            "zero_stage": lay.zero_stage,
            "precision": w.precision,
            "optimizer": w.optimizer,
            "recompute": w.recompute,
        }
        ex.put(
            out,
            s,
            "weights_gb",
            mem.weights / GB,
            "GB",
            "params / (t x p) x 2 B (4 B fp32), / d under ZeRO-3 + 4 x largest layer",
            inputs,
            SRC_MEM,
        )
        ex.put(
            out,
            s,
            "gradients_gb",
            mem.gradients / GB,
            "GB",
            "trainable params / (t x p) x 2 B (4 B fp32 accumulation), / d from ZeRO-2",
            inputs,
            SRC_MEM,
        )
        ex.put(
            out,
            s,
            "optimizer_gb",
            mem.optimizer / GB,
            "GB",
            "trainable / (t x p) x 12 B (fp32 master + Adam m, v), / d from ZeRO-1",
            inputs,
            SRC_MEM,
        )
        ex.put(
            out,
            s,
            "activations_gb",
            mem.activations / GB,
            "GB",
            "per layer s b h (18 + 4f/h [+2f/h gated]) [+ 5 a s^2 b without recompute] / t "
            "x L/p layers x min(p, m) in flight; or last stage + fp32 logits b s V x 4 / t",
            {**inputs, "seq_len": w.seq_len, "micro_batch": w.micro_batch},
            "Korthikanti et al. 2022, eq. 2 and Table 2",
        )
        ex.put(out, s, "kv_cache_gb", None, "GB", "not applicable to training", {}, "")
        overhead = mem.overhead
        total = mem.total
    else:
        plan = core.inference
        assert plan is not None
        mem = plan.memory
        inputs = {
            "tensor": plan.tensor,
            "pipeline": plan.pipeline,
            "precision": w.precision,
            "batch": plan.batch_per_replica,
        }
        ex.put(
            out,
            s,
            "weights_gb",
            mem.weights / GB,
            "GB",
            "params x bytes(precision) / (t x p)",
            inputs,
            "sizing-formulas section 2",
        )
        ex.put(
            out, s, "gradients_gb", None, "GB", "not applicable to inference", {}, ""
        )
        ex.put(
            out, s, "optimizer_gb", None, "GB", "not applicable to inference", {}, ""
        )
        ex.put(
            out,
            s,
            "activations_gb",
            mem.activations / GB,
            "GB",
            "prefill chunk x (4h + 2f) x 2 B / t + fp32 logits row",
            inputs,
            "engine assumption (docs/methodology.md)",
        )
        ex.put(
            out,
            s,
            "kv_cache_gb",
            mem.kv_cache / GB,
            "GB",
            "kv_bytes_per_token x (context + output) x batch / min(t, kv_heads) / p",
            {**inputs, "context": w.context_tokens, "output": w.output_tokens},
            "sizing-formulas section 5",
        )
        overhead, total = mem.overhead, mem.total
    ex.put(
        out,
        s,
        "kv_cache_bytes_per_token",
        kv_tok,
        "B",
        "2 x layers x kv_heads x head_dim x bytes (MLA: layers x (d_c + d_rope) x bytes)",
        {
            "layers": w.model.layers,
            "kv_heads": w.model.kv_heads,
            "head_dim": w.model.head_dim,
            "kv_precision": w.kv_cache_precision,
        },
        "sizing-formulas section 5",
    )
    ex.put(
        out,
        s,
        "overhead_gb",
        overhead / GB,
        "GB",
        "1 GB runtime context + 5 % allocator fragmentation",
        {},
        "sizing-formulas pitfall 3 (CUDA context 0.65-1 GB)",
    )
    ex.put(out, s, "per_gpu_gb", total / GB, "GB", "sum of the above", {}, SRC_MEM)
    ex.put(
        out,
        s,
        "capacity_gb",
        acc.memory_gb,
        "GB",
        "accelerator memory (vendor GB)",
        {},
        acc.source[:200],
    )
    ex.put(
        out,
        s,
        "headroom_share",
        1.0 - total / (acc.memory_gb * GB),
        "share",
        "1 - per_gpu_gb / capacity_gb (layouts keep >= 10 %)",
        {},
        "",
    )
    return out


def _training_section(core: Core, ex: Explainer) -> dict:
    tp, w, out, s = core.training, core.workload, {}, "training"
    assert tp is not None
    ex.put(
        out,
        s,
        "total_flops",
        tp.total_flops,
        "FLOP",
        "(6N + 12 L s H Q) x D [+ recompute: full 2N + 4LsHQ, selective 4LsHQ per token]; "
        "LoRA (4 + 2f) N",
        {
            "params_active": param_counts(w.model)[1],
            "tokens": (w.tokens_b or 0) * 1e9,
            "seq_len": w.seq_len,
            "recompute": w.recompute,
            "model_flops": tp.model_flops,
            "recompute_flops": tp.recompute_flops,
        },
        "Kaplan et al. 2020; PaLM (Chowdhery et al. 2022) App. B; Korthikanti et al. 2022",
    )
    ex.put(
        out,
        s,
        "mfu",
        tp.mfu,
        "share",
        "override"
        if tp.mfu_overridden
        else "family base x scale factor (-5 %/doubling above 1,024 GPUs) x 0.55 for FP8 x 0.85 "
        "for MoE",
        {"family": core.acc.family, "gpus": tp.gpus, "precision": w.precision},
        "calibrated on Llama 2, Llama 3.1 405B, DeepSeek-V3 (docs/methodology.md)",
    )
    ex.put(
        out,
        s,
        "goodput",
        tp.goodput,
        "share",
        "1 / (1 + N x 1.97e-5 /GPU-h x 0.25 h) x (1 - checkpoint stall share)",
        {"gpus": tp.gpus, "stall_share": w.checkpoint_stall_share},
        "Llama 3: 419 unexpected interruptions in 54 days on 16,384 GPUs",
    )
    ex.put(
        out,
        s,
        "peak_tflops",
        tp.peak_tflops,
        "TFLOPS",
        f"dense {w.precision} peak per GPU (not sparse)",
        {},
        "accelerators.csv",
    )
    ex.put(
        out,
        s,
        "days",
        tp.days,
        "days",
        "total_flops / (GPUs x peak x MFU) / goodput / 86400",
        {
            "gpus": tp.gpus,
            "peak_tflops": tp.peak_tflops,
            "mfu": tp.mfu,
            "goodput": tp.goodput,
        },
        "sizing-formulas section 7",
    )
    ex.put(out, s, "gpu_hours", tp.gpu_hours, "GPU-h", "days x 24 x GPUs", {}, "")
    ex.put(
        out,
        s,
        "memory_limited",
        tp.memory_limited,
        "bool",
        "GPU count raised above the time target so a layout fits",
        {},
        "",
    )
    return out


def _inference_section(core: Core, ex: Explainer) -> dict:
    p, w, out, s = core.inference, core.workload, {}, "inference"
    assert p is not None
    inputs = {
        "peak_tflops": p.peak_tflops,
        "mem_bw_tbs": p.mem_bw_tbs,
        "tensor": p.tensor,
        "batch": p.batch_per_replica,
        "context": w.context_tokens,
        "output": w.output_tokens,
    }
    ex.put(
        out,
        s,
        "ttft_ms",
        p.ttft_s * 1e3,
        "ms",
        "(2 N ctx + 2 L ctx^2 H Q) / (t x peak x 0.5) + one decode step",
        inputs,
        "sizing-formulas section 9",
    )
    ex.put(
        out,
        s,
        "tpot_ms",
        p.tpot_s * 1e3,
        "ms",
        "max(compute, (weights/t + batch x KV read / min(t, kv)) / (HBM BW x 0.7)) + "
        "batch x prefill / output tokens",
        inputs,
        "sizing-formulas section 9",
    )
    ex.put(
        out,
        s,
        "tokens_per_second",
        p.tokens_per_second,
        "tokens/s",
        "replicas x batch / TPOT (output tokens, whole deployment, at the SLO)",
        {"replicas": p.replicas},
        "sizing-formulas pitfall 9 (size at the SLO)",
    )
    ex.put(
        out,
        s,
        "requests_per_second",
        p.requests_per_second,
        "requests/s",
        "tokens_per_second / output tokens",
        {},
        "",
    )
    ex.put(
        out,
        s,
        "batch_per_replica",
        p.batch_per_replica,
        "requests",
        "largest batch within memory and the TTFT/TPOT targets",
        {},
        "",
    )
    ex.put(
        out,
        s,
        "replicas",
        p.replicas,
        "replicas",
        "max(required rps / (0.8 x replica rps), concurrency / batch)",
        {"required_rps": p.required_rps, "concurrency": p.required_concurrency},
        "",
    )
    return out


def _bottlenecks(
    core: Core, result: dict, c: Constraints, cost: dict
) -> list[Bottleneck]:
    acc, w, out = core.acc, core.workload, []
    status = acc.status_in(c.region)
    if status == "restricted":
        out.append(
            Bottleneck(
                "accelerator_not_available_in_region",
                "error",
                f"{acc.name} is not available in region {c.region!r}: "
                f"{acc.china_availability}",
                status,
                "available",
            )
        )
    elif status == "conditional":
        out.append(
            Bottleneck(
                "accelerator_availability_conditional",
                "warning",
                f"{acc.name}: {acc.china_availability} "
                f"(as of {acc.china_availability_date})",
                status,
                "available",
            )
        )
    mem = result["memory"]
    capacity = acc.memory_gb
    if mem["per_gpu_gb"] > capacity:
        out.append(
            Bottleneck(
                "memory_exceeds_capacity",
                "error",
                "the job does not fit in GPU memory with any layout searched",
                mem["per_gpu_gb"],
                capacity,
                "GB",
            )
        )
    elif mem["per_gpu_gb"] > (1.0 - MEMORY_HEADROOM) * capacity:
        out.append(
            Bottleneck(
                "memory_headroom_low",
                "warning",
                "less than 10 % of GPU memory left free",
                mem["per_gpu_gb"],
                (1.0 - MEMORY_HEADROOM) * capacity,
                "GB",
            )
        )
    net = result["interconnect"]
    have = core.server.nic_count * core.server.nic_gbps / core.server.gpus_per_node
    if net["scale_out_gbps_per_gpu"] > have and core.nodes > 1:
        out.append(
            Bottleneck(
                "network_below_need",
                "warning",
                "the platform's NICs per GPU are below the gradient traffic "
                "need; communication will not hide behind compute",
                net["scale_out_gbps_per_gpu"],
                have,
                "Gbit/s",
            )
        )
    if core.training:
        t = core.training.choice.layout.tensor
        if t > acc.scaleup_domain_gpus:
            out.append(
                Bottleneck(
                    "tensor_parallel_over_pcie",
                    "warning",
                    f"tensor parallel degree {t} exceeds the {acc.name} "
                    "scale-up domain: TP traffic crosses PCIe",
                    t,
                    acc.scaleup_domain_gpus,
                    "GPUs",
                )
            )
        if core.training.memory_limited:
            out.append(
                Bottleneck(
                    "gpu_count_set_by_memory",
                    "info",
                    "more GPUs than the time target needs, to fit in memory",
                    core.gpus,
                    None,
                    "GPUs",
                )
            )
        if w.target_days and core.training.days > w.target_days * 1.0001:
            out.append(
                Bottleneck(
                    "target_days_missed",
                    "warning",
                    "the GPU count given does not meet the target days",
                    core.training.days,
                    w.target_days,
                    "days",
                )
            )
        if w.precision == "fp8":
            out.append(
                Bottleneck(
                    "fp8_peak_rarely_reached",
                    "info",
                    "FP8 runs reach ~55 % of their BF16 MFU against the FP8 "
                    "peak (DeepSeek-V3 ~21 % of H800 FP8 peak)",
                    core.training.mfu,
                    None,
                    "share",
                )
            )
    st = result["storage"]
    if core.training and st["parallel_fs_write_gbs"] < st["checkpoint_write_gbs"]:
        out.append(
            Bottleneck(
                "storage_below_checkpoint_need",
                "warning",
                "the fastest parallel-FS tier cannot write a checkpoint "
                "within the stall budget",
                st["parallel_fs_write_gbs"],
                st["checkpoint_write_gbs"],
                "GB/s",
            )
        )
    if core.inference:
        p = core.inference
        if not p.meets_latency:
            out.append(
                Bottleneck(
                    "latency_target_unmet",
                    "error",
                    "even one request per replica misses the TTFT/TPOT target",
                    p.tpot_s * 1e3,
                    w.tpot_ms,
                    "ms",
                )
            )
        if w.gpu_count and p.required_rps and p.requests_per_second < p.required_rps:
            out.append(
                Bottleneck(
                    "throughput_below_target",
                    "warning",
                    "the GPU count given serves less than the target load",
                    p.requests_per_second,
                    p.required_rps,
                    "requests/s",
                )
            )
    pw = result["power"]
    if c.rack_power_limit_kw and core.node_kw > c.rack_power_limit_kw:
        out.append(
            Bottleneck(
                "rack_power_above_site_limit",
                "error",
                "one node draws more than the site's rack power limit",
                core.node_kw,
                c.rack_power_limit_kw,
                "kW",
            )
        )
    if pw["cooling"] == "liquid" and not c.liquid_cooling_ok:
        out.append(
            Bottleneck(
                "liquid_cooling_required",
                "error",
                "racks exceed what air can remove or the platform is "
                "liquid-cooled, and the site has no liquid cooling",
                pw["rack_kw"],
                AIR_MAX_RACK_KW,
                "kW",
            )
        )
    if acc.ecosystem != "cuda":
        out.append(
            Bottleneck(
                "software_stack_risk",
                "warning",
                f"{acc.ecosystem.upper()}: {acc.framework_notes}",
                acc.ecosystem,
                "cuda",
            )
        )
    if acc.is_estimate:
        out.append(
            Bottleneck(
                "estimated_specifications",
                "warning",
                f"{acc.name}: no vendor datasheet; figures are estimates",
                None,
                None,
            )
        )
    if c.budget_usd and cost.get("total_usd") and cost["total_usd"] > c.budget_usd:
        out.append(
            Bottleneck(
                "over_budget",
                "warning",
                "GPU capex plus energy exceeds the budget",
                cost["total_usd"],
                c.budget_usd,
                "USD",
            )
        )
    return out


def _compatibility(acc: Accelerator) -> dict:
    risks = []
    if acc.ecosystem != "cuda":
        risks.append("CUDA-only kernels and extensions must be ported")
    if acc.family == "nvidia-consumer":
        risks.append("consumer GPU: licence terms and no NVLink")
    if acc.fp8_tflops is None:
        risks.append("no FP8 support")
    return {
        "ecosystem": acc.ecosystem,
        "framework_notes": acc.framework_notes,
        "risks": risks,
    }


def _build(
    core: Core, cost: dict, catalog: Catalog, c: Constraints, alternatives: list[dict]
) -> SizingResult:
    ex = Explainer()
    w, acc = core.workload, core.acc
    top: dict = {}
    ex.put(
        top,
        "",
        "accelerator",
        acc.key,
        "",
        "given"
        if not alternatives
        else "cheapest accelerator available in the region to meet the target",
        {"region": c.region},
        acc.source[:200],
    )
    ex.put(
        top,
        "",
        "gpu_count",
        core.gpus,
        "GPUs",
        "smallest node multiple meeting target_days that fits in memory"
        if (core.training and w.gpu_count is None)
        else "given"
        if w.gpu_count
        else "replicas x (tensor x pipeline)",
        {},
        "",
    )
    training = _training_section(core, ex) if core.training else None
    inference = _inference_section(core, ex) if core.inference else None
    memory = _memory_section(core, ex)
    par: dict = {}
    if core.training:
        lay = core.training.choice.layout
        values = (lay.tensor, lay.pipeline, lay.data, lay.zero_stage)
        formula = (
            "least communication + bubble time among layouts fitting with 10 % "
            "headroom (TP within node, PP powers of two, ZeRO 0-3)"
        )
    else:
        p = core.inference
        values = (p.tensor, p.pipeline, p.replicas, None)  # type: ignore[union-attr]
        formula = "smallest t x p that fits and meets latency; data = replicas"
    for key, value in zip(
        ("tensor", "pipeline", "data", "zero_stage"), values, strict=True
    ):
        ex.put(
            par,
            "parallelism",
            key,
            value,
            "",
            formula,
            {},
            "Narayanan et al. 2021; Rajbhandari et al. 2020",
        )
    interconnect = size_interconnect(
        nodes=core.nodes,
        gpus=core.gpus,
        gpus_per_node=core.server.gpus_per_node,
        scaleup_domain=acc.scaleup_domain_gpus,
        tensor=values[0],
        need_gbps_per_gpu=core.scale_out_need_gbps(),
        server_nic_count=core.server.nic_count,
        server_nic_gbps=core.server.nic_gbps,
        training=w.is_training,
        ecosystem=acc.ecosystem,
        preferred_fabric=c.preferred_fabric,
        catalog=catalog,
        ex=ex,
    )
    total, _ = param_counts(w.model)
    trainable = total * (w.lora_trainable_fraction if w.is_lora else 1.0)
    storage = size_storage(
        params_total=total,
        trainable_params=trainable,
        training=w.is_training,
        tokens_b=w.tokens_b,
        dataset_tb=w.dataset_tb,
        growth_per_year=c.data_growth_per_year,
        planning_years=c.planning_years,
        interval_min=w.checkpoint_interval_min,
        stall_share=w.checkpoint_stall_share,
        checkpoints_kept=w.checkpoints_kept,
        gpus=core.gpus,
        nodes=core.nodes,
        tokens_per_s_per_gpu=core.tokens_per_s_per_gpu(),
        catalog=catalog,
        ex=ex,
    )
    power = size_power(
        nodes=core.nodes,
        node_kw=core.node_kw,
        gpus=core.gpus,
        peak_tflops=acc.peak_tflops(w.precision) or 0.0,
        rack_limit_kw=c.rack_power_limit_kw,
        liquid_ok=c.liquid_cooling_ok,
        platform_liquid=core.server.liquid_cooled,
        pue=c.pue,
        ex=ex,
    )
    cost_out: dict = {}
    for key in ("capex_usd", "energy_usd", "total_usd"):
        ex.put(
            cost_out,
            "cost",
            key,
            cost[key],
            "USD",
            {
                "capex_usd": "GPUs x price per GPU in USD (GPU-only prices x 1.4 server "
                "ratio; CNY / fx)",
                "energy_usd": "nodes x node_kw x PUE x 0.75 x 8760 h x years x $/kWh",
                "total_usd": "capex_usd + energy_usd",
            }[key],
            {
                k: v
                for k, v in cost.items()
                if k not in ("capex_usd", "energy_usd", "total_usd")
            },
            acc.price_source or "no price in catalogue",
        )
    sections = {
        "memory": memory,
        "interconnect": interconnect,
        "storage": storage,
        "power": power,
    }
    bottlenecks = _bottlenecks(core, sections, c, cost)
    return SizingResult(
        engine_version=ENGINE_VERSION,
        kind=w.kind,
        accelerator=acc.key,
        gpu_count=core.gpus,
        training=training,
        memory=memory,
        inference=inference,
        parallelism=par,
        interconnect=interconnect,
        storage=storage,
        power=power,
        compatibility=_compatibility(acc),
        bottlenecks=bottlenecks,
        alternatives=alternatives,
        explanation=ex.as_list(),
        cost=cost_out,
    )


# ----------------------------------------------------------------------------- clusters


def plan_cluster(
    workloads: list[Workload],
    catalog: Catalog,
    accelerator_key: str | None = None,
    constraints: Constraints | None = None,
) -> ClusterPlan:
    """Several workloads on one cluster of one accelerator.

    Combination rule: GPUs are summed (each workload gets its own partition) unless
    ``constraints.time_shared``, when the cluster is sized for the largest one. The
    fabric, storage and power are sized for the whole cluster: scale-out bandwidth per GPU
    is the maximum need, checkpoint writes and capacities add up.
    """
    if not workloads:
        raise SizingInputError("give at least one workload", field="workloads")
    c = constraints or Constraints()
    if accelerator_key is None:
        best: tuple[float, str] | None = None
        for acc in catalog.accelerators.values():
            if (
                acc.status_in(c.region) not in ("available", "conditional")
                or acc.price is None
            ):
                continue
            try:
                cores = [_core(w, acc, catalog) for w in workloads]
            except SizingInputError:
                continue
            if any(
                (k.training and not k.training.choice.fits)
                or (
                    k.inference and not (k.inference.fits and k.inference.meets_latency)
                )
                for k in cores
            ):
                continue
            total = sum(_cost(k, c)["total_usd"] or 0.0 for k in cores)
            if best is None or (total, acc.key) < best:
                best = (total, acc.key)
        if best is None:
            raise SizingInputError(
                "no priced accelerator available in the region can run all workloads",
                field="accelerator",
            )
        accelerator_key = best[1]
    results = [estimate(w, catalog, accelerator_key, c) for w in workloads]
    acc = _accelerator(catalog, accelerator_key)
    server = server_for(acc, catalog)
    counts = [r.gpu_count for r in results]
    gpus = max(counts) if c.time_shared else sum(counts)
    rule = (
        "time-shared: GPUs = max over workloads"
        if c.time_shared
        else "partitioned: GPUs = sum over workloads"
    )
    nodes = math.ceil(gpus / server.gpus_per_node)
    ex = Explainer()
    top: dict = {}
    ex.put(top, "", "gpu_count", gpus, "GPUs", rule, {"per_workload": counts}, "")
    ex.put(
        top,
        "",
        "nodes",
        nodes,
        "nodes",
        "ceil(GPUs / GPUs per node)",
        {"gpus_per_node": server.gpus_per_node},
        server.source[:200],
    )
    training_results = [r for r in results if r.training]
    need = max((r.interconnect["scale_out_gbps_per_gpu"] for r in results), default=0.0)
    tensor = max(r.parallelism["tensor"] or 1 for r in results)
    interconnect = size_interconnect(
        nodes=nodes,
        gpus=gpus,
        gpus_per_node=server.gpus_per_node,
        scaleup_domain=acc.scaleup_domain_gpus,
        tensor=tensor,
        need_gbps_per_gpu=need,
        server_nic_count=server.nic_count,
        server_nic_gbps=server.nic_gbps,
        training=bool(training_results),
        ecosystem=acc.ecosystem,
        preferred_fabric=c.preferred_fabric,
        catalog=catalog,
        ex=ex,
    )
    storage: dict = {}
    for key, unit in (
        ("dataset_tb", "TB"),
        ("checkpoint_gb", "GB"),
        ("checkpoint_write_gbs", "GB/s"),
        ("read_gbs_total", "GB/s"),
        ("capacity_tb", "TB"),
    ):
        ex.put(
            storage,
            "storage",
            key,
            sum(r.storage[key] for r in results),
            unit,
            "sum over workloads",
            {},
            "",
        )
    power = size_power(
        nodes=nodes,
        node_kw=float(server.node_max_kw or 0.0),
        gpus=gpus,
        peak_tflops=acc.bf16_tflops or 0.0,
        rack_limit_kw=c.rack_power_limit_kw,
        liquid_ok=c.liquid_cooling_ok,
        platform_liquid=server.liquid_cooled,
        pue=c.pue,
        ex=ex,
    )
    bottlenecks = [b for r in results for b in r.bottlenecks]
    seen: set[str] = set()
    unique = [b for b in bottlenecks if not (b.code in seen or seen.add(b.code))]
    return ClusterPlan(
        engine_version=ENGINE_VERSION,
        accelerator=accelerator_key,
        gpu_count=gpus,
        nodes=nodes,
        combination_rule=rule,
        workloads=results,
        interconnect=interconnect,
        storage=storage,
        power=power,
        bottlenecks=unique,
        explanation=ex.as_list(),
    )
