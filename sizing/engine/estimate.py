"""Entry point ``estimate``: one workload, sized and explained.

With no accelerator given, the catalogue accelerators available in the buyer's region are
ranked by the cost to meet the target (``ranking``): GPUs x indicative price (in USD at
the constraints' fx rate; GPU-only prices x 1.4 to a server share) plus energy over the
planning horizon. The result's sections are assembled here from their own modules;
``plan_cluster`` (several workloads on one cluster) lives in ``cluster``.
"""

from __future__ import annotations

from .bottlenecks import find_bottlenecks
from .catalog import Accelerator, Catalog
from .cost import cost_section, workload_cost
from .errors import SizingInputError
from .explain import Explainer, Section
from .memory_section import memory_section
from .model import param_counts
from .network import size_interconnect
from .plan_sections import parallelism_section, training_section
from .power import size_power
from .ranking import alternative_rows, rank_accelerators
from .result import SizingResult
from .serving_section import inference_section
from .sized_workload import SizedWorkload, accelerator_by_key, size_workload
from .storage import size_storage
from .workload import Constraints, Workload

#: Stored with every plan; changes with the outputs (tests/sizing/engine/test_golden.py,
#: docs/architecture.md "Engine versions"): the major for a changed field of the
#: result, the minor for a changed figure.
ENGINE_VERSION = "sizing-2.5.2"


def estimate(
    workload: Workload,
    catalog: Catalog,
    accelerator_key: str | None = None,
    constraints: Constraints | None = None,
) -> SizingResult:
    constraints = constraints or Constraints()
    if accelerator_key is not None:
        acc = accelerator_by_key(catalog, accelerator_key)
        sized = size_workload(workload, acc, catalog)
        return _assemble(sized, workload_cost(sized, constraints), catalog, constraints)
    ranked = rank_accelerators(workload, catalog, constraints)
    if not ranked:
        raise SizingInputError(
            f"no priced accelerator available in region {constraints.region!r} can "
            "run this workload",
            field="accelerator",
            code="no_priced_accelerator",
            params={"region": constraints.region},
        )
    return _assemble(
        ranked[0].sized,
        ranked[0].cost,
        catalog,
        constraints,
        alternatives=alternative_rows(ranked, constraints),
    )


def _headline(
    sized: SizedWorkload,
    constraints: Constraints,
    recommended: bool,
    explainer: Explainer,
) -> None:
    """The top-level ``accelerator`` and ``gpu_count`` entries: why this one, why so many."""
    acc, workload = sized.accelerator, sized.workload
    top = Section(explainer, "")
    top.put(
        key="accelerator",
        value=acc.key,
        unit="",
        formula="cheapest accelerator available in the region to meet the target"
        if recommended
        else "given",
        inputs={"region": constraints.region},
        source=acc.source[:200],
    )
    if sized.training and workload.gpu_count is None:
        count_rule = "smallest node multiple meeting target_days that fits in memory"
    elif workload.gpu_count:
        count_rule = "given"
    else:
        count_rule = "replicas x (tensor x pipeline)"
    top.put(
        key="gpu_count", value=sized.gpus, unit="GPUs", formula=count_rule, inputs={}
    )


def _interconnect(
    sized: SizedWorkload,
    tensor: int,
    constraints: Constraints,
    catalog: Catalog,
    explainer: Explainer,
) -> dict:
    plan = sized.inference
    # a serving replica across nodes: its timing used the platform's NICs in full
    crosses = bool(plan and plan.gpus // plan.replicas > sized.server.gpus_per_node)
    need_gbps = sized.scale_out_need_gbps()
    if crosses:
        need_gbps = sized.fabric.scaleout_gbs * 8.0  # GB/s per GPU -> Gbit/s
    return size_interconnect(
        cross_node_replica=crosses,
        nodes=sized.nodes,
        gpus=sized.gpus,
        gpus_per_node=sized.server.gpus_per_node,
        scaleup_domain=sized.accelerator.scaleup_domain_gpus,
        tensor=tensor,
        need_gbps_per_gpu=need_gbps,
        server_nic_count=sized.server.nic_count,
        server_nic_gbps=sized.server.nic_gbps,
        training=sized.workload.is_training,
        ecosystem=sized.accelerator.ecosystem,
        preferred_fabric=constraints.preferred_fabric,
        catalog=catalog,
        ex=explainer,
    )


def _storage(
    sized: SizedWorkload,
    constraints: Constraints,
    catalog: Catalog,
    explainer: Explainer,
) -> dict:
    workload = sized.workload
    params_total, _ = param_counts(workload.model)
    trainable_share = workload.lora_trainable_fraction if workload.is_lora else 1.0
    return size_storage(
        params_total=params_total,
        trainable_params=params_total * trainable_share,
        training=workload.is_training,
        tokens_b=workload.tokens_b,
        dataset_tb=workload.dataset_tb,
        growth_per_year=constraints.data_growth_per_year,
        planning_years=constraints.planning_years,
        # the interval the goodput assumed, at the plan's scale (goodput)
        interval_min=workload.restart.interval_min(
            sized.gpus, workload.checkpoint_stall_share
        ),
        stall_share=workload.checkpoint_stall_share,
        checkpoints_kept=workload.checkpoints_kept,
        gpus=sized.gpus,
        nodes=sized.nodes,
        tokens_per_s_per_gpu=sized.tokens_per_s_per_gpu(),
        catalog=catalog,
        ex=explainer,
    )


def _power(
    sized: SizedWorkload, constraints: Constraints, explainer: Explainer
) -> dict:
    return size_power(
        nodes=sized.nodes,
        node_kw=sized.node_kw,
        gpus=sized.gpus,
        peak_tflops=sized.accelerator.peak_tflops(sized.workload.precision) or 0.0,
        rack_limit_kw=constraints.rack_power_limit_kw,
        platform_liquid=sized.server.liquid_cooled,
        pue=constraints.pue,
        ex=explainer,
    )


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


def _assemble(
    sized: SizedWorkload,
    cost: dict,
    catalog: Catalog,
    constraints: Constraints,
    alternatives: list[dict] | None = None,
) -> SizingResult:
    """Every section in the order the explanation lists them, then the bottlenecks."""
    explainer = Explainer()
    _headline(sized, constraints, bool(alternatives), explainer)
    training = training_section(sized, explainer) if sized.training else None
    inference = inference_section(sized, explainer) if sized.inference else None
    sections = {"memory": memory_section(sized, explainer)}
    parallelism = parallelism_section(sized, explainer)
    sections["interconnect"] = _interconnect(
        sized, parallelism["tensor"], constraints, catalog, explainer
    )
    sections["storage"] = _storage(sized, constraints, catalog, explainer)
    sections["power"] = _power(sized, constraints, explainer)
    cost_values = cost_section(cost, sized.accelerator, explainer)
    return SizingResult(
        engine_version=ENGINE_VERSION,
        kind=sized.workload.kind,
        accelerator=sized.accelerator.key,
        gpu_count=sized.gpus,
        training=training,
        memory=sections["memory"],
        inference=inference,
        parallelism=parallelism,
        interconnect=sections["interconnect"],
        storage=sections["storage"],
        power=sections["power"],
        compatibility=_compatibility(sized.accelerator),
        bottlenecks=find_bottlenecks(
            sized=sized, sections=sections, constraints=constraints, cost=cost
        ),
        alternatives=alternatives or [],
        explanation=explainer.as_list(),
        cost=cost_values,
        precision={
            "weights": sized.workload.precision,
            "source": sized.workload.precision_source,
        },
    )
