"""What the TCO and vendor apps read from sizing: the latest plan's headline figures and
the physical lower bound on a training time. Names and return shapes are a contract
(issue 3)."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields
from decimal import Decimal

from clusterbuy.models import Procurement
from sizing.engine import SizingInputError, workload_from_dict
from sizing.engine.model import training_flops_per_token
from sizing.models import Accelerator, SizingPlan, Workload

from .catalog import as_decimal, engine_catalog
from .plans import latest_plan

# Physical ceiling on model FLOPs utilisation for the training lower bound. Published
# large-run MFUs stay below it: PaLM 540B 46.2 % (Chowdhery et al. 2022, Table 3),
# Llama 3.1 405B 38-43 % (Dubey et al. 2024, Table 4), MegaScale 55.2 % (Jiang et al.
# 2024). 0.6 is above all of them, so no bid can honestly promise a shorter time.
MFU_CEILING = 0.6


@dataclass(frozen=True)
class PlanSummary:
    """The latest plan's headline figures, as the TCO and vendor apps read them.

    Every figure comes from the stored plan. ``gpu_price`` is USD per GPU including its
    server share (None: not priced); ``network_gbps_per_gpu`` the provisioned scale-out
    per GPU; ``storage_write_gbs`` the checkpoint write need; ``cooling`` "air" or
    "liquid"; ``ecosystem`` "cuda", "rocm", "cann", ...; ``model_params_b`` the largest
    model's parameters in billions. A TCO run stores it as `as_dict` (its snapshot).
    """

    plan_id: int = 0
    engine_version: str = ""
    accelerator: str = ""  # catalogue key
    accelerator_name: str = ""
    gpu_count: int = 0
    nodes: int = 0
    gpus_per_node: int | None = None
    vram_gb_per_gpu: float | None = None
    scaleup_domain_gpus: int | None = None
    network_gbps_per_gpu: float | None = None
    fabric: str | None = None
    storage_tb: float | None = None
    storage_read_gbs: float | None = None
    storage_write_gbs: float | None = None
    it_power_kw: float | None = None
    cooling: str | None = None
    ecosystem: str | None = None
    gpu_price: Decimal | None = None
    gpu_price_currency: str = "USD"
    workload_kinds: tuple[str, ...] = ()
    model_names: tuple[str, ...] = ()
    model_params_b: float | None = None
    data_tb: float | None = None
    #: The fabric's bill of materials as the plan counted it (the TCO counts the same
    #: design at a bid's scale): compute NICs per node, their speed, switch ports,
    #: rail-optimised or not, and the parallel file system tier chosen.
    nics_per_node: int | None = None
    nic_gbps: float | None = None
    switch_radix: int | None = None
    rail_optimized: bool | None = None
    storage_tier: str | None = None

    def as_dict(self) -> dict:
        """The summary as plain data (lists for the tuples), for a stored snapshot."""
        data = asdict(self)
        return {k: list(v) if isinstance(v, tuple) else v for k, v in data.items()}

    @classmethod
    def from_dict(cls, data: dict) -> PlanSummary:
        """The summary again from `as_dict` (or its JSON: lists, the price a float)."""
        names = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in names}
        for key in ("workload_kinds", "model_names"):
            values[key] = tuple(values.get(key) or ())
        if values.get("gpu_price") is not None:
            values["gpu_price"] = Decimal(str(values["gpu_price"]))
        return cls(**values)


def _explained(result: dict, quantity: str) -> dict:
    for entry in result.get("explanation", []):
        if entry.get("quantity") == quantity:
            return entry
    return {}


def _gpus_per_node(result: dict) -> int | None:
    """The plan's server size: the node count's own input, else GPUs / nodes."""
    gpu_count, nodes = result["gpu_count"], result["nodes"]
    per_node = _explained(result, "nodes").get("inputs", {}).get("gpus_per_node")
    return per_node or (math.ceil(gpu_count / nodes) if nodes else gpu_count)


def _network_gbps_per_gpu(result: dict, gpus_per_node: int | None) -> float | None:
    """Provisioned scale-out per GPU: NICs per node x NIC speed / GPUs per node."""
    interconnect = result.get("interconnect", {})
    nic_gbps = (interconnect.get("nics_per_node") or 0) * (
        interconnect.get("nic_gbps") or 0
    )
    return nic_gbps / gpus_per_node if gpus_per_node else None


def _gpu_price_usd(result: dict) -> float | None:
    """The first workload's price per GPU (incl. its server share) the cost used."""
    for workload in result.get("workloads", []):
        inputs_cost = _explained(workload, "cost.capex_usd").get("inputs", {})
        if inputs_cost.get("price_usd_per_gpu") is not None:
            return inputs_cost["price_usd_per_gpu"]
    return None


def plan_summary(*, procurement: Procurement) -> PlanSummary | None:
    """The latest plan's headline figures for the TCO and vendor apps (None: no plan)."""
    plan = latest_plan(procurement=procurement)
    if plan is None:
        return None
    result, inputs = plan.result, plan.inputs
    first = (result.get("workloads") or [{}])[0]
    interconnect = result.get("interconnect", {})
    storage = result.get("storage", {})
    power = result.get("power", {})
    accelerator = Accelerator.objects.filter(key=result["accelerator"]).first()
    items = inputs.get("workloads", [])
    params = [i["params_b"] for i in items if i.get("params_b") is not None]
    per_node = _gpus_per_node(result)
    return PlanSummary(
        plan_id=plan.pk,
        engine_version=plan.engine_version,
        accelerator=result["accelerator"],
        accelerator_name=str(accelerator) if accelerator else result["accelerator"],
        gpu_count=result["gpu_count"],
        nodes=result["nodes"],
        gpus_per_node=per_node,
        vram_gb_per_gpu=first.get("memory", {}).get("capacity_gb"),
        scaleup_domain_gpus=interconnect.get("scaleup_domain_gpus"),
        network_gbps_per_gpu=_network_gbps_per_gpu(result, per_node),
        fabric=interconnect.get("fabric"),
        storage_tb=storage.get("capacity_tb"),
        storage_read_gbs=storage.get("read_gbs_total"),
        storage_write_gbs=storage.get("checkpoint_write_gbs"),
        it_power_kw=power.get("it_kw"),
        cooling=power.get("cooling"),
        ecosystem=first.get("compatibility", {}).get("ecosystem"),
        gpu_price=as_decimal(_gpu_price_usd(result)),
        gpu_price_currency="USD",
        workload_kinds=tuple(w.get("kind") for w in result.get("workloads", [])),
        model_names=tuple(i.get("model_name") or i.get("name") for i in items),
        model_params_b=max(params) if params else None,
        data_tb=storage.get("dataset_tb"),
        nics_per_node=interconnect.get("nics_per_node"),
        nic_gbps=interconnect.get("nic_gbps"),
        switch_radix=interconnect.get("switch_radix") or None,
        rail_optimized=interconnect.get("rail_optimized"),
        storage_tier=_parallel_fs_tier(storage),
    )


def _parallel_fs_tier(storage: dict) -> str | None:
    for tier in storage.get("tiers") or []:
        if isinstance(tier, dict) and tier.get("tier") == "parallel_fs":
            return tier.get("key")
    return None


def training_lower_bound_days(
    *, procurement: Procurement, accelerator_key: str, gpu_count: int
) -> float | None:
    """Physical lower bound (days) for the procurement's training workloads.

    sum over training workloads of model FLOPs (6N + attention, no recompute;
    Kaplan et al. 2020, PaLM App. B) / (gpu_count x dense peak of the workload's
    precision x MFU_CEILING = 0.6) / 86400. A bid promising less is impossible.
    None when there is no training workload, the accelerator is unknown, it has no
    peak for a workload's precision, or gpu_count is not positive.
    """
    catalog = engine_catalog()
    acc = catalog.accelerators.get(accelerator_key)
    if acc is None or not gpu_count or gpu_count <= 0:
        return None
    seconds = 0.0
    found = False
    for row in Workload.objects.for_procurement(procurement):
        if not row.is_training:
            continue
        try:
            workload = workload_from_dict(row.to_engine_dict(), catalog)
        except SizingInputError:
            continue
        peak = acc.peak_tflops(workload.precision)
        if not peak:
            return None
        per_token, _extra = training_flops_per_token(
            workload.model, workload.seq_len, "none", workload.lora_trainable_fraction
        )
        tokens = (workload.tokens_b or 0.0) * 1e9
        seconds += per_token * tokens / (gpu_count * peak * 1e12 * MFU_CEILING)
        found = True
    return seconds / 86400.0 if found else None


def has_workloads_and_plan(procurement: Procurement) -> bool:
    return (
        Workload.objects.for_procurement(procurement).exists()
        and SizingPlan.objects.filter(procurement=procurement).exists()
    )
